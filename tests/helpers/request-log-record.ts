import { randomUUID } from 'node:crypto';
import type { RequestLogRecord } from '../../shared/src/logs/requests/record';

/**
 * A request-log row with neutral defaults: a plain chat completion that answered 200, no route,
 * no tokens, no cost, no client. Tests pass what they vary.
 */
export function requestLogRecord(overrides: Partial<RequestLogRecord> = {}): RequestLogRecord {
  return {
    id: randomUUID(),
    createdAt: new Date(),
    userId: null,
    apiKeyId: null,
    endpoint: '/v1/chat/completions',
    model: 'test-model',
    provider: null,
    providerType: null,
    upstreamModel: null,
    routeId: null,
    stream: false,
    statusCode: 200,
    errorType: null,
    errorMessage: null,
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    cacheWriteHourTokens: 0,
    reasoningTokens: 0,
    totalTokens: 0,
    weightedTokens: 0,
    costUsd: 0,
    unpriced: false,
    latencyMs: 0,
    upstreamLatencyMs: null,
    cacheHit: false,
    attempts: 1,
    clientAborted: false,
    usageEstimated: false,
    uncounted: false,
    guardrail: null,
    reasoningEffort: null,
    clientName: null,
    clientVersion: null,
    userAgent: null,
    sessionId: null,
    ...overrides,
  };
}
