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
    /** Input tokens read from the vendor's prompt cache. */
    cachedTokens: bigint('cached_tokens', { mode: 'number' }).notNull(),
    /** Input tokens written to the vendor's prompt cache, and of those, with a one-hour lifetime. */
    cacheWriteTokens: bigint('cache_write_tokens', { mode: 'number' }).notNull().default(0),
    cacheWriteHourTokens: bigint('cache_write_hour_tokens', { mode: 'number' }).notNull().default(0),
    /** Output tokens spent reasoning (within completion_tokens), where the vendor says. */
    reasoningTokens: bigint('reasoning_tokens', { mode: 'number' }).notNull().default(0),
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
    /** Token counts are the gateway's estimate: the stream reported none (logs/requests/record.ts). */
    usageEstimated: boolean('usage_estimated').notNull().default(false),
    /** Refused before the limits counted it (logs/requests/record.ts). */
    uncounted: boolean('uncounted').notNull().default(false),
    /** What guardrails did (logs/requests/record.ts); null when none acted. */
    guardrail: text('guardrail'),
    /** The reasoning effort asked for, on OpenAI's scale (canonical/reasoning.ts); null: none. */
    reasoningEffort: text('reasoning_effort'),
    /** Who called: the client recognised from its User-Agent (logs/requests/client-identity.ts). */
    clientName: text('client_name'),
    clientVersion: text('client_version'),
    userAgent: text('user_agent'),
    /** The agent's session id header (Claude Code, Codex, opencode), when it sends one. */
    sessionId: text('session_id'),
  },
  (t) => [
    index('request_logs_created_idx').on(t.createdAt),
    index('request_logs_api_key_created_idx').on(t.apiKeyId, t.createdAt),
    index('request_logs_user_created_idx').on(t.userId, t.createdAt),
    index('request_logs_model_created_idx').on(t.model, t.createdAt),
    index('request_logs_client_created_idx').on(t.clientName, t.createdAt),
    check(
      'request_logs_endpoint_check',
      sql`${t.endpoint} in ('/v1/chat/completions','/v1/messages','/v1/responses','/v1/messages/count_tokens','/v1/embeddings')`,
    ),
  ],
);
