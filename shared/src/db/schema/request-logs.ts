import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import type { RequestLogEndpoint } from '../../logs/requests/record';
import { createdAt, id } from './columns';

/**
 * The usage ledger: one row per model request (see logs/requests/record.ts). Used when ClickHouse is
 * not configured. No foreign keys: log rows outlive the keys, users and routes they name.
 */
export const requestLogs = pgTable(
  'request_logs',
  {
    id: id(),
    /** When the request started. */
    createdAt: createdAt(),
    userId: uuid('user_id'),
    apiKeyId: uuid('api_key_id'),
    endpoint: text('endpoint').$type<RequestLogEndpoint>().notNull(),
    /** The model name the client sent. */
    model: text('model').notNull(),
    provider: text('provider'),
    providerType: text('provider_type'),
    upstreamModel: text('upstream_model'),
    routeId: uuid('route_id'),
    stream: boolean('stream').notNull(),
    statusCode: integer('status_code').notNull(),
    errorType: text('error_type'),
    errorMessage: text('error_message'),
    promptTokens: bigint('prompt_tokens', { mode: 'number' }).notNull(),
    completionTokens: bigint('completion_tokens', { mode: 'number' }).notNull(),
    cachedTokens: bigint('cached_tokens', { mode: 'number' }).notNull(),
    totalTokens: bigint('total_tokens', { mode: 'number' }).notNull(),
    weightedTokens: bigint('weighted_tokens', { mode: 'number' }).notNull(),
    /** Null when the model is unpriced (then `unpriced` is true), never a silent 0. */
    costUsd: doublePrecision('cost_usd'),
    unpriced: boolean('unpriced').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    /** Time to first byte/headers from upstream. */
    upstreamLatencyMs: integer('upstream_latency_ms'),
    cacheHit: boolean('cache_hit').notNull(),
    attempts: integer('attempts').notNull(),
    clientAborted: boolean('client_aborted').notNull(),
    /** What guardrails did (logs/requests/record.ts); null when none acted. */
    guardrail: text('guardrail'),
  },
  (t) => [
    index('request_logs_created_idx').on(t.createdAt),
    index('request_logs_api_key_created_idx').on(t.apiKeyId, t.createdAt),
    index('request_logs_user_created_idx').on(t.userId, t.createdAt),
    index('request_logs_model_created_idx').on(t.model, t.createdAt),
    check(
      'request_logs_endpoint_check',
      sql`${t.endpoint} in ('/v1/chat/completions','/v1/messages','/v1/responses','/v1/messages/count_tokens','/v1/embeddings')`,
    ),
  ],
);
