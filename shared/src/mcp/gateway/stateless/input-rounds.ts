import type { McpResult } from '../../ports';
import { createClientChannel } from '../client-channel';
import type { McpPost } from '../handle-mcp';
import { type JsonRpcId, type JsonRpcRequest, McpRpcError, RPC, RpcFault } from '../jsonrpc';
import { callMethod, type MethodDeps } from '../methods';
import type { SessionContext } from '../upstream-calls';
import { statelessCall } from './method-call';

/** Where a bridged call stands, handed to the client as the opaque requestState. */
interface RoundState {
  call: string;
  seen: number;
}

const encodeState = (state: RoundState): string => btoa(JSON.stringify(state));

function decodeState(value: unknown): RoundState | null {
  if (typeof value !== 'string') return null;
  try {
    const state = JSON.parse(atob(value)) as Partial<RoundState>;
    return typeof state.call === 'string' &&
      /^[0-9a-f-]{36}$/.test(state.call) &&
      Number.isInteger(state.seen)
      ? { call: state.call, seen: state.seen as number }
      : null;
  } catch {
    return null;
  }
}

/**
 * A stateless client's call bridged to a session-era server that asks the client something
 * mid-call (sampling, elicitation, roots): the revision has no server-to-client requests, so
 * the question goes back as an input-required result (SEP-2322) whose input key is the relayed
 * request's id and whose requestState says which call and how far. The call runs on where it
 * started (waitUntil), keeping what happens in the session store; the client's retry — on any
 * isolate or instance — hands the answers over (the waiting call takes them from there) and
 * waits for the call's next question or its answer.
 */
export async function callWithInputRounds(
  post: McpPost,
  message: JsonRpcRequest & { id: JsonRpcId },
  session: SessionContext,
  deps: MethodDeps,
  declared: Record<string, unknown>,
): Promise<McpResult> {
  const { inputResponses, requestState, ...params } = message.params ?? {};
  const resumed = decodeState(requestState);
  if (requestState !== undefined && !resumed) throw new RpcFault(RPC.invalidParams, 'Invalid requestState');
  if (resumed) {
    const answers = (
      typeof inputResponses === 'object' && inputResponses !== null ? inputResponses : {}
    ) as McpResult;
    for (const [key, value] of Object.entries(answers))
      await deps.sessions.putAnswer(session.id, key, { result: value });
  }
  const state = resumed ?? start(post, { ...message, params }, session, deps, declared);
  return nextOutcome(state, session, deps, message.id);
}

function start(
  post: McpPost,
  message: JsonRpcRequest & { id: JsonRpcId },
  session: SessionContext,
  deps: MethodDeps,
  declared: Record<string, unknown>,
): RoundState {
  const call = crypto.randomUUID();
  let index = 0;
  const keep = (event: unknown, final: boolean) => {
    index += 1;
    return deps.sessions.putEvent(session.id, call, index, { message: event, final });
  };
  const channel = createClientChannel({
    capabilities: declared,
    // Requests (they carry an id) become the client's next round; notifications have nowhere to go.
    send: (relayed) => {
      if ((relayed as { id?: unknown }).id !== undefined) void keep(relayed, false);
    },
    answers: deps.sessions,
    sessionId: session.id,
    timeoutMs: deps.timeoutMs,
  });
  const work = callMethod({ ...statelessCall(post, message, session), channel }, deps).then(
    (result) => keep({ result }, true),
    (error: unknown) => keep({ error: errorOf(error) }, true),
  );
  post.waitUntil(work);
  return { call, seen: 0 };
}

function errorOf(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof RpcFault) return { code: error.code, message: error.message, data: error.data };
  if (error instanceof McpRpcError) return { code: error.rpcCode, message: error.message };
  return { code: RPC.internalError, message: 'Internal error' };
}

/** The call's next question for the client, or its answer; the MCP timeout at most. */
async function nextOutcome(state: RoundState, session: SessionContext, deps: MethodDeps, id: JsonRpcId) {
  const deadline = Date.now() + deps.timeoutMs;
  for (let pause = 25; Date.now() < deadline; pause = Math.min(500, pause * 2)) {
    const [next] = await deps.sessions.eventsAfter(session.id, state.call, state.seen);
    if (next?.final) {
      const outcome = next.message as {
        result?: McpResult;
        error?: { code: number; message: string; data?: unknown };
      };
      if (outcome.error) throw new RpcFault(outcome.error.code, outcome.error.message, outcome.error.data);
      return outcome.result ?? {};
    }
    if (next) {
      const relayed = next.message as { id: string; method: string; params?: McpResult };
      return {
        resultType: 'input_required',
        inputRequests: {
          [relayed.id]: { method: relayed.method, ...(relayed.params && { params: relayed.params }) },
        },
        requestState: encodeState({ call: state.call, seen: next.index }),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  throw new McpRpcError(504, RPC.internalError, 'The MCP server did not answer in time', id);
}
