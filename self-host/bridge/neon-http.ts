import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
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

/** Bigger bodies are refused (413) before they are buffered; no dev query needs more. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface NeonHttpHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

/**
 * Neon's SQL-over-HTTP endpoint (what `neon()` POSTs to) over a real Postgres or PGlite.
 * The caller routes `POST /sql` here. Errors are always answered, never thrown.
 */
export function createNeonHttpHandler(opts: { target: { host: string; port: number } }): NeonHttpHandler {
  const pools = createPoolRegistry(opts.target);
  return {
    async handle(req, res) {
      try {
        if (req.method !== 'POST') throw new NeonHttpRequestError(405, 'use POST to send SQL');
        const identity = parseConnectionIdentity(req.headers);
        const arrayMode = parseArrayMode(req.headers);
        const begin = beginStatement(req.headers);
        const payload = parsePayload(await readBody(req, MAX_BODY_BYTES));
        const pool = pools.poolFor(identity);
        const body =
          payload.kind === 'single'
            ? await runStatement(pool, payload.statement, arrayMode)
            : { results: await runTransaction(pool, payload.statements, begin, arrayMode) };
        sendJson(res, 200, body);
      } catch (error) {
        const { status, body } = toNeonError(error);
        sendJson(res, status, body);
      }
    },
    close: () => pools.close(),
  };
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
