import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BRIDGE_COUNTS_PATH, type BridgeCounts } from './counts';
import { Budget, DEFAULT_BRIDGE_LIMITS } from './limits';
import { transcodePipeline } from './pipeline-transcode';
import type { RedisBackend } from './redis-backend';
import {
  BridgeRequestError,
  commandFromPath,
  parseCommand,
  parseCommandList,
  parseJson,
  readBody,
} from './upstash-request';
import { type Answer, runEncodedPipeline, runPipeline, runSingle, runTransaction } from './upstash-run';

export interface UpstashBridgeOptions {
  backend: RedisBackend;
  /** The token clients send as `Authorization: Bearer <token>` (or `?_token=`). */
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
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/**
 * The Upstash Redis REST protocol as @upstash/redis speaks it, over a RedisBackend:
 * - `POST /` with `["cmd", ...args]` → 200 `{result}`, or 400 `{error}` when Redis refuses;
 * - `POST /pipeline` with `[[...], ...]` → 200 `[{result}|{error}, ...]`, each command on its own;
 * - `POST /multi-exec` → the same shape, run atomically (400 `{error}` if aborted as a whole);
 * - `GET|POST /cmd/arg/...?OPT=value` → one command from the URL (POST body = last argument);
 * - `Upstash-Encoding: base64` → every string in a result is base64 of its bytes; without it
 *   strings are sent as UTF-8 text (both are one native conversion of the reply's bytes);
 * - `GET /_bridge/counts` → the bridge's request counts, when the bridge gave them (counts.ts);
 * - anything without the right bearer token → 401 `{error: "Unauthorized"}`;
 * - more commands or body bytes in flight than the budgets allow → 503 `{error}` at once;
 * - Redis unreachable or not answering → 502 `{error}`.
 * Other headers the client sends (telemetry, `upstash-sync-token`) need nothing here: with a
 * single Redis every read already sees earlier writes.
 */
export function createUpstashBridge(opts: UpstashBridgeOptions): UpstashBridge {
  // An empty token would let `?_token=` through; the stack always generates one.
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

  async function answer(req: IncomingMessage, target: RequestTarget, body: Buffer): Promise<Answer> {
    if (opts.counts && req.method === 'GET' && target.path === BRIDGE_COUNTS_PATH) {
      return [200, opts.counts()];
    }
    const encoding = req.headers['upstash-encoding'];
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
    if (req.method === 'POST' && target.path === '/multi-exec') {
      const commands = parseCommandList(parseJson(body));
      return withCommands(commands.length, () => runTransaction(backend, commands, base64));
    }
    const command =
      req.method === 'POST' && target.path === '/'
        ? parseCommand(parseJson(body))
        : commandFromPath(target.url(), body);
    return withCommands(1, () => runSingle(backend, command, base64));
  }

  /** Auth, method and the byte budget before the body is read; the body's bytes held until the answer. */
  async function admitAndAnswer(req: IncomingMessage): Promise<Answer> {
    const target = requestTarget(req.url ?? '/');
    if (!isAuthorised(req, target)) return [401, { error: 'Unauthorized' }];
    if (req.method !== 'GET' && req.method !== 'POST') return [405, { error: 'ERR method not allowed' }];
    if (req.method === 'GET') return answer(req, target, Buffer.alloc(0));
    const declared = Math.max(0, Number(req.headers['content-length']) || 0);
    if (declared > maxBodyBytes)
      throw new BridgeRequestError(413, `ERR request body exceeds ${maxBodyBytes} bytes`);
    // A body of unknown length (chunked) is counted once read; it is capped by maxBodyBytes.
    if (!byteBudget.tryTake(declared)) return [503, { error: `ERR ${byteBudget.overloaded()}` }];
    let held = declared;
    try {
      const body = await readBody(req, maxBodyBytes);
      if (body.length > held) {
        if (!byteBudget.tryTake(body.length - held))
          return [503, { error: `ERR ${byteBudget.overloaded()}` }];
        held = body.length;
      }
      return await answer(req, target, body);
    } finally {
      byteBudget.give(held);
    }
  }

  return {
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

interface RequestTarget {
  /** The path as sent, without the query. */
  path: string;
  /** The query's `_token`, the credential of clients that cannot send headers. */
  queryToken(): string | null;
  /** The parsed URL, for the command-in-the-URL form. */
  url(): URL;
}

/**
 * The path by plain string work (every request needs it); the URL is parsed only for the
 * command-in-the-URL form and query tokens. Prefixing keeps a path like `//x` a path (a bare
 * `new URL` would read `x` as a host).
 */
function requestTarget(raw: string): RequestTarget {
  const query = raw.indexOf('?');
  let parsed: URL | undefined;
  const url = (): URL => {
    try {
      parsed ??= new URL(`http://bridge${raw}`);
    } catch {
      throw new BridgeRequestError(400, 'ERR malformed request URL');
    }
    return parsed;
  };
  return {
    path: query < 0 ? raw : raw.slice(0, query),
    queryToken: () => (query < 0 ? null : url().searchParams.get('_token')),
    url,
  };
}

/**
 * Constant-time comparison of the presented token with the expected one. Only their lengths
 * can be told apart by timing, and the length of a generated token is no secret.
 */
function tokenCheck(token: string): (req: IncomingMessage, target: RequestTarget) => boolean {
  const expected = Buffer.from(token);
  return (req, target) => {
    const header = req.headers.authorization;
    const bearer = header !== undefined && /^bearer\s/i.test(header) ? header.slice(7) : undefined;
    const presented = (bearer ?? target.queryToken())?.trim();
    if (presented === undefined || presented.length !== token.length) return false;
    const candidate = Buffer.from(presented);
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  };
}
