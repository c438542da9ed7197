import { createRoute } from '@hono/zod-openapi';
import { adminKeyListQuerySchema, listAllKeys } from '@sluice/shared/keys';
import { requireAdmin } from '../middleware/require-admin';
import { bearerSecurity, createRouter, errorResponses, listResponse, PAGING, sendPage } from '../openapi';
import { AdminApiKeyPageSchema } from '../schemas/keys';

const listRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['keys'],
  summary: "Every user's API keys (admin), newest first, with their owner",
  description:
    'Filters: user_id (exact), status (active, disabled, expired, revoked; without it revoked keys are ' +
    "left out), q (case-insensitive substring of the key's name, its prefix or its owner's email). " +
    `The secret is never returned. ${PAGING}`,
  security: bearerSecurity,
  middleware: [requireAdmin()] as const,
  request: { query: adminKeyListQuerySchema },
  responses: {
    200: listResponse(AdminApiKeyPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

export const adminKeysRoutes = createRouter().openapi(listRoute, async (c) =>
  sendPage(c, await listAllKeys(c.var.deps.db, c.req.valid('query'))),
);
