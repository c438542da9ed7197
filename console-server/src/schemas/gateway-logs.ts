import { z } from '@hono/zod-openapi';
import {
  DEFAULT_REQUEST_LOG_LIMIT,
  MAX_REQUEST_LOG_SEARCH_LIMIT,
  REQUEST_LOG_ENDPOINTS,
  REQUEST_LOG_SORTS,
} from '@sluice/shared/logs/requests';
import { isoInstant } from './mcp';
import { statusMatchParam } from './status-match';

/** Shapes of the gateway request-log view (GET /api/gateway/logs). */

const exactText = (description: string) => z.string().min(1).max(256).optional().openapi({ description });

/** GET /api/gateway/logs query. A limit above 200 is refused (422), not clamped. */
export const GatewayLogQuerySchema = z
  .object({
    model: exactText('Exact model name the client sent'),
    provider: exactText('Exact provider name'),
    user_id: z.uuid().optional().openapi({ description: 'Only requests by this user' }),
    api_key_id: z.uuid().optional().openapi({ description: 'Only requests with this API key' }),
    status_code: statusMatchParam,
    unpriced: z.enum(['true', 'false']).optional().openapi({
      description:
        'true: only requests of unpriced models (cost unknown, cost_usd null), the ones analytics leaves out of its costs; false: only priced ones',
    }),
    client_name: exactText('Exact client name, e.g. claude-code, codex, opencode, openai-sdk'),
    error_type: exactText('Exact error type, e.g. invalid_request_error, rate_limit_error'),
    from: isoInstant.optional().openapi({ description: 'Inclusive lower bound on created_at' }),
    to: isoInstant.optional().openapi({ description: 'Inclusive upper bound on created_at' }),
    sort_by: z
      .enum(REQUEST_LOG_SORTS)
      .default('created_at')
      .openapi({ description: 'Always descending; ties by id descending; NULL costs last' }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_REQUEST_LOG_SEARCH_LIMIT)
      .default(DEFAULT_REQUEST_LOG_LIMIT),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .refine((v) => !v.from || !v.to || Date.parse(v.from) <= Date.parse(v.to), {
    path: ['from'],
    message: 'must not be after to',
  });
export type GatewayLogQueryParams = z.infer<typeof GatewayLogQuerySchema>;

const tokens = z.number().int();

export const GatewayLogEntrySchema = z
  .object({
    id: z.uuid(),
    created_at: z.string().openapi({ description: 'When the request started' }),
    user_id: z.uuid().nullable(),
    api_key_id: z.uuid().nullable(),
    endpoint: z.enum(REQUEST_LOG_ENDPOINTS),
    model: z.string().openapi({ description: 'The model name the client sent' }),
    provider: z.string().nullable(),
    provider_type: z.string().nullable(),
    upstream_model: z.string().nullable(),
    route_id: z.uuid().nullable(),
    stream: z.boolean(),
    status_code: z.number().int(),
    error_type: z.string().nullable(),
    error_message: z.string().nullable(),
    prompt_tokens: tokens,
    completion_tokens: tokens,
    cached_tokens: tokens.openapi({ description: "Input tokens read from the vendor's prompt cache" }),
    cache_write_tokens: tokens.openapi({ description: "Input tokens written to the vendor's prompt cache" }),
    cache_write_hour_tokens: tokens.openapi({
      description: 'Of cache_write_tokens, those with a one-hour lifetime',
    }),
    reasoning_tokens: tokens.openapi({
      description: 'Output tokens spent reasoning (within completion_tokens), where the vendor reports them',
    }),
    total_tokens: tokens,
    weighted_tokens: tokens,
    cost_usd: z.number().nullable().openapi({ description: 'Null when the model is unpriced' }),
    unpriced: z.boolean(),
    latency_ms: z.number().int(),
    upstream_latency_ms: z.number().int().nullable(),
    cache_hit: z.boolean(),
    attempts: z.number().int(),
    client_aborted: z.boolean(),
    usage_estimated: z.boolean().openapi({
      description:
        "True when the stream reported no usage (it broke off, or the vendor sent none): the token counts are the gateway's estimate, charged against limits and budgets all the same",
    }),
    uncounted: z.boolean().openapi({
      description:
        'True when the request was refused before it counted against any limit (an invalid body, an unknown or forbidden model, a limit reached); such rows are left out when lost limit counters are rebuilt from the log',
    }),
    guardrail: z.string().nullable().openapi({
      description:
        'What guardrails did, `action:guardrail:rule` comma-separated (e.g. `flag:content:pii-terms`); null when none acted',
    }),
    reasoning_effort: z.string().nullable().openapi({
      description: "The reasoning effort asked for, on OpenAI's scale (none … xhigh); null when none was",
    }),
    client_name: z.string().nullable().openapi({
      description:
        'The client recognised from its User-Agent: claude-code, codex, opencode, openai-sdk, anthropic-sdk, … (else its product name)',
    }),
    client_version: z.string().nullable(),
    user_agent: z.string().nullable(),
    session_id: z.string().nullable().openapi({ description: "The coding agent's session id header" }),
  })
  .openapi('GatewayLogEntry');

export const GatewayLogPageSchema = z
  .object({
    total: z.number().int().openapi({ description: 'Requests matching the filters' }),
    offset: z.number().int(),
    limit: z.number().int(),
    entries: z.array(GatewayLogEntrySchema),
  })
  .openapi('GatewayLogPage');
