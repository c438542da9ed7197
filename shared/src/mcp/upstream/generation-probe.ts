import { RpcFault } from '../gateway/jsonrpc';
import type { ClientChannel, McpServerTarget } from '../ports';
import { authenticatedFetch } from './auth';
import { readRpcAnswer } from './rpc-answers';
import { standardHeaders } from './standard-headers';

/** The stateless revision (SEP-2575). */
export const REVISION = '2026-07-28';
const CLIENT_INFO = { name: 'sluice-gateway', version: '0.1.0' };
/** JSON-RPC error of a server that does not speak the version a request named (SEP-2575). */
export const UNSUPPORTED_VERSION = -32022;

/** What every request of the revision carries in its `_meta` (SEP-2575). */
export function revisionMeta(capabilities: ClientChannel['capabilities']) {
  return {
    'io.modelcontextprotocol/protocolVersion': REVISION,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  };
}

/**
 * One request of the revision to the server, as it goes on the wire: its credential, the
 * revision's version header and the standard headers of the message (`_meta` is the caller's).
 */
export function postRevisionRequest(
  rpc: ProbeRpc,
  body: { method: string; params: Record<string, unknown> },
): Promise<Response> {
  return authenticatedFetch(rpc.target, rpc.fetch)(rpc.target.endpointUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': REVISION,
      ...standardHeaders(body, rpc.target.paramHeaders),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(rpc.timeoutMs),
  });
}

export interface ProbeRpc {
  target: McpServerTarget;
  fetch: typeof fetch;
  timeoutMs: number;
  capabilities: ClientChannel['capabilities'];
}

/**
 * Whether a server speaks only the stateless revision, asked before any session-era request: an
 * `initialize` in the revision's form (its `_meta`, its version header, no session-era params).
 * A server that speaks nothing older answers -32022 listing only the revision's versions; a
 * server of both generations refuses the form (initialize is no RPC of the revision: -32601),
 * and a session-era one refuses the params; neither opens a session. So a client of the
 * revision sees its own form from its first request, and a server of both generations still
 * gets the session-era client that relays everything. Unreachable or unclear: false (the
 * session-era connect reports what is wrong). A refusal of the credential is the caller's.
 */
export async function speaksOnlyTheRevision(rpc: ProbeRpc): Promise<boolean> {
  const body = {
    jsonrpc: '2.0',
    id: crypto.randomUUID(),
    method: 'initialize',
    params: { _meta: revisionMeta(rpc.capabilities) },
  };
  let response: Response;
  try {
    response = await postRevisionRequest(rpc, body);
  } catch (error) {
    if (error instanceof RpcFault) throw error;
    return false;
  }
  const answer = await readRpcAnswer(response).catch(() => null);
  const error = answer?.error as { code?: unknown; data?: { supported?: unknown } } | undefined;
  const supported = error?.data?.supported;
  return (
    error?.code === UNSUPPORTED_VERSION &&
    Array.isArray(supported) &&
    supported.length > 0 &&
    supported.every((version) => typeof version === 'string' && version >= REVISION)
  );
}
