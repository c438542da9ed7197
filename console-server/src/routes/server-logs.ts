import { createRoute } from '@hono/zod-openapi';
import type { LogLevel } from '@sluice/shared/logs/server';
import { accessLogSchema, appLogSchema } from '@sluice/shared/logs/server';
import { requireAdmin } from '../middleware/require-admin';
import { bearerSecurity, createRouter, errorResponses, jsonResponse } from '../openapi';
import {
  AccessLogPageSchema,
  AccessLogQuerySchema,
  AppLogPageSchema,
  AppLogQuerySchema,
} from '../schemas/server-logs';
import { statusMatchOf } from '../schemas/status-match';

const PAGING =
  'from/to are inclusive ISO 8601 instants (a bare date is 00:00 UTC). Newest first, ties by id. ' +
  'limit is 1..200 (default 50; larger is 422, not clamped), offset defaults to 0.';

const accessLogsRoute = createRoute({
  tags: ['logs'],
  security: bearerSecurity,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/',
  summary: "Every HTTP request to the gateway and the console (but the web UI's asset loads)",
  description:
    'Filters combine with AND. method, source, port and user_id are exact (method in any case); status_code is one ' +
    'code (404) or a class (4xx); path is a case-insensitive substring; q matches the path or the user agent. ' +
    "port is the one the answering server listens on. The web UI's own asset loads (files of its build answered " +
    `under 400) are not recorded; its page loads are. ${PAGING}`,
  request: { query: AccessLogQuerySchema },
  responses: {
    200: jsonResponse(AccessLogPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

const appLogsRoute = createRoute({
  tags: ['logs'],
  security: bearerSecurity,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/',
  summary: "Both servers' structured application logs",
  description:
    'level is a minimum (WARN lists WARN and ERROR; TRACE and DEBUG are stored only when ' +
    `SLUICE_LOG_LEVEL allows them); target and q are case-insensitive substrings. ${PAGING}`,
  request: { query: AppLogQuerySchema },
  responses: {
    200: jsonResponse(AppLogPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

const dateOf = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

export const accessLogsRoutes = createRouter().openapi(accessLogsRoute, async (c) => {
  const query = c.req.valid('query');
  const { total, entries } = await c.var.deps.accessLogs.search({
    method: query.method,
    path: query.path,
    statusCode: statusMatchOf(query.status_code),
    source: query.source,
    port: query.port,
    userId: query.user_id,
    q: query.q,
    from: dateOf(query.from),
    to: dateOf(query.to),
    limit: query.limit,
    offset: query.offset,
  });
  return c.json(
    { total, offset: query.offset, limit: query.limit, entries: entries.map(accessLogSchema.toView) },
    200,
  );
});

export const appLogsRoutes = createRouter().openapi(appLogsRoute, async (c) => {
  const query = c.req.valid('query');
  const { total, entries } = await c.var.deps.appLogs.search({
    level: query.level as LogLevel | undefined,
    target: query.target,
    q: query.q,
    from: dateOf(query.from),
    to: dateOf(query.to),
    limit: query.limit,
    offset: query.offset,
  });
  return c.json(
    { total, offset: query.offset, limit: query.limit, entries: entries.map(appLogSchema.toView) },
    200,
  );
});
