import { createRoute } from '@hono/zod-openapi';
import type { RequestLogSearch } from '@sluice/shared/logs/requests';
import { requestLogSchema } from '@sluice/shared/logs/requests';
import { requireAdmin } from '../middleware/require-admin';
import { bearerSecurity, createRouter, errorResponses, jsonResponse } from '../openapi';
import {
  GatewayLogPageSchema,
  type GatewayLogQueryParams,
  GatewayLogQuerySchema,
} from '../schemas/gateway-logs';
import { statusMatchOf } from '../schemas/status-match';

const logsRoute = createRoute({
  tags: ['gateway'],
  security: bearerSecurity,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/',
  summary: "The gateway's model-request log, newest (or costliest, or slowest) first",
  description:
    'Filters combine with AND; model, provider, client_name and error_type are exact; status_code is one code ' +
    '(429) or a class (4xx); unpriced=true lists the requests of unpriced models; from/to are inclusive ISO 8601 instants ' +
    '(a bare date is 00:00 UTC). sort_by created_at (default), cost_usd (unpriced rows last) or ' +
    'latency_ms, always descending, ties by id. limit is 1..200 (default 50; larger is 422, not ' +
    'clamped), offset defaults to 0. Requests refused with a valid key (validation, model not allowed, ' +
    'limits, benched routes) are logged too, with their error_type.',
  request: { query: GatewayLogQuerySchema },
  responses: {
    200: jsonResponse(GatewayLogPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

/** The validated query as the store's filter (dates parsed, names camelCased). */
function requestLogSearch(query: GatewayLogQueryParams): RequestLogSearch {
  return {
    model: query.model,
    provider: query.provider,
    userId: query.user_id,
    apiKeyId: query.api_key_id,
    statusCode: statusMatchOf(query.status_code),
    unpriced: query.unpriced === undefined ? undefined : query.unpriced === 'true',
    clientName: query.client_name,
    errorType: query.error_type,
    from: query.from === undefined ? undefined : new Date(query.from),
    to: query.to === undefined ? undefined : new Date(query.to),
    sortBy: query.sort_by,
    limit: query.limit,
    offset: query.offset,
  };
}

export const gatewayLogsRoutes = createRouter().openapi(logsRoute, async (c) => {
  const query = c.req.valid('query');
  const { total, entries } = await c.var.deps.requestLogs.search(requestLogSearch(query));
  return c.json(
    { total, offset: query.offset, limit: query.limit, entries: entries.map(requestLogSchema.toView) },
    200,
  );
});
