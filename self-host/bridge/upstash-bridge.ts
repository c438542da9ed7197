import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BRIDGE_COUNTS_PATH, type BridgeCounts } from './counts';
import type { RequestHead } from './http1-parse';
import type { LeanAnswer, LeanHandler } from './http1-server';
import { Budget, DEFAULT_BRIDGE_LIMITS } from './limits';
import { transcodePipeline } from './pipeline-transcode';
import type { RedisBackend } from './redis-backend';
import { BridgeRequestError, parseCommand, parseCommandList, parseJson, readBody } from './upstash-request';
import { type Answer, runEncodedPipeline, runPipeline, runSingle } from './upstash-run';

export interface UpstashBridgeOptions {
  backend: RedisBackend;
  /** The token clients send as `Authorization: Bearer <token>`. */
  token: string;
  /** Largest accepted request body; 10 MiB by default. */
  maxBodyBytes?: number;
  /** Redis commands in flight over all requests; a default budget when not shared. */
  commands?: Budget;
  /** Request body bytes held over all requests (shared with the Neon HTTP endpoint). */
  bytes?: Budget;
  /** The bridge's counts, answered at `GET /_bridge/counts` (behind the token) when given. */
  counts?: () => BridgeCounts;
}

export interface UpstashBridge {
  /** For Node's `http` server. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** For the lean HTTP/1.1 server (http1-server.ts): the same protocol, the same answers. */
  lean: LeanHandler<LeanRequest>;
}

/** What the lean handler read of a head it let through, for its answer. */
interface LeanRequest {
  head: UpstashHead;
  target: RequestTarget;
  declared: number;
}

/** What the protocol reads of a request's head, whichever server received it. */
interface UpstashHead {
  method: string;
  url: string;
  /** Header values by lower-case name (a Map on the lean server). */
  headers: { get(name: 'authorization' | 'upstash-encoding'): string | undefined };
}

/**
 * The Upstash Redis REST protocol as the apps' @upstash/redis clients speak it, over a
 * RedisBackend (the gateway's calls off its Redis link, and everything on `npm start`):
 * - `POST /` with `["cmd", ...args]` → 200 `{result}`, or 400 `{error}` when Redis refuses;
 * - `POST /pipeline` with `[[...], ...]` → 200 `[{result}|{error}, ...]`, each command on its own;
 * - `Upstash-Encoding: base64` → every string in a result is base64 of its bytes; without it
 *   strings are sent as UTF-8 text (both are one native conversion of the reply's bytes);
 * - `GET /_bridge/counts` → the bridge's request counts, when the bridge gave them (counts.ts);
 * - anything without the right bearer token → 401 `{error: "Unauthorized"}`; another method
 *   → 405, another path (Upstash's transactions, commands in the URL) → 404;
 * - more commands or body bytes in flight than the budgets allow → 503 `{error}` at once;
 * - Redis unreachable or not answering → 502 `{error}`.
 * Other headers the client sends (telemetry, `upstash-sync-token`) need nothing here: with a
 * single Redis every read already sees earlier writes.
 */
export function createUpstashBridge(opts: UpstashBridgeOptions): UpstashBridge {
  // An empty token would let `Bearer ` through; the stack always generates one.
  if (!opts.token) throw new Error('createUpstashBridge: token must not be empty');
  const { backend } = opts;
  const pipelineEncoded = backend.pipelineEncoded?.bind(backend);
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_BRIDGE_LIMITS.maxBodyBytes;
  const commandBudget =
    opts.commands ?? new Budget('Redis commands', DEFAULT_BRIDGE_LIMITS.maxCommandsInFlight);
  const byteBudget = opts.bytes ?? new Budget('request bytes', DEFAULT_BRIDGE_LIMITS.maxBytesInFlight);
  const isAuthorised = tokenCheck(opts.token);

  /** Runs the request's commands while holding their share of the command budget. */
  async function withCommands(count: number, run: () => Promise<Answer>): Promise<Answer> {
    if (!commandBudget.tryTake(count)) return [503, { error: `ERR ${commandBudget.overloaded()}` }];
    try {
      return await run();
    } finally {
      commandBudget.give(count);
    }
  }

  async function answer(req: UpstashHead, target: RequestTarget, body: Buffer): Promise<Answer> {
    if (opts.counts && req.method === 'GET' && target.path === BRIDGE_COUNTS_PATH) {
      return [200, opts.counts()];
    }
    const encoding = req.headers.get('upstash-encoding');
    const base64 = typeof encoding === 'string' && encoding.toLowerCase() === 'base64';
    if (req.method === 'POST' && target.path === '/pipeline') {
      // The gateway's batches, straight from JSON bytes to RESP when the backend speaks it.
      const encoded = pipelineEncoded ? transcodePipeline(body) : null;
      if (pipelineEncoded && encoded) {
        return withCommands(encoded.count, () => runEncodedPipeline(pipelineEncoded, encoded, base64));
      }
      const commands = parseCommandList(parseJson(body));
      return withCommands(commands.length, () => runPipeline(backend, commands, base64));
    }
    if (req.method === 'POST' && target.path === '/') {
      const command = parseCommand(parseJson(body));
      return withCommands(1, () => runSingle(backend, command, base64));
    }
    return [404, { error: `ERR ${req.method} ${target.path} is not an endpoint of the store bridge` }];
  }

  /** What refuses a request from its head: credentials, method, a body too large for the bridge. */
  function refusal(req: UpstashHead, declared: number): Answer | null {
    if (!isAuthorised(req)) return [401, { error: 'Unauthorized' }];
    if (req.method !== 'GET' && req.method !== 'POST') return [405, { error: 'ERR method not allowed' }];
    if (declared > maxBodyBytes) return [413, { error: `ERR request body exceeds ${maxBodyBytes} bytes` }];
    if (declared > 0 && !byteBudget.tryTake(declared))
      return [503, { error: `ERR ${byteBudget.overloaded()}` }];
    return null;
  }

  /**
   * The answer to a request whose head passed (its declared bytes held by the caller). A body
   * of unknown length (chunked) is counted once read, beyond what was declared.
   */
  async function answerWithBody(req: UpstashHead, target: RequestTarget, declared: number, body: Buffer) {
    const extra = Math.max(0, body.length - declared);
    if (extra > 0 && !byteBudget.tryTake(extra))
      return [503, { error: `ERR ${byteBudget.overloaded()}` }] as Answer;
    try {
      return await answer(req, target, req.method === 'GET' ? Buffer.alloc(0) : body);
    } finally {
      byteBudget.give(extra);
    }
  }

  /** Node's `http`: the byte budget before the body is read; the body's bytes held until the answer. */
  async function admitAndAnswer(req: IncomingMessage): Promise<Answer> {
    const head = nodeHead(req);
    const target = new RequestTarget(head.url);
    const declared = req.method === 'POST' ? Math.max(0, Number(req.headers['content-length']) || 0) : 0;
    const refused = refusal(head, declared);
    if (refused) return refused;
    try {
      const body = req.method === 'POST' ? await readBody(req, maxBodyBytes) : Buffer.alloc(0);
      return await answerWithBody(head, target, declared, body);
    } finally {
      byteBudget.give(declared);
    }
  }

  const lean: LeanHandler<LeanRequest> = {
    head(head) {
      const request = {
        head: leanHead(head),
        target: new RequestTarget(head.target),
        declared: declaredBytes(head),
      };
      const refused = refusal(request.head, request.declared);
      if (refused) return { refuse: toLean(refused) };
      const { declared } = request;
      return declared > 0
        ? { accept: request, release: () => byteBudget.give(declared) }
        : { accept: request };
    },
    async answer({ head, target, declared }, body) {
      try {
        return toLean(await answerWithBody(head, target, declared, body));
      } catch (error) {
        if (!(error instanceof BridgeRequestError)) throw error;
        return toLean([error.status, { error: error.message }]);
      }
    },
  };

  return {
    lean,
    async handle(req, res) {
      let reply: Answer;
      try {
        reply = await admitAndAnswer(req);
      } catch (error) {
        if (!(error instanceof BridgeRequestError)) throw error;
        reply = [error.status, { error: error.message }];
      }
      const json = JSON.stringify(reply[1]);
      res.writeHead(reply[0], [
        'content-type',
        'application/json',
        'content-length',
        String(Buffer.byteLength(json)),
      ]);
      res.end(json);
    },
  };
}

function nodeHead(req: IncomingMessage): UpstashHead {
  const headers = new Map<string, string>();
  for (const name of ['authorization', 'upstash-encoding'] as const) {
    const value = req.headers[name];
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return { method: req.method ?? 'GET', url: req.url ?? '/', headers };
}

function leanHead(head: RequestHead): UpstashHead {
  return { method: head.method, url: head.target, headers: head.headers };
}

/** The body bytes a request declared in its head (POST only: a GET's body is ignored). */
function declaredBytes(head: RequestHead): number {
  return head.body.kind === 'length' && head.method === 'POST' ? head.body.bytes : 0;
}

function toLean([status, body]: Answer): LeanAnswer {
  return { status, json: JSON.stringify(body) };
}

/** The request target's path, read by plain string work (the query, if any, is not used). */
class RequestTarget {
  /** The path as sent, without the query. */
  readonly path: string;

  constructor(raw: string) {
    const query = raw.indexOf('?');
    this.path = query < 0 ? raw : raw.slice(0, query);
  }
}

/**
 * Constant-time comparison of the presented token with the expected one. Only their lengths
 * can be told apart by timing, and the length of a generated token is no secret.
 */
function tokenCheck(token: string): (req: UpstashHead) => boolean {
  const expected = Buffer.from(token);
  return (req) => {
    const header = req.headers.get('authorization');
    const bearer = header !== undefined && /^bearer\s/i.test(header) ? header.slice(7) : undefined;
    const presented = bearer?.trim();
    if (presented === undefined || presented.length !== token.length) return false;
    const candidate = Buffer.from(presented);
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  };
}
