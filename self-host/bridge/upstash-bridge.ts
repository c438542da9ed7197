import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RedisBackend } from './redis-backend';
import { RedisCommandError, toCommandError } from './redis-reply';
import { type CommandOutcome, encodeReply, outcomeOf } from './upstash-encoding';
import { refusal } from './upstash-policy';
import {
  BridgeRequestError,
  commandFromPath,
  parseCommand,
  parseCommandList,
  parseJson,
  readBody,
} from './upstash-request';

export interface UpstashBridgeOptions {
  backend: RedisBackend;
  /** The token clients send as `Authorization: Bearer <token>` (or `?_token=`). */
  token: string;
  /** Largest accepted request body; 10 MiB by default. */
  maxBodyBytes?: number;
}

export interface UpstashBridge {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

type Answer = [status: number, body: unknown];

/**
 * The Upstash Redis REST protocol as @upstash/redis speaks it, over a RedisBackend:
 * - `POST /` with `["cmd", ...args]` → 200 `{result}`, or 400 `{error}` when Redis refuses;
 * - `POST /pipeline` with `[[...], ...]` → 200 `[{result}|{error}, ...]`, each command on its own;
 * - `POST /multi-exec` → the same shape, run atomically (400 `{error}` if aborted as a whole);
 * - `GET|POST /cmd/arg/...?OPT=value` → one command from the URL (POST body = last argument);
 * - `Upstash-Encoding: base64` → every string in a result is base64 of its bytes;
 * - anything without the right bearer token → 401 `{error: "Unauthorized"}`.
 * Other headers the client sends (telemetry, `upstash-sync-token`) need nothing here: with a
 * single Redis every read already sees earlier writes.
 */
export function createUpstashBridge(opts: UpstashBridgeOptions): UpstashBridge {
  // An empty token would let `?_token=` through; the stack always generates one.
  if (!opts.token) throw new Error('createUpstashBridge: token must not be empty');
  const { backend } = opts;
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const isAuthorised = tokenCheck(opts.token);

  async function answer(req: IncomingMessage): Promise<Answer> {
    const url = requestUrl(req);
    if (!isAuthorised(req, url)) return [401, { error: 'Unauthorized' }];
    if (req.method !== 'GET' && req.method !== 'POST') return [405, { error: 'ERR method not allowed' }];
    const body = req.method === 'POST' ? await readBody(req, maxBodyBytes) : Buffer.alloc(0);
    const base64 = String(req.headers['upstash-encoding']).toLowerCase() === 'base64';
    if (req.method === 'POST' && url.pathname === '/pipeline') {
      return [200, await runPipeline(backend, parseCommandList(parseJson(body)), base64)];
    }
    if (req.method === 'POST' && url.pathname === '/multi-exec') {
      return runTransaction(backend, parseCommandList(parseJson(body)), base64);
    }
    const command =
      req.method === 'POST' && url.pathname === '/'
        ? parseCommand(parseJson(body))
        : commandFromPath(url, body);
    return runSingle(backend, command, base64);
  }

  return {
    async handle(req, res) {
      let reply: Answer;
      try {
        reply = await answer(req);
      } catch (error) {
        if (!(error instanceof BridgeRequestError)) throw error;
        reply = [error.status, { error: error.message }];
      }
      const json = JSON.stringify(reply[1]);
      res.writeHead(reply[0], {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(json),
      });
      res.end(json);
    },
  };
}

async function runSingle(backend: RedisBackend, command: string[], base64: boolean): Promise<Answer> {
  const refused = refusal(command);
  if (refused) return [400, { error: refused }];
  try {
    return [200, { result: encodeReply(await backend.call(command), base64) }];
  } catch (error) {
    return failure(error);
  }
}

/** Commands are issued together (the backend keeps their order); one failing spoils no other. */
async function runPipeline(
  backend: RedisBackend,
  commands: string[][],
  base64: boolean,
): Promise<CommandOutcome[]> {
  const settled = await Promise.allSettled(
    commands.map((command) => {
      const refused = refusal(command);
      return refused ? Promise.reject(new RedisCommandError(refused)) : backend.call(command);
    }),
  );
  return settled.map((outcome) =>
    outcome.status === 'fulfilled'
      ? outcomeOf(outcome.value, base64)
      : { error: toCommandError(outcome.reason).message },
  );
}

async function runTransaction(backend: RedisBackend, commands: string[][], base64: boolean): Promise<Answer> {
  // Like a command Redis rejects while queueing, a refused one aborts the whole transaction.
  const refused = commands.map(refusal).find((message) => message !== null);
  if (refused)
    return [400, { error: `EXECABORT Transaction discarded because of previous errors: ${refused}` }];
  try {
    const replies = await backend.transaction(commands);
    return [200, replies.map((reply) => outcomeOf(reply, base64))];
  } catch (error) {
    return failure(error);
  }
}

/** 400 with Redis's text when Redis said no; 502 when Redis could not be reached at all. */
function failure(error: unknown): Answer {
  if (error instanceof RedisCommandError) return [400, { error: error.message }];
  return [
    502,
    {
      error: `ERR store bridge could not reach Redis: ${error instanceof Error ? error.message : String(error)}`,
    },
  ];
}

/** Prefixing keeps a path like `//x` a path (a bare `new URL` would read `x` as a host). */
function requestUrl(req: IncomingMessage): URL {
  try {
    return new URL(`http://bridge${req.url ?? '/'}`);
  } catch {
    throw new BridgeRequestError(400, 'ERR malformed request URL');
  }
}

/** Compares SHA-256 digests so the check takes the same time whatever the token's length. */
function tokenCheck(token: string): (req: IncomingMessage, url: URL) => boolean {
  const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
  const expected = digest(token);
  return (req, url) => {
    const header = req.headers.authorization ?? '';
    const bearer = /^Bearer\s+(.+)$/i.exec(header)?.[1];
    const presented = bearer ?? url.searchParams.get('_token');
    return presented !== null && timingSafeEqual(digest(presented.trim()), expected);
  };
}
