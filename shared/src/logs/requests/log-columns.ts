import {
  chFlag,
  chFloat64,
  chInt64,
  chNullable,
  chString,
  chUInt16,
  chUInt32,
} from '../analytics/clickhouse-columns';
import { chLogSchema } from '../analytics/clickhouse-schema';
import type { RequestLogEndpoint, RequestLogRecord } from './record';

export const REQUEST_LOG_TABLE = 'request_logs';

/**
 * The request log's columns: its ClickHouse table (18.16-compatible: no booleans, so flags are
 * UInt8; token counts are Int64, which may exceed 2^31 and come back as JSON strings) and the
 * console API's view of a row (toView), whichever store holds the log.
 */
export const requestLogSchema = chLogSchema<RequestLogRecord>({
  name: REQUEST_LOG_TABLE,
  label: 'request log',
  columns: {
    userId: chNullable(chString('user_id')),
    apiKeyId: chNullable(chString('api_key_id')),
    endpoint: chString<RequestLogEndpoint>('endpoint'),
    model: chString('model'),
    provider: chNullable(chString('provider')),
    providerType: chNullable(chString('provider_type')),
    upstreamModel: chNullable(chString('upstream_model')),
    routeId: chNullable(chString('route_id')),
    stream: chFlag('stream'),
    statusCode: chUInt16('status_code'),
    errorType: chNullable(chString('error_type')),
    errorMessage: chNullable(chString('error_message')),
    promptTokens: chInt64('prompt_tokens'),
    completionTokens: chInt64('completion_tokens'),
    cachedTokens: chInt64('cached_tokens'),
    cacheWriteTokens: chInt64('cache_write_tokens'),
    cacheWriteHourTokens: chInt64('cache_write_hour_tokens'),
    reasoningTokens: chInt64('reasoning_tokens'),
    totalTokens: chInt64('total_tokens'),
    weightedTokens: chInt64('weighted_tokens'),
    costUsd: chNullable(chFloat64('cost_usd')),
    unpriced: chFlag('unpriced'),
    latencyMs: chUInt32('latency_ms'),
    upstreamLatencyMs: chNullable(chUInt32('upstream_latency_ms')),
    cacheHit: chFlag('cache_hit'),
    attempts: chUInt32('attempts'),
    clientAborted: chFlag('client_aborted'),
    usageEstimated: chFlag('usage_estimated'),
    uncounted: chFlag('uncounted'),
    guardrail: chNullable(chString('guardrail')),
    reasoningEffort: chNullable(chString('reasoning_effort')),
    clientName: chNullable(chString('client_name')),
    clientVersion: chNullable(chString('client_version')),
    userAgent: chNullable(chString('user_agent')),
    sessionId: chNullable(chString('session_id')),
  },
});
