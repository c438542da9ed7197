import type { ClickHouseClient } from '@clickhouse/client-web';
import { type ChSql, chIdent, chJoin, chSql } from '../analytics/clickhouse-sql';
import {
  type ClickHouseTableOptions,
  clickHouseLogTable,
  instantColumns,
} from '../analytics/clickhouse-table';
import type { SpillTarget } from '../analytics/log-spill';
import { usageAggregateQuery } from './aggregate-query';
import { fromUsageBucketRow, type SelectedUsageBucketRow, usageAggregateSql } from './clickhouse-aggregate';
import { requestLogSearchSql } from './clickhouse-search';
import { type RequestLogFilter, type RequestLogStore, requestLogPage } from './port';
import type { RequestLogEndpoint, RequestLogRecord } from './record';
import { requestLogSearchQuery } from './search-filter';

export const REQUEST_LOG_TABLE = 'request_logs';

/**
 * The request log in ClickHouse (18.16-compatible). DateTime holds whole seconds on 18.16 (no
 * DateTime64), so created_at_ms keeps the exact instant and orders rows; there are no booleans,
 * so flags are UInt8. Token counts are Int64, which come back as JSON strings.
 * Partitioned by day: retention (retention/clickhouse.ts) drops whole days, as 18.16 has no TTL.
 */
export function requestLogTableDdl(database: string): ChSql {
  return chSql`CREATE TABLE IF NOT EXISTS ${chIdent(database, REQUEST_LOG_TABLE)} (
    id String,
    created_at DateTime('UTC'),
    created_at_ms UInt64,
    user_id Nullable(String),
    api_key_id Nullable(String),
    endpoint String,
    model String,
    provider Nullable(String),
    provider_type Nullable(String),
    upstream_model Nullable(String),
    route_id Nullable(String),
    stream UInt8,
    status_code UInt16,
    error_type Nullable(String),
    error_message Nullable(String),
    prompt_tokens Int64,
    completion_tokens Int64,
    cached_tokens Int64,
    total_tokens Int64,
    weighted_tokens Int64,
    cost_usd Nullable(Float64),
    unpriced UInt8,
    latency_ms UInt32,
    upstream_latency_ms Nullable(UInt32),
    cache_hit UInt8,
    attempts UInt32,
    client_aborted UInt8
  ) ENGINE = MergeTree() PARTITION BY toYYYYMMDD(created_at) ORDER BY (created_at, id)`;
}

/** A row as JSONEachRow carries it to 18.16 (insert). */
export interface RequestLogRow {
  id: string;
  /** Unix seconds: what JSONEachRow accepts for DateTime on 18.16. */
  created_at: number;
  created_at_ms: number;
  user_id: string | null;
  api_key_id: string | null;
  endpoint: string;
  model: string;
  provider: string | null;
  provider_type: string | null;
  upstream_model: string | null;
  route_id: string | null;
  stream: 0 | 1;
  status_code: number;
  error_type: string | null;
  error_message: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  total_tokens: number;
  weighted_tokens: number;
  cost_usd: number | null;
  unpriced: 0 | 1;
  latency_ms: number;
  upstream_latency_ms: number | null;
  cache_hit: 0 | 1;
  attempts: number;
  client_aborted: 0 | 1;
}

/** A row as 18.16 returns it (select): 64-bit integers are JSON strings. */
export type SelectedRequestLogRow = Omit<
  RequestLogRow,
  | 'created_at'
  | 'created_at_ms'
  | 'prompt_tokens'
  | 'completion_tokens'
  | 'cached_tokens'
  | 'total_tokens'
  | 'weighted_tokens'
  | 'stream'
  | 'unpriced'
  | 'cache_hit'
  | 'client_aborted'
> & {
  created_at_ms: string | number;
  prompt_tokens: string | number;
  completion_tokens: string | number;
  cached_tokens: string | number;
  total_tokens: string | number;
  weighted_tokens: string | number;
  stream: number;
  unpriced: number;
  cache_hit: number;
  client_aborted: number;
};

export function toRequestLogRow(record: RequestLogRecord): RequestLogRow {
  return {
    id: record.id,
    ...instantColumns(record.createdAt, `request log ${record.id}`),
    user_id: record.userId,
    api_key_id: record.apiKeyId,
    endpoint: record.endpoint,
    model: record.model,
    provider: record.provider,
    provider_type: record.providerType,
    upstream_model: record.upstreamModel,
    route_id: record.routeId,
    stream: flag(record.stream),
    status_code: record.statusCode,
    error_type: record.errorType,
    error_message: record.errorMessage,
    prompt_tokens: record.promptTokens,
    completion_tokens: record.completionTokens,
    cached_tokens: record.cachedTokens,
    total_tokens: record.totalTokens,
    weighted_tokens: record.weightedTokens,
    cost_usd: record.costUsd,
    unpriced: flag(record.unpriced),
    latency_ms: record.latencyMs,
    upstream_latency_ms: record.upstreamLatencyMs,
    cache_hit: flag(record.cacheHit),
    attempts: record.attempts,
    client_aborted: flag(record.clientAborted),
  };
}

export function fromRequestLogRow(row: SelectedRequestLogRow): RequestLogRecord {
  return {
    id: row.id,
    createdAt: new Date(Number(row.created_at_ms)),
    userId: row.user_id,
    apiKeyId: row.api_key_id,
    endpoint: row.endpoint as RequestLogEndpoint,
    model: row.model,
    provider: row.provider,
    providerType: row.provider_type,
    upstreamModel: row.upstream_model,
    routeId: row.route_id,
    stream: row.stream === 1,
    statusCode: row.status_code,
    errorType: row.error_type,
    errorMessage: row.error_message,
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    cachedTokens: Number(row.cached_tokens),
    totalTokens: Number(row.total_tokens),
    weightedTokens: Number(row.weighted_tokens),
    costUsd: row.cost_usd,
    unpriced: row.unpriced === 1,
    latencyMs: row.latency_ms,
    upstreamLatencyMs: row.upstream_latency_ms,
    cacheHit: row.cache_hit === 1,
    attempts: row.attempts,
    clientAborted: row.client_aborted === 1,
  };
}

/** The columns list() and search() read: all but created_at, whose seconds created_at_ms holds exactly. */
const SELECTED_COLUMNS: readonly (keyof SelectedRequestLogRow)[] = [
  'id',
  'created_at_ms',
  'user_id',
  'api_key_id',
  'endpoint',
  'model',
  'provider',
  'provider_type',
  'upstream_model',
  'route_id',
  'stream',
  'status_code',
  'error_type',
  'error_message',
  'prompt_tokens',
  'completion_tokens',
  'cached_tokens',
  'total_tokens',
  'weighted_tokens',
  'cost_usd',
  'unpriced',
  'latency_ms',
  'upstream_latency_ms',
  'cache_hit',
  'attempts',
  'client_aborted',
];

export type ClickHouseRequestLogStoreOptions = ClickHouseTableOptions;

/**
 * The request log in ClickHouse. The table is created on first use (once; again after a failed
 * attempt). Every name is qualified with the database, so one client can serve several.
 */
export function createClickHouseRequestLogStore(
  client: ClickHouseClient,
  options: ClickHouseRequestLogStoreOptions,
): RequestLogStore & SpillTarget<RequestLogRecord> {
  const logs = clickHouseLogTable(client, options, REQUEST_LOG_TABLE, requestLogTableDdl);
  const columns = chJoin(SELECTED_COLUMNS.map((column) => chIdent(column)));
  return {
    async insert(records) {
      await logs.insert(records.map(toRequestLogRow));
    },
    existingIds: (ids) => logs.existingIds(ids),
    async list(filter: RequestLogFilter = {}) {
      const page = requestLogPage(filter);
      const where = filter.apiKeyId === undefined ? chSql`` : chSql`WHERE api_key_id = ${filter.apiKeyId}`;
      const { rows } = await logs.page<SelectedRequestLogRow>(columns, where, page);
      return rows.map(fromRequestLogRow);
    },
    async costSince(filter) {
      const who =
        'apiKeyId' in filter ? chSql`api_key_id = ${filter.apiKeyId}` : chSql`user_id = ${filter.userId}`;
      const [row] = await logs.select<{ total: number | string | null }>(chSql`SELECT sum(cost_usd) AS total
        FROM ${logs.table} WHERE ${who} AND created_at_ms >= ${filter.since.getTime()}`);
      return Number(row?.total ?? 0);
    },
    async search(filter) {
      const query = requestLogSearchSql(logs.table, columns, requestLogSearchQuery(filter));
      const [rows, [counted]] = await Promise.all([
        logs.select<SelectedRequestLogRow>(query.rows),
        logs.select<{ total: string | number }>(query.count),
      ]);
      return { total: Number(counted?.total ?? 0), entries: rows.map(fromRequestLogRow) };
    },
    async aggregate(filter) {
      const query = usageAggregateSql(logs.table, usageAggregateQuery(filter));
      return (await logs.select<SelectedUsageBucketRow>(query)).map(fromUsageBucketRow);
    },
  };
}

function flag(value: boolean): 0 | 1 {
  return value ? 1 : 0;
}
