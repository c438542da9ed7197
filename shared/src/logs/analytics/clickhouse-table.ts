import { type ClickHouseClient, ClickHouseError } from '@clickhouse/client-web';
import { AppError } from '../../http/app-error';
import { CLICKHOUSE_ROW_FORMAT } from '../../stores/clickhouse';
import { chColumnDefinition } from './clickhouse-columns';
import type { ChTableSchema } from './clickhouse-schema';
import { type ChSql, chIdent, chJoin, chSql } from './clickhouse-sql';

/**
 * What every ClickHouse log table (request, MCP, access, app) shares: creation on first use
 * (and the columns an older release's table lacks), JSONEachRow inserts, newest-first pages and
 * WHERE building. The columns themselves are the log's schema (clickhouse-schema.ts).
 */
export interface ClickHouseTableOptions {
  database: string;
  /** Creates the database; it runs before the table is created (see ensureClickHouseDatabase). */
  ensureDatabase?: () => Promise<void>;
}

export interface ClickHouseLogTable {
  /** The qualified table name. */
  table: ChSql;
  /** JSONEachRow insert of prepared rows (none: no round trip). */
  insert(values: readonly object[]): Promise<void>;
  select<T>(query: ChSql): Promise<T[]>;
  /** Which of these ids the table holds (no round trip for none). */
  existingIds(ids: readonly string[]): Promise<Set<string>>;
  /** One page, newest first with ties by id descending (as in Postgres), and the total of every match. */
  page<T>(
    columns: ChSql,
    where: ChSql,
    page: { offset: number; limit: number },
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
): ClickHouseLogTable {
  let ready: Promise<void> | null = null;
  const ensure = () => {
    ready ??= (async () => {
      await options.ensureDatabase?.();
      await client.command({ query: schema.ddl(options.database).sql });
      await addMissingColumns(client, options.database, schema);
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
      return await (await client.query({ query: query.sql, format: CLICKHOUSE_ROW_FORMAT })).json<T>();
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
    async page<T>(columns: ChSql, where: ChSql, { offset, limit }: { offset: number; limit: number }) {
      const [rows, [counted]] = await Promise.all([
        select<T>(chSql`SELECT ${columns} FROM ${table} ${where}
          ORDER BY created_at_ms DESC, id DESC LIMIT ${offset}, ${limit}`),
        select<{ total: string | number }>(chSql`SELECT count() AS total FROM ${table} ${where}`),
      ]);
      return { total: Number(counted?.total ?? 0), rows };
    },
  };
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

/** WHERE over the conditions given (nulls are filters left out); nothing when none is. */
export function chWhere(conditions: readonly (ChSql | null)[]): ChSql {
  const given = conditions.filter((condition): condition is ChSql => condition !== null);
  return given.length === 0 ? chSql`` : chSql`WHERE ${chJoin(given, chSql` AND `)}`;
}

/** Inclusive bounds on created_at_ms, to the millisecond (instants before 1970 match from 0). */
export function chCreatedBetween(from: Date | undefined, to: Date | undefined): (ChSql | null)[] {
  return [
    from === undefined ? null : chSql`created_at_ms >= ${Math.max(0, from.getTime())}`,
    to === undefined ? null : chSql`created_at_ms <= ${to.getTime()}`,
  ];
}
