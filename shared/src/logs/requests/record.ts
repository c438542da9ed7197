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
  /** Input tokens read from the vendor's prompt cache (within promptTokens). */
  cachedTokens: number;
  /** Input tokens written to the vendor's prompt cache (within promptTokens)… */
  cacheWriteTokens: number;
  /** …and of those, the ones written with a one-hour lifetime. */
  cacheWriteHourTokens: number;
  /** Output tokens spent reasoning (within completionTokens), where the vendor says. */
  reasoningTokens: number;
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
   * The stream reported no usage (it broke off, or the vendor sent none): the token counts are
   * the gateway's own estimate (proxy/estimate-tokens.ts), charged against limits all the same.
   */
  usageEstimated: boolean;
  /**
   * Refused before the limits counted it (validation, an unknown or forbidden model, a limit
   * reached): left out when lost counters are rebuilt from the log (limits/counter-rebuild.ts).
   */
  uncounted: boolean;
  /**
   * What guardrails did to the request, `action:guardrail:rule` comma-separated
   * (`flag:content:pii-terms,block:inspect_tools:no-rm`); null when none acted (guardrails/marks.ts).
   */
  guardrail: string | null;
  /** The reasoning effort the client asked for, on OpenAI's scale; null when it asked none. */
  reasoningEffort: string | null;
  /** The client recognised from its User-Agent (client-identity.ts): `claude-code`, `codex`, … */
  clientName: string | null;
  clientVersion: string | null;
  /** The User-Agent as sent (first 256 characters). */
  userAgent: string | null;
  /** The coding agent's session id, from its own header. */
  sessionId: string | null;
}
