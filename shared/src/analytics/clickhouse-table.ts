import { type ClickHouseClient, ClickHouseError } from '@clickhouse/client-web';
import { AppError } from '../http/app-error';
import { CLICKHOUSE_ROW_FORMAT } from '../stores/clickhouse';
import { type ChSql, chIdent, chJoin, chSql } from './clickhouse-sql';

/**
 * What every ClickHouse log table (request, MCP, access, app) shares: creation on first use,
 * JSONEachRow inserts, the DateTime range of 18.16, newest-first pages and WHERE building.
 */
export interface ClickHouseTableOptions {
  database: string;
  /** Creates the database; it runs before the table is created (see ensureClickHouseDatabase). */
  ensureDatabase?: () => Promise<void>;
}

// DateTime is unsigned seconds; 18.16 maps instants outside 1970..2105 to the zero date.
const DATETIME_END_MS = Date.UTC(2106, 0, 1);

/** created_at (Unix seconds, what JSONEachRow accepts for DateTime on 18.16) and the exact ms. */
export function instantColumns(createdAt: Date, what: string): { created_at: number; created_at_ms: number } {
  const ms = createdAt.getTime();
  if (!(ms >= 0 && ms < DATETIME_END_MS)) {
    throw new RangeError(`${what}: createdAt is outside 1970-01-01..2105-12-31`);
  }
  return { created_at: Math.floor(ms / 1000), created_at_ms: ms };
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
 * One log table: created on first use (once; again after a failed attempt), every name
 * qualified with the database so one client can serve several.
 */
export function clickHouseLogTable(
  client: ClickHouseClient,
  options: ClickHouseTableOptions,
  name: string,
  ddl: (database: string) => ChSql,
): ClickHouseLogTable {
  let ready: Promise<void> | null = null;
  const ensure = () => {
    ready ??= (async () => {
      await options.ensureDatabase?.();
      await client.command({ query: ddl(options.database).sql });
    })().catch((error: unknown) => {
      ready = null;
      throw error;
    });
    return ready;
  };
  const table = chIdent(options.database, name);
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
