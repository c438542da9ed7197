import { chCreatedBetween, chCreatedSpans } from './clickhouse-created';
import { type ChSql, chIdent, chJoin, chSql } from './clickhouse-sql';

/**
 * The two ways a log table is paged (ClickHouseLogTable.page and pageBy). A page's total and its
 * bounds are scans of the whole range, so they read created_at_ms only in the seconds a bound
 * cuts within (chCreatedSpans); the page itself is read with the exact bounds.
 */

/** The rows a page is of: conditions (see chWhere) and an inclusive range of instants, to the ms. */
export interface ChLogFilter {
  where: readonly (ChSql | null)[];
  from?: Date;
  to?: Date;
}

export type PageSpan = { offset: number; limit: number };
export type ChSelect = <T>(query: ChSql) => Promise<T[]>;
type Paged<T> = { total: number; rows: T[] };
type ChCount = string | number;

/** Newest first, ties by id descending (as in Postgres), with the total of every match. */
export async function newestFirstPage<T>(
  select: ChSelect,
  table: ChSql,
  columns: ChSql,
  filter: ChLogFilter,
  { offset, limit }: PageSpan,
): Promise<Paged<T>> {
  // The rows per hour first (their sum is the total): the page lies within the newest hours
  // that hold offset + limit rows, so the rows are then read from those hours' granules
  // alone (created_at is the table's key) instead of sorting every match by created_at_ms.
  const perSpan = overSpans(
    filter,
    (where) => chSql`SELECT toUInt32(toStartOfHour(created_at)) AS hour, count() AS matched
      FROM ${table} ${where} GROUP BY hour`,
  );
  const hours = await select<{ hour: ChCount; matched: ChCount }>(
    chSql`SELECT hour, sum(matched) AS matched FROM (${perSpan}) GROUP BY hour`,
  );
  const counts = hours.map((row) => ({ hour: Number(row.hour), matched: Number(row.matched) }));
  const total = counts.reduce((sum, row) => sum + row.matched, 0);
  if (offset >= total || limit === 0) return { total, rows: [] };
  counts.sort((a, b) => b.hour - a.hour);
  let since = 0;
  let newer = 0;
  for (const row of counts) {
    since = row.hour;
    newer += row.matched;
    if (newer >= offset + limit) break;
  }
  const rows = await select<T>(chSql`SELECT ${columns} FROM ${table}
    ${chWhere([...exactConditions(filter), chSql`created_at >= ${since}`])}
    ORDER BY created_at_ms DESC, id DESC LIMIT ${offset}, ${limit}`);
  return { total, rows };
}

/** Ordered by `column` descending (NULLs last), then by id descending, with the total. */
export async function rankedPage<T>(
  select: ChSelect,
  table: ChSql,
  columns: ChSql,
  filter: ChLogFilter,
  column: string,
  { offset, limit }: PageSpan,
): Promise<Paged<T>> {
  const sorted = chIdent(column);
  const count = async () => {
    const perSpan = overSpans(filter, (where) => chSql`SELECT count() AS matched FROM ${table} ${where}`);
    const [counted] = await select<{ total: ChCount }>(chSql`SELECT sum(matched) AS total FROM (${perSpan})`);
    return Number(counted?.total ?? 0);
  };
  if (limit === 0) return { total: await count(), rows: [] };
  // A floor for the page's values, then the page from the rows at or above it only, so the
  // other columns are read for those granules alone. The floor is the value at the page's last
  // rank among the inner span's rows: a subset of the matches, so its value at any rank is at
  // most theirs, and it is read without created_at_ms.
  const inner = chCreatedSpans(filter.from, filter.to).inner;
  const [[last], total] = await Promise.all([
    select<{ bound: ChBound }>(chSql`SELECT ${sorted} AS bound FROM ${table}
      ${chWhere([...filter.where, ...inner])}
      ORDER BY bound DESC NULLS LAST LIMIT ${offset + limit - 1}, 1`),
    count(),
  ]);
  if (offset >= total) return { total, rows: [] };
  // No row at that rank (the inner span holds fewer): no floor. A NULL one: NULLs sort last, so
  // the page holds every non-NULL match and a floor would leave out the NULLs it needs.
  const bound =
    last === undefined || last.bound === null ? null : chSql`${sorted} >= ${boundValue(last.bound)}`;
  const rows = await select<T>(chSql`SELECT ${columns} FROM ${table}
    ${chWhere([...exactConditions(filter), bound])}
    ORDER BY ${sorted} DESC NULLS LAST, id DESC LIMIT ${offset}, ${limit}`);
  return { total, rows };
}

/** WHERE over the conditions given (nulls are filters left out); nothing when none is. */
export function chWhere(conditions: readonly (ChSql | null)[]): ChSql {
  const given = conditions.filter((condition): condition is ChSql => condition !== null);
  return given.length === 0 ? chSql`` : chSql`WHERE ${chJoin(given, chSql` AND `)}`;
}

function exactConditions(filter: ChLogFilter): (ChSql | null)[] {
  return [...filter.where, ...chCreatedBetween(filter.from, filter.to)];
}

/** One statement over each span's rows, their results as one (UNION ALL). */
function overSpans(filter: ChLogFilter, statement: (where: ChSql) => ChSql): ChSql {
  const { inner, edges } = chCreatedSpans(filter.from, filter.to);
  const spans = edges === null ? [inner] : [inner, edges];
  return chJoin(
    spans.map((span) => statement(chWhere([...filter.where, ...span]))),
    chSql` UNION ALL `,
  );
}

/** A sort column's value as 18.16 sends it: 64-bit integers are JSON strings. */
type ChBound = string | number | null;

function boundValue(bound: string | number): number | bigint {
  // Floats come back in their shortest round-trip form and go out the same way (chSql), so the
  // bound is the stored value exactly; integers beyond 2^53 stay exact as bigint.
  return typeof bound === 'number' ? bound : BigInt(bound);
}
