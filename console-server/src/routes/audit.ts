import { createRoute } from '@hono/zod-openapi';
import { auditQuerySchema, searchAuditLog } from '@sluice/shared/audit';
import { requireAdmin } from '../middleware/require-admin';
import { bearerSecurity, createRouter, errorResponses, jsonResponse } from '../openapi';
import { AuditPageSchema } from '../schemas/settings-audit';

const logsRoute = createRoute({
  method: 'get',
  path: '/logs',
  tags: ['audit'],
  summary: 'Search the audit log (newest first)',
  description:
    'Every audit record: management operations and authentication (auth.login, auth.login_failed, ' +
    'auth.register); GET /api/admin/platform-logs lists the management operations alone. ' +
    'q matches words of the action, resource type and id, user email and details, or word ' +
    'prefixes ("ada@exa"). from/to are inclusive ISO 8601 instants (a bare date is 00:00 UTC). ' +
    'limit is 1..1000 (default 50; larger is 422, not clamped), offset defaults to 0.',
  security: bearerSecurity,
  middleware: [requireAdmin()] as const,
  request: { query: auditQuerySchema },
  responses: {
    200: jsonResponse(AuditPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

export const auditRoutes = createRouter().openapi(logsRoute, async (c) =>
  c.json(await searchAuditLog(c.var.deps.db, c.req.valid('query')), 200),
);
