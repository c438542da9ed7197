/** The model endpoints whose requests are logged. */
export const REQUEST_LOG_ENDPOINTS = [
  '/v1/chat/completions',
  '/v1/messages',
  '/v1/responses',
  '/v1/messages/count_tokens',
  '/v1/embeddings',
] as const;
export type RequestLogEndpoint = (typeof REQUEST_LOG_ENDPOINTS)[number];

/**
 * One model request through the gateway, written once after the response (in waitUntil).
 * Token counts are whole numbers and may exceed 2^31; costUsd is null for an unpriced model
 * (with `unpriced` set), never a silent 0.
 */
export interface RequestLogRecord {
  /** UUID v4 (crypto.randomUUID()). */
  id: string;
  /** When the request started. */
  createdAt: Date;
  userId: string | null;
  apiKeyId: string | null;
  endpoint: RequestLogEndpoint;
  /** The model name the client sent. */
  model: string;
  provider: string | null;
  providerType: string | null;
  upstreamModel: string | null;
  routeId: string | null;
  stream: boolean;
  statusCode: number;
  errorType: string | null;
  errorMessage: string | null;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  totalTokens: number;
  weightedTokens: number;
  /** Null when the model is unpriced. */
  costUsd: number | null;
  unpriced: boolean;
  latencyMs: number;
  /** Time to the first byte/headers from upstream; null when no upstream answered. */
  upstreamLatencyMs: number | null;
  cacheHit: boolean;
  attempts: number;
  clientAborted: boolean;
  /**
   * What guardrails did to the request, `action:guardrail:rule` comma-separated
   * (`flag:content:pii-terms,block:inspect_tools:no-rm`); null when none acted (guardrails/marks.ts).
   */
  guardrail: string | null;
}
