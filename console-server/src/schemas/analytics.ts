import { z } from '@hono/zod-openapi';
import { MAX_USAGE_RANGE_MS, USAGE_GROUP_BYS } from '@sluice/shared/logs/requests';
import { isoInstant } from './mcp';

/** Shapes of the usage and cost analytics (GET /api/analytics/*). */

/** Default window when `from` is omitted: the last 7 days. */
export const DEFAULT_ANALYTICS_WINDOW_MS = 7 * 86_400_000;

/** from/to with their defaults applied (to = now, from = 7 days before now). */
export function analyticsRange(
  query: { from?: string; to?: string },
  now = Date.now(),
): { from: Date; to: Date } {
  return {
    from: new Date(query.from === undefined ? now - DEFAULT_ANALYTICS_WINDOW_MS : Date.parse(query.from)),
    to: new Date(query.to === undefined ? now : Date.parse(query.to)),
  };
}

const range = {
  from: isoInstant
    .optional()
    .openapi({ description: 'Inclusive lower bound on created_at; default 7 days ago' }),
  to: isoInstant.optional().openapi({ description: 'Inclusive upper bound on created_at; default now' }),
  model: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .openapi({ description: 'Exact model name; default all models' }),
};

function checkRange(
  v: { from?: string; to?: string; group_by?: (typeof USAGE_GROUP_BYS)[number] },
  ctx: z.RefinementCtx,
): void {
  const { from, to } = analyticsRange(v);
  if (!Number.isFinite(from.getTime()) || !Number.isFinite(to.getTime())) return;
  if (from.getTime() > to.getTime()) {
    ctx.addIssue({ code: 'custom', path: ['from'], message: 'must not be after to' });
    return;
  }
  const groupBy = v.group_by ?? 'week';
  if (to.getTime() - from.getTime() > MAX_USAGE_RANGE_MS[groupBy]) {
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      message: 'range too long: hour buckets cover at most 31 days, day 366 days, week 5 years',
    });
  }
}

/** GET /api/analytics/usage and /costs query. */
export const AnalyticsSeriesQuerySchema = z
  .object({
    ...range,
    group_by: z.enum(USAGE_GROUP_BYS).default('day').openapi({
      description: 'Bucket size: hour (≤ 31 days), day (≤ 366 days) or week (Monday, ≤ 5 years)',
    }),
  })
  .superRefine(checkRange);
export type AnalyticsSeriesQuery = z.infer<typeof AnalyticsSeriesQuerySchema>;

/** GET /api/analytics/usage/stats and /costs/stats query (at most 5 years). */
export const AnalyticsStatsQuerySchema = z.object(range).superRefine(checkRange);
export type AnalyticsStatsQuery = z.infer<typeof AnalyticsStatsQuerySchema>;

const period = z.string().openapi({ description: 'ISO 8601 UTC start of the bucket' });
const count = z.number().int();

export const UsageSeriesSchema = z
  .object({
    data: z.array(
      z.object({
        period,
        request_count: count,
        prompt_tokens: count,
        completion_tokens: count,
        total_tokens: count,
      }),
    ),
  })
  .openapi('UsageSeries');

/** Prompt-cache and reasoning totals, in both stats answers. */
const tokenDetails = {
  cache_read_tokens: count.openapi({
    description: "Input tokens read from vendors' prompt caches (within the prompt tokens)",
  }),
  cache_write_tokens: count.openapi({
    description: "Input tokens written to vendors' prompt caches (within the prompt tokens)",
  }),
  reasoning_tokens: count.openapi({
    description:
      'Output tokens spent reasoning, where the vendor reports them (within the completion tokens)',
  }),
};

export const UsageStatsSchema = z
  .object({
    total_requests: count,
    total_tokens: count,
    avg_latency_ms: z.number().nullable().openapi({ description: 'Null when there were no requests' }),
    ...tokenDetails,
    models: z.record(z.string(), z.object({ requests: count, tokens: count })),
    endpoints: z
      .record(z.string(), z.object({ requests: count, tokens: count }))
      .openapi({ description: 'By model endpoint: /v1/chat/completions, /v1/messages, /v1/embeddings, …' }),
  })
  .openapi('UsageStats');

const usd = z.number().openapi({ description: 'US dollars; unpriced requests add 0' });
const unpriced = count.openapi({ description: 'Requests of unpriced models (cost unknown, not $0)' });

export const CostSeriesSchema = z
  .object({
    data: z.array(
      z.object({
        period,
        total_cost_usd: usd,
        by_model: z.record(z.string(), z.number()),
        unpriced_requests: unpriced,
      }),
    ),
  })
  .openapi('CostSeries');

export const CostStatsSchema = z
  .object({
    total_cost_usd: usd,
    avg_daily_cost_usd: z
      .number()
      .openapi({ description: 'total_cost_usd / UTC days in [from, to] (at least 1)' }),
    by_model: z.record(z.string(), z.number()),
    by_endpoint: z.record(z.string(), z.number()).openapi({ description: 'Cost by model endpoint' }),
    unpriced_requests: unpriced,
    unpriced_models: z.record(z.string(), count).openapi({
      description:
        'The models of the unpriced requests, each with its count of them (only models that had any): the models to give prices, or to find in the gateway logs with unpriced=true',
    }),
    ...tokenDetails,
  })
  .openapi('CostStats');

const clientName = z.string().nullable().openapi({
  description:
    'The client recognised from its User-Agent: claude-code, codex, opencode, openai-sdk, anthropic-sdk, … (else its product name); null without a User-Agent',
});

export const ClientUsageSchema = z
  .object({
    data: z.array(
      z.object({
        client_name: clientName,
        client_version: z.string().nullable(),
        requests: count,
        errors: count.openapi({ description: 'Requests answered with a status of 400 or more' }),
        prompt_tokens: count,
        completion_tokens: count,
        ...tokenDetails,
        cost_usd: z.number().nullable().openapi({
          description: 'US dollars of the priced requests; null when none was priced (unknown, not $0)',
        }),
        unpriced_requests: unpriced,
      }),
    ),
  })
  .openapi('ClientUsage');

export const ErrorCountsSchema = z
  .object({
    data: z.array(
      z.object({
        error_type: z.string().nullable().openapi({
          description:
            'e.g. invalid_request_error, rate_limit_error, upstream_error; null when none was logged',
        }),
        client_name: clientName,
        status_code: z.number().int(),
        requests: count,
      }),
    ),
  })
  .openapi('ErrorCounts');
