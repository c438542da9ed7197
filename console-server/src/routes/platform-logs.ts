import { createRoute } from '@hono/zod-openapi';
import { platformLogQuerySchema, searchPlatformLog } from '@sluice/shared/audit';
import { requireAdmin } from '../middleware/require-admin';
import { bearerSecurity, createRouter, errorResponses, jsonResponse } from '../openapi';
import { AuditPageSchema } from '../schemas/settings-audit';

const platformLogsRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['audit'],
  summary:
    'Management operations on the platform (the audit trail without sign-ins), newest first, with exact filters',
  description:
    'The audit records of changes to users, keys, providers, models, MCP servers, limits and settings: every ' +
    'action but the authentication ones (auth.login, auth.login_failed, auth.register), which only ' +
    'GET /api/audit/logs lists. user_id, action (e.g. key.revoke), resource (the resource type, e.g. api_key) ' +
    'and resource_id match exactly; from/to are inclusive ISO 8601 instants. limit is 1..200 (default 50; ' +
    'larger is 422), offset defaults to 0.',
  security: bearerSecurity,
  middleware: [requireAdmin()] as const,
  request: { query: platformLogQuerySchema },
  responses: {
    200: jsonResponse(AuditPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

export const platformLogsRoutes = createRouter().openapi(platformLogsRoute, async (c) =>
  c.json(await searchPlatformLog(c.var.deps.db, c.req.valid('query')), 200),
);
