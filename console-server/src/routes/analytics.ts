import { createRoute } from '@hono/zod-openapi';
import {
  clientReport,
  costSeries,
  costStats,
  errorReport,
  usageSeries,
  usageStats,
} from '@sluice/shared/logs/analytics';
import type { UsageAggregateQuery, UsageGroupBy } from '@sluice/shared/logs/requests';
import type { Context } from 'hono';
import { requireJwt } from '../middleware/require-jwt';
import { bearerSecurity, createRouter, errorResponses, jsonResponse } from '../openapi';
import {
  AnalyticsSeriesQuerySchema,
  AnalyticsStatsQuerySchema,
  analyticsRange,
  ClientUsageSchema,
  CostSeriesSchema,
  CostStatsSchema,
  ErrorCountsSchema,
  UsageSeriesSchema,
  UsageStatsSchema,
} from '../schemas/analytics';
import type { ConsoleEnv } from '../types';

const SCOPE =
  'Admins see every request; any other role sees only its own (requests whose user_id is the caller). ' +
  'from/to are inclusive ISO 8601 instants (a bare date is 00:00 UTC); from defaults to 7 days ago, ' +
  'to to now; from after to is 422. model is exact.';
const SERIES =
  ' One entry per period from the bucket holding from to the one holding to, in order, zeros when ' +
  'nothing happened. group_by hour (top of the hour, at most 31 days), day (00:00 UTC, at most 366 ' +
  'days, the default) or week (Monday 00:00 UTC, at most 5 years); a longer range is 422.';

const usageRoute = createRoute({
  tags: ['analytics'],
  security: bearerSecurity,
  middleware: [requireJwt()] as const,
  method: 'get',
  path: '/usage',
  summary: 'Requests and tokens per period',
  description: SCOPE + SERIES,
  request: { query: AnalyticsSeriesQuerySchema },
  responses: {
    200: jsonResponse(UsageSeriesSchema, 'Requests and tokens per period'),
    ...errorResponses(401, 422),
  },
});

const usageStatsRoute = createRoute({
  tags: ['analytics'],
  security: bearerSecurity,
  middleware: [requireJwt()] as const,
  method: 'get',
  path: '/usage/stats',
  summary: 'Total requests, tokens, average latency and per-model usage (at most 5 years)',
  description: SCOPE,
  request: { query: AnalyticsStatsQuerySchema },
  responses: {
    200: jsonResponse(UsageStatsSchema, 'Totals and per-model usage'),
    ...errorResponses(401, 422),
  },
});

const costsRoute = createRoute({
  tags: ['analytics'],
  security: bearerSecurity,
  middleware: [requireJwt()] as const,
  method: 'get',
  path: '/costs',
  summary: 'Cost per period and per model',
  description: `${SCOPE}${SERIES} Unpriced requests add 0 and are counted in unpriced_requests.`,
  request: { query: AnalyticsSeriesQuerySchema },
  responses: {
    200: jsonResponse(CostSeriesSchema, 'Cost per period'),
    ...errorResponses(401, 422),
  },
});

const costStatsRoute = createRoute({
  tags: ['analytics'],
  security: bearerSecurity,
  middleware: [requireJwt()] as const,
  method: 'get',
  path: '/costs/stats',
  summary: 'Total and average daily cost, per model, and the count of unpriced requests (at most 5 years)',
  description: `${SCOPE} avg_daily_cost_usd is the total over the UTC days from..to touches (at least 1).`,
  request: { query: AnalyticsStatsQuerySchema },
  responses: {
    200: jsonResponse(CostStatsSchema, 'Cost totals'),
    ...errorResponses(401, 422),
  },
});

const clientsRoute = createRoute({
  tags: ['analytics'],
  security: bearerSecurity,
  middleware: [requireJwt()] as const,
  method: 'get',
  path: '/clients',
  summary: 'Requests, errors, tokens and cost per client name and version (at most 5 years)',
  description: `${SCOPE} Clients are recognised from the User-Agent (claude-code, codex, opencode, openai-sdk, anthropic-sdk, …, else its product name). Most requests first.`,
  request: { query: AnalyticsStatsQuerySchema },
  responses: {
    200: jsonResponse(ClientUsageSchema, 'One entry per client name and version'),
    ...errorResponses(401, 422),
  },
});

const errorsRoute = createRoute({
  tags: ['analytics'],
  security: bearerSecurity,
  middleware: [requireJwt()] as const,
  method: 'get',
  path: '/errors',
  summary: 'Failed and refused requests (status >= 400) per error type, client and status (at most 5 years)',
  description: `${SCOPE} Requests refused before reaching a vendor (validation, model not allowed, limits, benched routes) are counted too. Most requests first.`,
  request: { query: AnalyticsStatsQuerySchema },
  responses: {
    200: jsonResponse(ErrorCountsSchema, 'One entry per error type, client name and status code'),
    ...errorResponses(401, 422),
  },
});

/** The caller's range: non-admins are always limited to their own requests. */
function scopedQuery(c: Context<ConsoleEnv>, query: { from?: string; to?: string; model?: string }) {
  const auth = c.var.auth;
  return {
    ...analyticsRange(query),
    model: query.model,
    userId: auth.role === 'admin' ? undefined : auth.userId,
  };
}

/** The store's aggregate query for the caller. */
function aggregateQuery(
  c: Context<ConsoleEnv>,
  query: { from?: string; to?: string; model?: string },
  groupBy: UsageGroupBy,
): UsageAggregateQuery {
  return { ...scopedQuery(c, query), groupBy };
}

export const analyticsRoutes = createRouter()
  .openapi(usageRoute, async (c) => {
    const params = c.req.valid('query');
    const query = aggregateQuery(c, params, params.group_by);
    const rows = await c.var.deps.requestLogs.aggregate(query);
    return c.json(usageSeries(rows, query, query.groupBy), 200);
  })
  .openapi(usageStatsRoute, async (c) => {
    // Stats need no periods: week buckets keep the rows few and allow the widest range.
    const query = aggregateQuery(c, c.req.valid('query'), 'week');
    return c.json(usageStats(await c.var.deps.requestLogs.aggregate(query)), 200);
  })
  .openapi(costsRoute, async (c) => {
    const params = c.req.valid('query');
    const query = aggregateQuery(c, params, params.group_by);
    const rows = await c.var.deps.requestLogs.aggregate(query);
    return c.json(costSeries(rows, query, query.groupBy), 200);
  })
  .openapi(costStatsRoute, async (c) => {
    const query = aggregateQuery(c, c.req.valid('query'), 'week');
    return c.json(costStats(await c.var.deps.requestLogs.aggregate(query), query), 200);
  })
  .openapi(clientsRoute, async (c) => {
    const query = scopedQuery(c, c.req.valid('query'));
    return c.json(clientReport(await c.var.deps.requestLogs.clientUsage(query)), 200);
  })
  .openapi(errorsRoute, async (c) => {
    const query = scopedQuery(c, c.req.valid('query'));
    return c.json(errorReport(await c.var.deps.requestLogs.errorCounts(query)), 200);
  });
