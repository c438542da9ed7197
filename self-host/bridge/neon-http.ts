import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import { Budget, DEFAULT_BRIDGE_LIMITS } from './limits';
import { createPoolRegistry } from './neon-http-pools';
import {
  beginStatement,
  NeonHttpRequestError,
  parseArrayMode,
  parseConnectionIdentity,
  parsePayload,
  readBody,
  type SqlStatement,
} from './neon-http-request';
import { type NeonQueryResult, toNeonError, toNeonResult } from './neon-http-results';

export interface NeonHttpHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

export interface NeonHttpOptions {
  target: { host: string; port: number };
  /** Postgres connections per user/database. */
  poolSize?: number;
  /** Bound on a connection and on each statement. */
  pgTimeoutMs?: number;
  /** Largest accepted request body (413 above). */
  maxBodyBytes?: number;
  /** Statements waiting for or holding a connection; a default budget when not shared. */
  queries?: Budget;
  /** Request body bytes held over all requests (shared with the Upstash endpoint). */
  bytes?: Budget;
}

/**
 * Neon's SQL-over-HTTP endpoint (what `neon()` POSTs to) over a real Postgres or PGlite.
 * The caller routes `POST /sql` here. Errors are always answered, never thrown. Past the
 * statement or byte budget a request is answered 503 at once instead of joining the pool's
 * queue, which would otherwise grow without bound while Postgres is slow.
 */
export function createNeonHttpHandler(opts: NeonHttpOptions): NeonHttpHandler {
  const pools = createPoolRegistry(opts.target, {
    size: opts.poolSize ?? DEFAULT_BRIDGE_LIMITS.pgPoolSize,
    timeoutMs: opts.pgTimeoutMs ?? DEFAULT_BRIDGE_LIMITS.pgTimeoutMs,
  });
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_BRIDGE_LIMITS.maxBodyBytes;
  const queries = opts.queries ?? new Budget('SQL statements', DEFAULT_BRIDGE_LIMITS.maxQueriesInFlight);
  const bytes = opts.bytes ?? new Budget('request bytes', DEFAULT_BRIDGE_LIMITS.maxBytesInFlight);

  async function answer(req: IncomingMessage): Promise<unknown> {
    if (req.method !== 'POST') throw new NeonHttpRequestError(405, 'use POST to send SQL');
    const identity = parseConnectionIdentity(req.headers);
    const arrayMode = parseArrayMode(req.headers);
    const begin = beginStatement(req.headers);
    const payload = parsePayload(await readBody(req, maxBodyBytes));
    const statements = payload.kind === 'single' ? 1 : payload.statements.length;
    if (!queries.tryTake(statements)) throw new NeonHttpRequestError(503, queries.overloaded());
    try {
      const pool = pools.poolFor(identity);
      return payload.kind === 'single'
        ? await runStatement(pool, payload.statement, arrayMode)
        : { results: await runTransaction(pool, payload.statements, begin, arrayMode) };
    } finally {
      queries.give(statements);
    }
  }

  return {
    async handle(req, res) {
      const declared = Math.max(0, Number(req.headers['content-length']) || 0);
      const held = Math.min(declared, maxBodyBytes);
      if (!bytes.tryTake(held)) {
        sendJson(res, 503, overloadedBody(bytes.overloaded()));
        return;
      }
      try {
        sendJson(res, 200, await answer(req));
      } catch (error) {
        const { status, body } = toNeonError(error);
        sendJson(res, status, status === 503 ? overloadedBody(String(body.message)) : body);
      } finally {
        bytes.give(held);
      }
    },
    close: () => pools.close(),
  };
}

/** Neon's driver reads `message`; `error` is what the bridge's other endpoint answers with. */
function overloadedBody(message: string): { message: string; error: string } {
  return { message, error: message };
}

/**
 * The extended protocol even without params, as Neon does: one statement per query, so
 * `select 1; select 2` fails here just as it would in production.
 */
function queryConfig(statement: SqlStatement): pg.QueryArrayConfig & { queryMode: 'extended' } {
  return { text: statement.query, values: statement.params, rowMode: 'array', queryMode: 'extended' };
}

async function runStatement(
  runner: pg.Pool | pg.PoolClient,
  statement: SqlStatement,
  arrayMode: boolean,
): Promise<NeonQueryResult> {
  const result = await runner.query<unknown[]>(queryConfig(statement));
  return toNeonResult(result, arrayMode);
}

/** `sql.transaction([...])`: all statements on one connection, committed together or not at all. */
async function runTransaction(
  pool: pg.Pool,
  statements: SqlStatement[],
  begin: string,
  arrayMode: boolean,
): Promise<NeonQueryResult[]> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(begin);
    const results: NeonQueryResult[] = [];
    for (const statement of statements) results.push(await runStatement(client, statement, arrayMode));
    await client.query('COMMIT');
    return results;
  } catch (error) {
    // If even ROLLBACK fails the connection is unusable; release(error) discards it.
    broken = await client.query('ROLLBACK').then(
      () => undefined,
      (rollbackError: unknown) =>
        rollbackError instanceof Error ? rollbackError : new Error('rollback failed'),
    );
    throw error;
  } finally {
    client.release(broken);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.writableEnded) return;
  const text = JSON.stringify(body);
  // No `connection: close` after a 413: Node discards the unread rest of the body once the
  // response is sent, so the client can finish uploading and still read our answer.
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
