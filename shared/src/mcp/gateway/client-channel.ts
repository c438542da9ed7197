import { type ClientChannel, type McpResult, RelayedRequestError } from '../ports';
import { RPC } from './jsonrpc';
import type { McpSessionStore, RelayedAnswer } from './sessions';

/** Ids of the requests the gateway sends its clients: its own, so a client's answer is known. */
export const RELAY_ID_PREFIX = 'sluice-relay-';

export interface ChannelOptions {
  capabilities: ClientChannel['capabilities'];
  /** Writes one JSON-RPC message on the request's event stream. */
  send(message: unknown): void;
  answers: Pick<McpSessionStore, 'takeAnswer'>;
  sessionId: string;
  /** Longest wait for the client's answer. */
  timeoutMs: number;
  /** First and longest pause between looks for the answer. */
  pollMs?: { first: number; max: number };
  /** The upstream ended its stream mid-call and resumed it (SEP-1699 polling). */
  onUpstreamResumed?: () => void;
}

/**
 * The client of a streamed gateway request, for the upstream it calls. A relayed request goes
 * out on the request's own event stream under a gateway id; the client POSTs its answer to
 * the session like any message, which may reach another isolate or instance, so the answer is
 * kept in the session store and looked for there, from this request's own chain of events
 * (workerd lets a request wait only on its own I/O), more slowly as the wait grows.
 */
export function createClientChannel(options: ChannelOptions): ClientChannel {
  const poll = options.pollMs ?? { first: 25, max: 500 };
  const waitForAnswer = async (requestId: string): Promise<RelayedAnswer> => {
    const deadline = Date.now() + options.timeoutMs;
    for (let pause = poll.first; ; pause = Math.min(poll.max, pause * 2)) {
      const answer = await options.answers.takeAnswer(options.sessionId, requestId);
      if (answer) return answer;
      if (Date.now() + pause > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
    throw new RelayedRequestError(
      RPC.internalError,
      `The client did not answer within ${Math.round(options.timeoutMs / 1000)} s`,
    );
  };
  return {
    capabilities: options.capabilities,
    async request(method, params) {
      const id = `${RELAY_ID_PREFIX}${crypto.randomUUID()}`;
      options.send({ jsonrpc: '2.0', id, method, ...(params !== undefined && { params }) });
      const answer = await waitForAnswer(id);
      if ('result' in answer) return (answer.result ?? {}) as McpResult;
      const { code, message, data } = answer.error;
      throw new RelayedRequestError(
        typeof code === 'number' ? code : RPC.internalError,
        typeof message === 'string' ? message : 'The client refused the request',
        data,
      );
    },
    notify(method, params) {
      options.send({ jsonrpc: '2.0', method, ...(params !== undefined && { params }) });
    },
    ...(options.onUpstreamResumed && { onUpstreamResumed: options.onUpstreamResumed }),
  };
}

/** For a request answered as one JSON body: nothing can reach the client until it is done. */
export function unreachableClient(capabilities: ClientChannel['capabilities']): ClientChannel {
  return {
    capabilities,
    request: async (method) => {
      throw new RelayedRequestError(
        RPC.internalError,
        `${method} cannot reach the client: its request did not accept an event stream`,
      );
    },
    notify: () => {},
  };
}
