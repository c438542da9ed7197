// `npm run bench:scale -- --suite analytics`: the console's analytics and log queries on a
// request log of N rows (options: scale-options.ts; the platform suite is scale-platform.ts).
// Seeds a database of its own (default sluice_bench_scale; kept, and reused while it holds as
// many rows as asked) with N request-log rows (default 20,000,000) and N/10 MCP-log rows over 30
// days, generated inside ClickHouse (INSERT … SELECT … FROM numbers(N): ~200 users with a few
// keys each, a dozen models, ~6% failures, long-tailed latencies) into tables the stores created
// (so the request log's rollup is fed as by live inserts), then runs each store query (the
// request log's aggregate, clients, errors, search; the MCP log's list; the gateway's month
// usage; the limits' counted usage) --runs times (default 10), interleaved, and prints p50/p95/max
// ms as the store's caller sees them and the rows and bytes ClickHouse read for one call
// (system.query_log, every statement of the call summed), then how many of its queries are
// still running. Windows end at the newest seeded row, so a reused seed asks the same questions.
//
//   npm run bench:scale -- --suite analytics --rows 2000000   a smaller seed to check quickly
//   npm run bench:scale -- --suite analytics --reseed         drop and seed again
//   npm run bench:scale -- --suite analytics --only logs      only the cases whose name contains "logs"
//   npm run bench:scale -- --timeout-ms 2000                  the console's deadline (SLUICE_STORE_TIMEOUT_MS)
//
// ClickHouse: TEST_CLICKHOUSE_URL (http://127.0.0.1:8123). --timeout-ms is the store's deadline
// (default 30000, so slow queries are measured rather than cut); the "over" column counts the
// runs slower than --deadline-ms (2000, the console's).
import { randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client-web';
import { chIdent, chJoin, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { createClickHouseMcpLogStore } from '../../shared/src/logs/mcp/clickhouse-store';
import { MCP_LOG_TABLE, mcpLogSchema } from '../../shared/src/logs/mcp/log-columns';
import { REQUEST_ROLLUP_TABLE } from '../../shared/src/logs/requests/clickhouse-rollup';
import { createClickHouseRequestLogStore } from '../../shared/src/logs/requests/clickhouse-store';
import { REQUEST_LOG_TABLE, requestLogSchema } from '../../shared/src/logs/requests/log-columns';
import {
  CLICKHOUSE_ROW_FORMAT,
  createClickHouse,
  ensureClickHouseDatabase,
} from '../../shared/src/stores/clickhouse';
import { scaleOptions } from './scale-options';
import { formatTable, num } from './table';

const args = scaleOptions(process.argv.slice(2)).analytics;
const ROWS = args.rows;
const DAYS = args.days;
const RUNS = args.runs;
const TIMEOUT_MS = args.timeoutMs;
const DEADLINE_MS = args.deadlineMs;
const DATABASE = args.database;
const URL = process.env.TEST_CLICKHOUSE_URL ?? 'http://127.0.0.1:8123';

const DAY_MS = 86_400_000;
const USERS = 200;
const KEYS_PER_USER = 3;
const MCP_ROWS = Math.max(1, Math.floor(ROWS / 10));
/** The seed's end: whole hours, so a reseed with the same options gives the same instants. */
const SEED_END_MS = Math.floor(Date.now() / 3_600_000) * 3_600_000;

const MODELS = [
  'gpt-4o',
  'claude-sonnet-4',
  'gpt-4o-mini',
  'claude-haiku-4',
  'gemini-2.5-pro',
  'o3',
  'gpt-4.1',
  'claude-opus-4',
  'gemini-2.5-flash',
  'mistral-large',
  'deepseek-r1',
  'local-llama',
];
const TOOLS = ['search', 'fetch', 'read_file', 'write_file', 'list_dir', 'run_query', 'create_issue', 'echo'];

/** A UUID of the given prefix and index, as the seed spells them (lowercase, 12-digit suffix). */
function seededUuid(prefix: string, index: number): string {
  return `${prefix}-0000-4000-8000-${String(index).padStart(12, '0')}`;
}
/** The same in SQL, over an integer expression. */
const uuidSql = (prefix: string, index: string) =>
  `concat('${prefix}-0000-4000-8000-', substring(concat('000000000000', toString(${index})), length(toString(${index})) + 1, 12))`;

const base = createClickHouse({ url: URL, database: 'default', requestTimeoutMs: 1_800_000 });

/** The queries of the current case's call, by query_id. */
let recording: string[] | null = null;

/**
 * The client the stores use: every query logged to system.query_log (log_queries is off by
 * default on 18.16) under an id recorded for the current call.
 */
function recordingClient(client: ClickHouseClient): ClickHouseClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'query') {
        return (params: Parameters<ClickHouseClient['query']>[0]) => {
          const query_id = params.query_id ?? randomUUID();
          recording?.push(query_id);
          return target.query({
            ...params,
            query_id,
            clickhouse_settings: { ...params.clickhouse_settings, log_queries: 1 },
          } as typeof params);
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as ClickHouseClient;
}

async function rowsOf<T>(sql: string): Promise<T[]> {
  return (await base.query({ query: sql, format: CLICKHOUSE_ROW_FORMAT })).json<T>();
}

const client = recordingClient(
  createClickHouse({ url: URL, database: 'default', requestTimeoutMs: TIMEOUT_MS }),
);
const options = {
  database: DATABASE,
  ensureDatabase: () => ensureClickHouseDatabase({ url: URL, database: DATABASE }),
  timeoutMs: TIMEOUT_MS,
};
const requests = createClickHouseRequestLogStore(client, options);
const mcp = createClickHouseMcpLogStore(client, options);

const requestTable = chIdent(DATABASE, REQUEST_LOG_TABLE);
const mcpTable = chIdent(DATABASE, MCP_LOG_TABLE);

async function seededRows(): Promise<{ requests: number; mcp: number; endMs: number } | null> {
  const [exists] = await rowsOf<{ n: string }>(
    chSql`SELECT count() AS n FROM system.tables WHERE database = ${DATABASE} AND name IN (${REQUEST_LOG_TABLE}, ${MCP_LOG_TABLE})`
      .sql,
  );
  if (Number(exists?.n) !== 2) return null;
  const [requests] = await rowsOf<{ n: string; end: string }>(
    chSql`SELECT count() AS n, max(created_at_ms) AS end FROM ${requestTable}`.sql,
  );
  const [mcp] = await rowsOf<{ n: string }>(chSql`SELECT count() AS n FROM ${mcpTable}`.sql);
  return { requests: Number(requests?.n), mcp: Number(mcp?.n), endMs: Number(requests?.end) };
}

/**
 * Seeds both tables inside ClickHouse. The stores create them first, as on first use (with what
 * comes with them: the request log's rollups and the views feeding them, which see the seed as
 * they would live inserts).
 */
async function seed(): Promise<void> {
  await base.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(DATABASE)}`.sql });
  await requests.search({ limit: 1 });
  await mcp.list({ limit: 1 });
  const span = DAYS * DAY_MS;
  const start = SEED_END_MS - span;
  // Rows come in time order (each insert block covers a day or two, as a live log's would) with
  // jitter within their slot; every hash is of the row number, so the seed is deterministic but
  // the UUID ids.
  const ms = `toUInt64(${start} + intDiv(number * ${span}, ${ROWS}) + cityHash64(number, 1) % ${Math.max(1, Math.floor(span / ROWS))})`;
  const models = `[${MODELS.map((m) => `'${m}'`).join(', ')}]`;
  const requestSql = (
    rows: string,
  ) => `INSERT INTO ${requestTable.sql} (${requestLogSchema.columns.map((c) => `\`${c.name}\``).join(', ')})
    SELECT
      toString(generateUUIDv4()) AS id,
      toDateTime(intDiv(ms, 1000), 'UTC') AS created_at,
      ms AS created_at_ms,
      ${uuidSql('7a000000', 'u')} AS user_id,
      ${uuidSql('7b000000', `u * ${KEYS_PER_USER} + k`)} AS api_key_id,
      ['/v1/chat/completions', '/v1/messages', '/v1/responses', '/v1/embeddings'][1 + e] AS endpoint,
      ${models}[1 + m] AS model,
      ['openai', 'anthropic', 'google', 'other'][1 + m % 4] AS provider,
      ['openai', 'anthropic', 'gemini', 'openai'][1 + m % 4] AS provider_type,
      ${models}[1 + m] AS upstream_model,
      NULL AS route_id,
      toUInt8(h % 3 = 0) AS stream,
      toUInt16(multiIf(s < 940, 200, s < 960, 429, s < 975, 502, s < 985, 500, s < 993, 400, s < 997, 401, 503)) AS status_code,
      multiIf(s < 940, NULL, s < 960, 'rate_limit_error', s < 985, 'api_error', s < 993, 'invalid_request_error', s < 997, 'authentication_error', 'overloaded_error') AS error_type,
      if(s < 940, NULL, concat('upstream said ', toString(s))) AS error_message,
      toInt64(prompt) AS prompt_tokens,
      toInt64(completion) AS completion_tokens,
      toInt64(intDiv(prompt, 3) * (h % 2)) AS cached_tokens,
      toInt64(intDiv(prompt, 10) * (h % 5 = 0)) AS cache_write_tokens,
      toInt64(0) AS cache_write_hour_tokens,
      toInt64(intDiv(completion, 4) * (m % 3 = 1)) AS reasoning_tokens,
      toInt64(prompt + completion) AS total_tokens,
      toInt64(prompt + completion * 4) AS weighted_tokens,
      if(m = ${MODELS.length - 1}, NULL, prompt * 0.000003 + completion * 0.000015) AS cost_usd,
      toUInt8(m = ${MODELS.length - 1}) AS unpriced,
      toUInt32(200 + exp((h % 1000000) / 1000000 * 13)) AS latency_ms,
      toUInt32(150 + exp((h % 1000000) / 1000000 * 13)) AS upstream_latency_ms,
      toUInt8(h % 50 = 0) AS cache_hit,
      toUInt32(1 + (s >= 960 AND s < 985)) AS attempts,
      toUInt8(h % 200 = 0) AS client_aborted,
      toUInt8(0) AS usage_estimated,
      toUInt8(s >= 993) AS uncounted,
      NULL AS guardrail,
      if(m % 3 = 1, 'medium', NULL) AS reasoning_effort,
      [NULL, 'claude-code', 'codex', 'opencode'][1 + c] AS client_name,
      [NULL, '2.1.3', '0.171.0', '1.18.33'][1 + c] AS client_version,
      [NULL, 'claude-cli/2.1.3', 'codex_cli_rs/0.171.0', 'opencode/1.18.33'][1 + c] AS user_agent,
      concat('s-', toString(u), '-', toString(intDiv(ms, 3600000))) AS session_id
    FROM (
      SELECT number, ${ms} AS ms, cityHash64(number, 2) AS h,
        toUInt32(cityHash64(number, 3) % 1000) AS s,
        toUInt32(pow((cityHash64(number, 4) % 10000) / 10000, 2) * ${USERS}) AS u,
        toUInt32(cityHash64(number, 5) % ${KEYS_PER_USER}) AS k,
        toUInt32(pow((cityHash64(number, 6) % 10000) / 10000, 1.5) * ${MODELS.length}) AS m,
        toUInt32(multiIf(cityHash64(number, 7) % 100 < 55, 0, cityHash64(number, 7) % 100 < 90, 1, cityHash64(number, 7) % 100 < 97, 2, 3)) AS e,
        toUInt32(cityHash64(number, 8) % 4) AS c,
        toUInt64(50 + cityHash64(number, 9) % 8000) AS prompt,
        toUInt64(cityHash64(number, 10) % 1500) AS completion
      FROM ${rows}
    )`;
  const mcpMs = `toUInt64(${start} + intDiv(number * ${span}, ${MCP_ROWS}) + cityHash64(number, 11) % ${Math.max(1, Math.floor(span / MCP_ROWS))})`;
  const mcpSql = (
    rows: string,
  ) => `INSERT INTO ${mcpTable.sql} (${mcpLogSchema.columns.map((c) => `\`${c.name}\``).join(', ')})
    SELECT
      toString(generateUUIDv4()) AS id,
      toDateTime(intDiv(ms, 1000), 'UTC') AS created_at,
      ms AS created_at_ms,
      ${uuidSql('7a000000', 'u')} AS user_id,
      ${uuidSql('7b000000', `u * ${KEYS_PER_USER}`)} AS api_key_id,
      ${uuidSql('7c000000', 'v')} AS server_id,
      concat('server-', toString(v)) AS server_name,
      [${TOOLS.map((t) => `'${t}'`).join(', ')}][1 + t] AS tool_name,
      if(s < 950, 'success', 'error') AS status,
      toUInt32(5 + cityHash64(number, 12) % 3000) AS duration_ms,
      if(s < 950, NULL, 'tool failed') AS error
    FROM (
      SELECT number, ${mcpMs} AS ms,
        toUInt32(cityHash64(number, 13) % 1000) AS s,
        toUInt32(pow((cityHash64(number, 14) % 10000) / 10000, 2) * ${USERS}) AS u,
        toUInt32(cityHash64(number, 15) % 12) AS v,
        toUInt32(cityHash64(number, 16) % ${TOOLS.length}) AS t
      FROM ${rows}
    )`;
  let started = performance.now();
  await insertInSlices(requestSql, ROWS);
  console.log(
    `seeded ${ROWS.toLocaleString('en-US')} request-log rows in ${num((performance.now() - started) / 1000)} s`,
  );
  started = performance.now();
  await insertInSlices(mcpSql, MCP_ROWS);
  console.log(
    `seeded ${MCP_ROWS.toLocaleString('en-US')} MCP-log rows in ${num((performance.now() - started) / 1000)} s`,
  );
}

/**
 * An INSERT ... SELECT over row numbers, a slice at a time: ClickHouse 18.16 answers an insert
 * only when it is done, and Node's fetch gives up on an answer's headers after 300 s, which one
 * insert of 20 million rows took on a slow VM. The rows are the same as in one insert.
 */
async function insertInSlices(insert: (rows: string) => string, total: number): Promise<void> {
  const slice = 2_000_000;
  for (let offset = 0; offset < total; offset += slice) {
    const count = Math.min(slice, total - offset);
    await base.command({ query: insert(`(SELECT number + ${offset} AS number FROM numbers(${count}))`) });
  }
}

let seeded = args.reseed ? null : await seededRows();
if (seeded === null || seeded.requests !== ROWS || seeded.mcp !== MCP_ROWS) {
  await seed();
  seeded = await seededRows();
}
if (seeded === null) throw new Error('the seed is missing');
const END = seeded.endMs;
const [parts] = await rowsOf<{ parts: string; partitions: string; bytes: string }>(
  chSql`SELECT count() AS parts, uniqExact(partition) AS partitions, sum(bytes_on_disk) AS bytes
    FROM system.parts WHERE database = ${DATABASE} AND table = ${REQUEST_LOG_TABLE} AND active`.sql,
);
console.log(
  `${DATABASE}: ${seeded.requests.toLocaleString('en-US')} request-log rows over ${DAYS} days ` +
    `(${parts?.partitions} partitions, ${parts?.parts} parts, ${num(Number(parts?.bytes) / 2 ** 20)} MiB), ` +
    `${seeded.mcp.toLocaleString('en-US')} MCP-log rows; newest ${new Date(END).toISOString()}`,
);
const rollup = await rowsOf<{ kind: number; groups: string }>(
  chSql`SELECT kind, count() AS groups FROM ${chIdent(DATABASE, REQUEST_ROLLUP_TABLE)} GROUP BY kind ORDER BY kind`
    .sql,
).catch(() => []);
const [rollupParts] = await rowsOf<{ bytes: string }>(
  chSql`SELECT sum(bytes_on_disk) AS bytes FROM system.parts
    WHERE database = ${DATABASE} AND table = ${REQUEST_ROLLUP_TABLE} AND active`.sql,
);
if (rollup.length > 0) {
  const kinds = ['every user', 'per user', 'per key'];
  console.log(
    `  ${REQUEST_ROLLUP_TABLE} (${num(Number(rollupParts?.bytes) / 2 ** 20)} MiB): ` +
      rollup.map((r) => `${Number(r.groups).toLocaleString('en-US')} groups ${kinds[r.kind]}`).join(', '),
  );
}

const ago = (days: number) => new Date(END - days * DAY_MS);
const to = new Date(END);
const USER = seededUuid('7a000000', 0);
const OTHER_USER = seededUuid('7a000000', 57);
const KEY = seededUuid('7b000000', 57 * KEYS_PER_USER + 1);
const MODEL = 'claude-sonnet-4';

const CASES: { name: string; run: () => Promise<unknown> }[] = [
  { name: 'usage 1d by hour', run: () => requests.aggregate({ from: ago(1), to, groupBy: 'hour' }) },
  { name: 'usage 7d by day', run: () => requests.aggregate({ from: ago(7), to, groupBy: 'day' }) },
  { name: 'usage 30d by day', run: () => requests.aggregate({ from: ago(30), to, groupBy: 'day' }) },
  {
    name: 'usage 30d by day, user',
    run: () => requests.aggregate({ from: ago(30), to, groupBy: 'day', userId: OTHER_USER }),
  },
  {
    name: 'usage 30d by day, model',
    run: () => requests.aggregate({ from: ago(30), to, groupBy: 'day', model: MODEL }),
  },
  { name: 'clients 1d', run: () => requests.clientUsage({ from: ago(1), to }) },
  { name: 'clients 7d', run: () => requests.clientUsage({ from: ago(7), to }) },
  { name: 'clients 30d', run: () => requests.clientUsage({ from: ago(30), to }) },
  { name: 'errors 1d', run: () => requests.errorCounts({ from: ago(1), to }) },
  { name: 'errors 7d', run: () => requests.errorCounts({ from: ago(7), to }) },
  { name: 'errors 30d', run: () => requests.errorCounts({ from: ago(30), to }) },
  { name: 'logs default (no range)', run: () => requests.search({}) },
  { name: 'logs 1d', run: () => requests.search({ from: ago(1), to }) },
  { name: 'logs 7d', run: () => requests.search({ from: ago(7), to }) },
  { name: 'logs 30d', run: () => requests.search({ from: ago(30), to }) },
  { name: 'logs page 10 (offset 450)', run: () => requests.search({ offset: 450 }) },
  { name: 'logs user', run: () => requests.search({ userId: OTHER_USER }) },
  { name: 'logs key', run: () => requests.search({ apiKeyId: KEY }) },
  { name: 'logs model', run: () => requests.search({ model: MODEL }) },
  { name: 'logs status 5xx', run: () => requests.search({ statusCode: '5xx' }) },
  { name: 'logs 30d user', run: () => requests.search({ from: ago(30), to, userId: OTHER_USER }) },
  { name: 'logs 1d by cost', run: () => requests.search({ from: ago(1), to, sortBy: 'cost_usd' }) },
  { name: 'logs 30d by latency', run: () => requests.search({ from: ago(30), to, sortBy: 'latency_ms' }) },
  { name: 'usage since key 30d', run: () => requests.usageSince({ apiKeyId: KEY, since: ago(30) }) },
  { name: 'usage since user 30d', run: () => requests.usageSince({ userId: USER, since: ago(30) }) },
  { name: 'counted usage 2d', run: () => requests.countedUsage({ since: ago(2), before: to }) },
  { name: 'mcp logs default', run: () => mcp.list({}) },
  { name: 'mcp logs 1d', run: () => mcp.list({ from: ago(1), to }) },
  { name: 'mcp logs 30d', run: () => mcp.list({ from: ago(30), to }) },
  { name: 'mcp logs user', run: () => mcp.list({ userId: OTHER_USER }) },
  { name: 'mcp logs 7d status error', run: () => mcp.list({ from: ago(7), to, status: 'error' }) },
];

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

interface Measured {
  name: string;
  took: number[];
  failures: string[];
  calls: string[][];
}

const measured: Measured[] = [];
const chosen = CASES.filter((c) => args.only === undefined || c.name.includes(args.only));
// One warm-up call each (tables created, marks cached), then the runs interleaved by case so
// the machine's noise falls on every case alike.
for (const c of chosen) {
  await c.run().catch(() => undefined);
  measured.push({ name: c.name, took: [], failures: [], calls: [] });
}
for (let run = 0; run < RUNS; run++) {
  for (const [i, c] of chosen.entries()) {
    const m = measured[i]!;
    recording = [];
    const started = performance.now();
    try {
      await c.run();
      m.took.push(performance.now() - started);
      m.calls.push(recording);
    } catch (error) {
      m.failures.push(String(error));
      m.took.push(performance.now() - started);
    } finally {
      recording = null;
    }
  }
}

await base.command({ query: 'SYSTEM FLUSH LOGS' });
const ids = measured.flatMap((m) => m.calls.flat());
const read = new Map<string, { rows: number; bytes: number }>();
for (let i = 0; i < ids.length; i += 500) {
  const list = ids.slice(i, i + 500);
  const rows = await rowsOf<{ query_id: string; read_rows: string; read_bytes: string }>(
    chSql`SELECT query_id, read_rows, read_bytes FROM system.query_log
      WHERE type = 2 AND event_date >= today() - 1 AND query_id IN (${chJoin(list.map((id) => chSql`${id}`))})`
      .sql,
  );
  for (const row of rows)
    read.set(row.query_id, { rows: Number(row.read_rows), bytes: Number(row.read_bytes) });
}

const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const table = [
  ['query', 'p50 ms', 'p95 ms', 'max ms', `over ${DEADLINE_MS}`, 'rows read', 'MiB read', 'failed'],
];
for (const m of measured) {
  const sorted = [...m.took].sort((a, b) => a - b);
  const perCall = m.calls.map((call) =>
    call.reduce(
      (sum, id) => ({
        rows: sum.rows + (read.get(id)?.rows ?? 0),
        bytes: sum.bytes + (read.get(id)?.bytes ?? 0),
      }),
      { rows: 0, bytes: 0 },
    ),
  );
  table.push([
    m.name,
    num(percentile(sorted, 50)),
    num(percentile(sorted, 95)),
    num(sorted.at(-1)),
    String(m.took.filter((t) => t > DEADLINE_MS).length),
    perCall.length === 0 ? '-' : Math.round(median(perCall.map((c) => c.rows))).toLocaleString('en-US'),
    perCall.length === 0 ? '-' : num(median(perCall.map((c) => c.bytes)) / 2 ** 20),
    m.failures.length === 0 ? '' : `${m.failures.length}: ${m.failures[0]?.slice(0, 60)}`,
  ]);
}
console.log(`\n${RUNS} runs each, ${chosen.length} cases\n`);
console.log(formatTable(table));
const stuck = await rowsOf<{ n: string }>(
  chSql`SELECT count() AS n FROM system.processes WHERE query LIKE ${`%${DATABASE}%`} AND query_id != ''`.sql,
);
console.log(`\nqueries of ${DATABASE} still running: ${Number(stuck[0]?.n) - 1}`);
await base.close();
await client.close();
