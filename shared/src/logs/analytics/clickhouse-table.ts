import { type ClickHouseClient, ClickHouseError } from '@clickhouse/client-web';
import { AppError } from '../../http/app-error';
import { CLICKHOUSE_ROW_FORMAT } from '../../stores/clickhouse';
import { chColumnDefinition } from './clickhouse-columns';
import { type ChLogFilter, newestFirstPage, type PageSpan, rankedPage } from './clickhouse-pages';
import type { ChTableSchema } from './clickhouse-schema';
import { type ChSql, chIdent, chJoin, chSql } from './clickhouse-sql';

export type { ChLogFilter } from './clickhouse-pages';

/**
 * What every ClickHouse log table (request, MCP, access, app) shares: creation on first use
 * (and the columns an older release's table lacks), JSONEachRow inserts, and its pages
 * (clickhouse-pages.ts). The columns themselves are the log's schema (clickhouse-schema.ts).
 */
export interface ClickHouseTableOptions {
  database: string;
  /** Creates the database; it runs before the table is created (see ensureClickHouseDatabase). */
  ensureDatabase?: () => Promise<void>;
  /**
   * The caller's deadline for one query (the client's request_timeout): ClickHouse is told to
   * give up at it too (max_execution_time), as 18.16 keeps running a query whose HTTP client
   * has gone (see chQuery).
   */
  timeoutMs?: number;
}

export interface ClickHouseLogTable {
  /** The qualified table name. */
  table: ChSql;
  /** JSONEachRow insert of prepared rows (none: no round trip). */
  insert(values: readonly object[]): Promise<void>;
  select<T>(query: ChSql): Promise<T[]>;
  /** Which of these ids the table holds (no round trip for none). */
  existingIds(ids: readonly string[]): Promise<Set<string>>;
  /**
   * One page, newest first with ties by id descending (as in Postgres), and the total of every
   * match.
   */
  page<T>(columns: ChSql, filter: ChLogFilter, page: PageSpan): Promise<{ total: number; rows: T[] }>;
  /** The same ordered by `column` descending (NULLs last), then by id descending. */
  pageBy<T>(
    columns: ChSql,
    filter: ChLogFilter,
    column: string,
    page: PageSpan,
  ): Promise<{ total: number; rows: T[] }>;
}

/**
 * One log table: created on first use, or brought up to the schema if an older release created
 * it (once; again after a failed attempt), every name qualified with the database so one client
 * can serve several.
 */
export function clickHouseLogTable(
  client: ClickHouseClient,
  options: ClickHouseTableOptions,
  schema: ChTableSchema,
  /** Statements run after the table is up to date (tables derived from it, the views feeding them). */
  derived: (database: string) => readonly ChSql[] = () => [],
): ClickHouseLogTable {
  let ready: Promise<void> | null = null;
  const ensure = () => {
    ready ??= (async () => {
      await options.ensureDatabase?.();
      await client.command({ query: schema.ddl(options.database).sql });
      await addMissingColumns(client, options.database, schema);
      for (const statement of derived(options.database)) await client.command({ query: statement.sql });
    })().catch((error: unknown) => {
      ready = null;
      throw error;
    });
    return ready;
  };
  const table = chIdent(options.database, schema.name);
  const select = async <T>(query: ChSql): Promise<T[]> => {
    try {
      await ensure();
      return await chQuery<T>(client, query, options.timeoutMs);
    } catch (error) {
      // ClickHouse refusing the query is a bug (500); not reaching it is an outage (503).
      if (error instanceof ClickHouseError) throw error;
      throw new AppError(503, 'The analytics store (ClickHouse) is unavailable; try again shortly', {
        cause: error,
        headers: { 'Retry-After': '5' },
      });
    }
  };
  return {
    table,
    async insert(values: readonly object[]): Promise<void> {
      if (values.length === 0) return;
      await ensure();
      await client.insert({
        table: table.sql,
        values: [...values],
        format: CLICKHOUSE_ROW_FORMAT,
      });
    },
    select,
    async existingIds(ids) {
      if (ids.length === 0) return new Set();
      const list = chJoin(ids.map((id) => chSql`${id}`));
      const rows = await select<{ id: string }>(chSql`SELECT id FROM ${table} WHERE id IN (${list})`);
      return new Set(rows.map((row) => row.id));
    },
    page: (columns, filter, span) => newestFirstPage(select, table, columns, filter, span),
    pageBy: (columns, filter, column, span) => rankedPage(select, table, columns, filter, column, span),
  };
}

/**
 * A SELECT that ClickHouse abandons with its caller. 18.16 does not notice that an HTTP client
 * went away: a query whose caller timed out or aborted runs on to the end, holding threads and
 * memory (checked against a real 18.16.1: `SELECT count() FROM numbers(1e10)` from a client that
 * hangs up stays in system.processes). So the query runs under its own id with
 * max_execution_time (whole seconds, at least 1) set from the caller's deadline, and when the
 * call fails for any reason but an answer from the server (a timeout, an abort, a reset
 * connection), `KILL QUERY … ASYNC` is sent for that id without waiting for it.
 */
export async function chQuery<T>(client: ClickHouseClient, query: ChSql, timeoutMs?: number): Promise<T[]> {
  const queryId = crypto.randomUUID();
  try {
    const result = await client.query({
      query: query.sql,
      format: CLICKHOUSE_ROW_FORMAT,
      query_id: queryId,
      clickhouse_settings:
        timeoutMs === undefined
          ? READ_SETTINGS
          : { ...READ_SETTINGS, max_execution_time: executionSeconds(timeoutMs) },
    });
    return await result.json<T>();
  } catch (error) {
    if (!answeredByServer(error)) killQuery(client, queryId);
    throw error;
  }
}

/**
 * A page ranked over a long range (the 30-day log by latency or cost) reads its rows from as
 * many granules as it has rows, scattered over every part. 18.16 gives each column it reads a
 * buffer of max_read_buffer_size (1 MiB by default) per part read, and for 50 rows of 37 columns
 * over 70 parts those buffers, not the data, were the time: 1.5 s against 0.36 s with 64 KiB
 * buffers (20M rows, one query, checked by hand on a real 18.16.1). Scans read in whole
 * compressed blocks anyway and ran as fast or faster with the smaller buffer (docs/performance.md).
 */
const READ_SETTINGS = { max_read_buffer_size: String(64 * 1024) };

/** max_execution_time for a deadline: 18.16 takes whole seconds; 0 would mean no limit. */
export function executionSeconds(timeoutMs: number): number {
  return Math.max(1, Math.ceil(timeoutMs / 1000));
}

/** 18.16's error text starts "Code: N, e.displayText()" (see stores/clickhouse.ts). */
function answeredByServer(error: unknown): boolean {
  return error instanceof ClickHouseError || (error instanceof Error && /^Code: \d+/.test(error.message));
}

function killQuery(client: ClickHouseClient, queryId: string): void {
  client.command({ query: chSql`KILL QUERY WHERE query_id = ${queryId} ASYNC`.sql }).catch(() => {
    // ClickHouse unreachable: max_execution_time still ends the query.
  });
}

/**
 * Adds the schema's columns an older table lacks (CREATE TABLE IF NOT EXISTS leaves it as it
 * was). 18.16 has no ADD COLUMN IF NOT EXISTS, so the columns are read first; each missing one
 * goes after its predecessor, so the table reads as a fresh one would, and rows written before
 * get the type's default (NULL, 0, ''). When an ADD fails the columns are read again: another
 * process adding the same column first ("already exists") is success, anything else is not.
 */
async function addMissingColumns(client: ClickHouseClient, database: string, schema: ChTableSchema) {
  const table = chIdent(database, schema.name);
  let existing = await columnNames(client, database, schema.name);
  for (const [i, column] of schema.columns.entries()) {
    if (existing.has(column.name)) continue;
    // 18.16 has no FIRST; the first column is id, which the ORDER BY needs, so it always exists.
    const previous = schema.columns[i - 1];
    const after = previous === undefined ? chSql`` : chSql`AFTER ${chIdent(previous.name)}`;
    try {
      await client.command({
        query: chSql`ALTER TABLE ${table} ADD COLUMN ${chColumnDefinition(column)} ${after}`.sql,
      });
    } catch (error) {
      existing = await columnNames(client, database, schema.name).catch(() => {
        throw error;
      });
      if (!existing.has(column.name)) throw error;
    }
  }
}

async function columnNames(client: ClickHouseClient, database: string, table: string): Promise<Set<string>> {
  const query = chSql`SELECT name FROM system.columns WHERE database = ${database} AND table = ${table}`;
  const result = await client.query({ query: query.sql, format: CLICKHOUSE_ROW_FORMAT });
  return new Set((await result.json<{ name: string }>()).map((row) => row.name));
}
