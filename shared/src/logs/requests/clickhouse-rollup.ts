import type { ClickHouseClient } from '@clickhouse/client-web';
import { CLICKHOUSE_ROW_FORMAT } from '../../stores/clickhouse';
import { chCreatedBefore, chCreatedFrom } from '../analytics/clickhouse-created';
import { type ChSql, chIdent, chJoin, chSql } from '../analytics/clickhouse-sql';
import { REQUEST_LOG_TABLE } from './log-columns';

/**
 * An hourly rollup of the request log for the console's analytics (usage and cost series, the
 * client and error breakdowns) and the gateway's month usage: a 30-day view of a busy log
 * otherwise reads every row of those 30 days (20 million rows: 2 GiB and seconds). One
 * SummingMergeTree table, fed by one materialized view on every insert into the log (whichever
 * process or release inserts), holding three kinds of group per UTC hour:
 *
 * - kind 0, for every user: per model, endpoint, client name and version, status code and error
 *   type (a few hundred groups an hour whatever the traffic);
 * - kind 1, the same per user (`who`), so one user's view (a non-admin always sees only their
 *   own requests) reads only that user's groups;
 * - kind 2, per API key (`who`) alone, for a key's month usage.
 *
 * The view writes all three from each insert into one part (ARRAY JOIN), so they always hold the
 * same requests. Created with the log table on first use (ClickHouseLogTable's ensure), after any
 * column an older table lacked was added. 18.16 allows no nullable key: a nullable value is
 * stored as '' for NULL and '.' + the value otherwise (exact both ways); `who` is '' for NULL.
 *
 * Reads are exact to the millisecond: only the whole hours of from..to that lie in a day the
 * rollup is verified for come from it, the rest (the partial first and last hours, any
 * unverified day) from the log, and the two are added up. A day is verified when the rollup's
 * request count for it equals the rows of the log's partition for that day (system.parts): rows
 * logged before the view existed (an upgrade), removed by retention's DELETE, or written by an
 * insert whose view part failed all show as a difference, and that day is read from the log
 * until maintainRequestRollups (run with retention) rebuilds it. A table with monthly partitions
 * (created by an early release) is always read from the log.
 */

export const REQUEST_ROLLUP_TABLE = 'request_log_rollup';
const REQUEST_ROLLUP_VIEW = 'request_log_rollup_mv';

/** The kinds of group (see above). */
export const ROLLUP_ALL = 0;
export const ROLLUP_USER = 1;
export const ROLLUP_KEY = 2;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** A day is rebuilt only this long after it ended: inserts into it have stopped by then. */
const SETTLE_MS = 2 * HOUR_MS;

interface RollupColumn {
  name: string;
  type: ChSql;
  /** How the view computes it from a log row (aggregates for the sums); the column itself when absent. */
  from: ChSql;
}

/**
 * The grouping columns, in sort order; none is named as a log column (an alias naming a column
 * would stand for itself inside its own expression). A key's groups keep only the hour.
 */
const KEYS: readonly RollupColumn[] = [
  { name: 'kind', type: chSql`UInt8`, from: chSql`kind` },
  {
    name: 'who',
    type: chSql`String`,
    from: chSql`multiIf(kind = ${ROLLUP_USER}, ifNull(user_id, ''), kind = ${ROLLUP_KEY}, ifNull(api_key_id, ''), '')`,
  },
  { name: 'hour', type: chSql`DateTime('UTC')`, from: chSql`toStartOfHour(created_at)` },
  { name: 'model_name', type: chSql`String`, from: chSql`if(kind = ${ROLLUP_KEY}, '', model)` },
  { name: 'endpoint_path', type: chSql`String`, from: chSql`if(kind = ${ROLLUP_KEY}, '', endpoint)` },
  {
    name: 'client_key',
    type: chSql`String`,
    from: chSql`if(kind = ${ROLLUP_KEY}, '', ifNull(concat('.', client_name), ''))`,
  },
  {
    name: 'version_key',
    type: chSql`String`,
    from: chSql`if(kind = ${ROLLUP_KEY}, '', ifNull(concat('.', client_version), ''))`,
  },
  { name: 'status', type: chSql`UInt16`, from: chSql`if(kind = ${ROLLUP_KEY}, toUInt16(0), status_code)` },
  {
    name: 'error_key',
    type: chSql`String`,
    from: chSql`if(kind = ${ROLLUP_KEY}, '', ifNull(concat('.', error_type), ''))`,
  },
];

/** What each group sums (types exactly those of the aggregates: a view does not convert). */
const SUMS: readonly RollupColumn[] = [
  { name: 'n_requests', type: chSql`UInt64`, from: chSql`count()` },
  { name: 'n_prompt_tokens', type: chSql`Int64`, from: chSql`sum(prompt_tokens)` },
  { name: 'n_completion_tokens', type: chSql`Int64`, from: chSql`sum(completion_tokens)` },
  { name: 'n_total_tokens', type: chSql`Int64`, from: chSql`sum(total_tokens)` },
  { name: 'n_cached_tokens', type: chSql`Int64`, from: chSql`sum(cached_tokens)` },
  { name: 'n_cache_write_tokens', type: chSql`Int64`, from: chSql`sum(cache_write_tokens)` },
  { name: 'n_reasoning_tokens', type: chSql`Int64`, from: chSql`sum(reasoning_tokens)` },
  { name: 'n_cost_usd', type: chSql`Float64`, from: chSql`sum(ifNull(cost_usd, 0))` },
  { name: 'n_unpriced', type: chSql`UInt64`, from: chSql`countIf(isNull(cost_usd))` },
  { name: 'n_latency_ms', type: chSql`UInt64`, from: chSql`sum(toUInt64(latency_ms))` },
];

/** The log's rows grouped as the rollup holds them (the view's query, and a rebuild's). */
function rollupSelect(database: string, where?: ChSql): ChSql {
  const columns = [...KEYS, ...SUMS].map((c) =>
    c.name === 'kind' ? chIdent(c.name) : chSql`${c.from} AS ${chIdent(c.name)}`,
  );
  const filter = where === undefined ? chSql`` : chSql`WHERE ${where}`;
  return chSql`SELECT ${chJoin(columns)} FROM ${chIdent(database, REQUEST_LOG_TABLE)}
    ARRAY JOIN [${ROLLUP_ALL}, ${ROLLUP_USER}, ${ROLLUP_KEY}] AS kind ${filter}
    GROUP BY ${chJoin(KEYS.map((c) => chIdent(c.name)))}`;
}

/** The rollup table and its view; each statement is idempotent. */
export function requestRollupDdl(database: string): ChSql[] {
  const columns = [...KEYS, ...SUMS].map((c) => chSql`${chIdent(c.name)} ${c.type}`);
  return [
    chSql`CREATE TABLE IF NOT EXISTS ${chIdent(database, REQUEST_ROLLUP_TABLE)} (
    ${chJoin(columns, chSql`,\n    `)}
  ) ENGINE = SummingMergeTree() PARTITION BY toYYYYMMDD(hour)
  ORDER BY (${chJoin(KEYS.map((c) => chIdent(c.name)))})`,
    chSql`CREATE MATERIALIZED VIEW IF NOT EXISTS ${chIdent(database, REQUEST_ROLLUP_VIEW)}
  TO ${chIdent(database, REQUEST_ROLLUP_TABLE)} AS ${rollupSelect(database)}`,
  ];
}

/** Where a read of from..to comes from: whole hours of verified days, and the rest. */
export interface RollupPlan {
  /** [start, end) in ms, whole hours, read from a rollup. */
  rolled: [number, number][];
  /** [start, end) in ms, read from the log. */
  raw: [number, number][];
}

/**
 * Splits the inclusive range from..to (ms) between the rollup (the whole hours within it of the
 * days `verified` accepts, by their UTC midnight) and the log (everything else). Nothing before
 * 1970 exists (created_at_ms is unsigned).
 */
export function planRollup(
  fromMs: number,
  toMs: number,
  verified: (dayStart: number) => boolean,
): RollupPlan {
  const lo = Math.max(0, fromMs);
  const hi = toMs + 1;
  if (hi <= lo) return { rolled: [], raw: [] };
  const firstHour = Math.ceil(lo / HOUR_MS) * HOUR_MS;
  const lastHour = Math.floor(hi / HOUR_MS) * HOUR_MS;
  const rolled: [number, number][] = [];
  for (let day = Math.floor(firstHour / DAY_MS) * DAY_MS; day < lastHour; day += DAY_MS) {
    const start = Math.max(firstHour, day);
    const end = Math.min(lastHour, day + DAY_MS);
    if (start >= end || !verified(day)) continue;
    const previous = rolled.at(-1);
    if (previous !== undefined && previous[1] === start) previous[1] = end;
    else rolled.push([start, end]);
  }
  const raw: [number, number][] = [];
  let at = lo;
  for (const [start, end] of rolled) {
    if (start > at) raw.push([at, start]);
    at = end;
  }
  if (at < hi) raw.push([at, hi]);
  return { rolled, raw };
}

/**
 * The log's rows within the ranges ([start, end) ms; end Infinity for no end), exact to the
 * millisecond and bounding its key (created_at).
 */
export function chCreatedWithin(ranges: readonly [number, number][]): ChSql {
  if (ranges.length === 0) return chSql`0`;
  const each = ranges.map(([start, end]) =>
    end === Number.POSITIVE_INFINITY
      ? chSql`(${chCreatedFrom(new Date(start))})`
      : chSql`(${chCreatedFrom(new Date(start))} AND ${chCreatedBefore(new Date(end))})`,
  );
  return chSql`(${chJoin(each, chSql` OR `)})`;
}

/** A rollup's hours within the ranges (whole hours, so exact). */
function hoursWithin(ranges: readonly [number, number][]): ChSql {
  const each = ranges.map(([start, end]) => chSql`(hour >= ${start / 1000} AND hour < ${end / 1000})`);
  return chSql`(${chJoin(each, chSql` OR `)})`;
}

type Select = <T>(query: ChSql) => Promise<T[]>;

/** yyyymmdd of a UTC midnight, as partitions and toYYYYMMDD name days. */
function dayId(dayStart: number): string {
  return new Date(dayStart).toISOString().slice(0, 10).replaceAll('-', '');
}

function dayStartOf(id: string): number {
  return Date.UTC(Number(id.slice(0, 4)), Number(id.slice(4, 6)) - 1, Number(id.slice(6, 8)));
}

/**
 * The days (by yyyymmdd) the rollup holds exactly as the log does (its groups for every user),
 * among those from `fromDay` to `toDay` (UTC midnights); none when the log is partitioned
 * otherwise than by day.
 */
async function verifiedDays(
  select: Select,
  database: string,
  fromDay: number,
  toDay: number,
): Promise<Set<string>> {
  const [partitions, sums] = await Promise.all([
    select<{ partition: string; logged: string | number }>(
      chSql`SELECT partition, sum(rows) AS logged FROM system.parts
        WHERE database = ${database} AND table = ${REQUEST_LOG_TABLE} AND active GROUP BY partition`,
    ),
    select<{ day: string | number; rolled: string | number }>(
      chSql`SELECT toYYYYMMDD(hour) AS day, sum(n_requests) AS rolled
        FROM ${chIdent(database, REQUEST_ROLLUP_TABLE)}
        WHERE kind = ${ROLLUP_ALL} AND who = '' AND hour >= ${fromDay / 1000} AND hour < ${(toDay + DAY_MS) / 1000}
        GROUP BY day`,
    ),
  ]);
  if (partitions.some((p) => !/^\d{8}$/.test(p.partition))) return new Set();
  const logged = new Map(partitions.map((p) => [p.partition, Number(p.logged)]));
  const rolled = new Map(sums.map((s) => [String(s.day), Number(s.rolled)]));
  const verified = new Set<string>();
  for (let day = fromDay; day <= toDay; day += DAY_MS) {
    const id = dayId(day);
    if ((logged.get(id) ?? 0) === (rolled.get(id) ?? 0)) verified.add(id);
  }
  return verified;
}

/** One analytics read in its two halves: over the log's rows, and over a rollup's groups. */
export interface RolledUpRead<Row> {
  /** The read over the log, its time range given as the condition `time`. */
  raw(time: ChSql): Promise<Row[]>;
  /** The same over `table`, the rollup, restricted by `where` (the kind of group, who, hours). */
  rolled(table: ChSql, where: ChSql): Promise<Row[]>;
  /** Adds one part's group to the other's of the same key. */
  merge(rows: Row[]): Row[];
}

/** What one read covers: from..to inclusive (no `to`: every row since `from`), one user or key. */
export interface RolledUpRange {
  from: Date;
  to?: Date;
  userId?: string;
  apiKeyId?: string;
}

/**
 * An analytics read of the range from the rollup where it is verified and the log elsewhere (see
 * above), merged: of one key from the rollup's groups per key, of one user from those per user.
 */
export async function readRolledUp<Row>(
  select: Select,
  database: string,
  range: RolledUpRange,
  read: RolledUpRead<Row>,
): Promise<Row[]> {
  const fromMs = Math.max(0, range.from.getTime());
  // Without an end, the rollup serves up to now and the log the rest (a clock ahead included).
  const toMs = range.to === undefined ? Date.now() : range.to.getTime();
  // Whole hours within the range: ask which of their days the rollup holds.
  const whole = planRollup(fromMs, toMs, () => true).rolled;
  let verified = new Set<string>();
  if (whole.length > 0) {
    const first = Math.floor((whole[0]?.[0] ?? 0) / DAY_MS) * DAY_MS;
    const last = Math.floor(((whole.at(-1)?.[1] ?? 0) - 1) / DAY_MS) * DAY_MS;
    verified = await verifiedDays(select, database, first, last);
  }
  const plan = planRollup(fromMs, toMs, (day) => verified.has(dayId(day)));
  if (range.to === undefined) {
    const tail = plan.raw.at(-1);
    if (tail !== undefined && tail[1] === toMs + 1) tail[1] = Number.POSITIVE_INFINITY;
    else plan.raw.push([Math.max(fromMs, toMs + 1), Number.POSITIVE_INFINITY]);
  }
  if (plan.raw.length === 0 && plan.rolled.length === 0) return [];
  const who =
    range.apiKeyId !== undefined
      ? chSql`kind = ${ROLLUP_KEY} AND who = ${range.apiKeyId}`
      : range.userId !== undefined
        ? chSql`kind = ${ROLLUP_USER} AND who = ${range.userId}`
        : chSql`kind = ${ROLLUP_ALL} AND who = ''`;
  const parts = await Promise.all([
    plan.raw.length === 0 ? [] : read.raw(chCreatedWithin(plan.raw)),
    plan.rolled.length === 0
      ? []
      : read.rolled(chIdent(database, REQUEST_ROLLUP_TABLE), chSql`${who} AND ${hoursWithin(plan.rolled)}`),
  ]);
  return parts[0].length === 0 || parts[1].length === 0 ? parts.flat() : read.merge(parts.flat());
}

/** Sums the `sums` fields of rows whose `keys` fields are equal (null and '' kept apart). */
export function mergeGroups<Row extends object>(
  rows: Row[],
  keys: readonly (keyof Row)[],
  sums: readonly (keyof Row)[],
): Row[] {
  const groups = new Map<string, Row>();
  for (const row of rows) {
    const key = JSON.stringify(keys.map((k) => (row[k] instanceof Date ? row[k].getTime() : row[k])));
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, { ...row });
      continue;
    }
    for (const field of sums) (group[field] as number) += row[field] as number;
  }
  return [...groups.values()];
}

/** A nullable key column back as the value it encodes (see above). */
export function chDecoded(column: string): ChSql {
  const key = chIdent(column);
  return chSql`if(${key} = '', NULL, substring(${key}, 2))`;
}

export interface RollupMaintenance {
  /** Days (yyyymmdd) rebuilt from the log. */
  rebuilt: string[];
  /** Days dropped as older than the retention cutoff. */
  dropped: string[];
}

/**
 * Keeps the rollup what the log is (run with retention, on a client whose timeout suits long
 * statements): drops their days that ended before `cutoff`, and rebuilds from the log every day
 * since that differs from it (logged before the views existed, changed by retention's DELETE, or
 * written by an insert whose view part failed) once it is SETTLE_MS past its end, so inserts
 * into it have stopped. A rebuild racing an insert into the same day may count that insert
 * twice; the next run sees the difference and rebuilds the day again (reads use the log for it
 * meanwhile). Nothing is done before the store has created the rollup.
 */
export async function maintainRequestRollups(
  client: ClickHouseClient,
  database: string,
  cutoff: Date,
  now: Date,
): Promise<RollupMaintenance> {
  const select: Select = async <T>(query: ChSql) =>
    (await client.query({ query: query.sql, format: CLICKHOUSE_ROW_FORMAT })).json<T>();
  const tables = await select<{ name: string }>(
    chSql`SELECT name FROM system.tables WHERE database = ${database}
      AND name IN (${REQUEST_LOG_TABLE}, ${REQUEST_ROLLUP_TABLE})`,
  );
  if (tables.length < 2) return { rebuilt: [], dropped: [] };
  const rollup = chIdent(database, REQUEST_ROLLUP_TABLE);
  const [partitions, sums] = await Promise.all([
    select<{ partition: string; logged: string | number }>(
      chSql`SELECT partition, sum(rows) AS logged FROM system.parts
        WHERE database = ${database} AND table = ${REQUEST_LOG_TABLE} AND active GROUP BY partition`,
    ),
    select<{ day: string | number; rolled: string | number }>(
      chSql`SELECT toYYYYMMDD(hour) AS day, sum(n_requests) AS rolled FROM ${rollup}
        WHERE kind = ${ROLLUP_ALL} AND who = '' GROUP BY day`,
    ),
  ]);
  if (partitions.some((p) => !/^\d{8}$/.test(p.partition))) return { rebuilt: [], dropped: [] };
  const logged = new Map(partitions.map((p) => [p.partition, Number(p.logged)]));
  const rolled = new Map(sums.map((s) => [String(s.day), Number(s.rolled)]));
  const dropped: string[] = [];
  const rebuilt: string[] = [];
  for (const day of [...new Set([...logged.keys(), ...rolled.keys()])].sort()) {
    const start = dayStartOf(day);
    if (start + DAY_MS <= cutoff.getTime()) {
      if (!rolled.has(day)) continue;
      await dropDay(client, rollup, day);
      dropped.push(day);
    } else if (
      (logged.get(day) ?? 0) !== (rolled.get(day) ?? 0) &&
      start + DAY_MS + SETTLE_MS <= now.getTime()
    ) {
      await dropDay(client, rollup, day);
      const within = chSql`created_at >= ${start / 1000} AND created_at < ${(start + DAY_MS) / 1000}`;
      await client.command({ query: chSql`INSERT INTO ${rollup} ${rollupSelect(database, within)}`.sql });
      rebuilt.push(day);
    }
  }
  return { rebuilt, dropped };
}

async function dropDay(client: ClickHouseClient, rollup: ChSql, day: string): Promise<void> {
  await client.command({ query: chSql`ALTER TABLE ${rollup} DROP PARTITION ${Number(day)}`.sql });
}
