import { createRoute } from '@hono/zod-openapi';
import {
  decideAuthorization,
  OAuthError,
  pendingAuthorization,
  revokeGrant,
} from '@sluice/shared/auth/oauth';
import { type GrantListing, listGrants, oauthGrantStore, writeAudit } from '@sluice/shared/db/repos';
import { forbidden, notFound } from '@sluice/shared/http';
import { requireJwt } from '../middleware/require-jwt';
import { oauthServer } from '../oauth/server-deps';
import {
  bearerSecurity,
  createRouter,
  errorResponses,
  IdParams,
  jsonBody,
  jsonResponse,
  listResponse,
  noContent,
  PAGING,
  sendPage,
} from '../openapi';
import {
  AuthorizationRequestSchema,
  ConsentAnswerSchema,
  ConsentDecisionSchema,
  GrantListQuery,
  GrantPageSchema,
  RequestIdParams,
} from '../schemas/oauth';
import { auditActor } from './audit-actor';

const common = { tags: ['oauth'], security: bearerSecurity };

const requestRoute = createRoute({
  ...common,
  middleware: [requireJwt()] as const,
  method: 'get',
  path: '/requests/{id}',
  summary: 'An MCP client asking to act for you: what the consent screen shows',
  request: { params: RequestIdParams },
  responses: { 200: jsonResponse(AuthorizationRequestSchema, 'The request'), ...errorResponses(401, 404) },
});

const decideRoute = createRoute({
  ...common,
  middleware: [requireJwt()] as const,
  method: 'post',
  path: '/requests/{id}/decision',
  summary: "Approve or decline a client's request; the browser is then sent back to the client",
  request: { params: RequestIdParams, body: jsonBody(ConsentDecisionSchema) },
  responses: {
    200: jsonResponse(ConsentAnswerSchema, 'Where to send the browser'),
    ...errorResponses(400, 401, 404),
  },
});

const listRoute = createRoute({
  ...common,
  middleware: [requireJwt()] as const,
  method: 'get',
  path: '/grants',
  summary: 'MCP clients you let act for you (admins: everyone’s with all=true), active first, then newest',
  description: PAGING,
  request: { query: GrantListQuery },
  responses: {
    200: listResponse(GrantPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

const revokeRoute = createRoute({
  ...common,
  middleware: [requireJwt()] as const,
  method: 'delete',
  path: '/grants/{id}',
  summary: "Revoke a grant: the client's tokens stop working (yours; admins: anyone's)",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(401, 404) },
});

const notPending = () => notFound('This authorization request has expired or was already answered');

function grantView(g: GrantListing) {
  return {
    id: g.id,
    user_id: g.userId,
    user_email: g.userEmail,
    client_id: g.clientId,
    client_name: g.clientName,
    resource: g.resource,
    scope: g.scope,
    created_at: g.createdAt.toISOString(),
    last_used_at: g.lastUsedAt?.toISOString() ?? null,
    revoked_at: g.revokedAt?.toISOString() ?? null,
    revoked_reason: g.revokedReason,
  };
}

export const oauthGrantsRoutes = createRouter()
  .openapi(requestRoute, async (c) => {
    const pending = await pendingAuthorization(c.req.valid('param').id, oauthServer(c));
    if (!pending) throw notPending();
    return c.json(
      {
        id: pending.id,
        client_id: pending.clientId,
        client_name: pending.clientName,
        redirect_uri: pending.redirectUri,
        scope: pending.scope,
        resource: pending.resource,
      },
      200,
    );
  })
  .openapi(decideRoute, async (c) => {
    const { approve } = c.req.valid('json');
    const server = oauthServer(c);
    const decided = await decideAuthorization(
      c.req.valid('param').id,
      c.var.auth.userId,
      approve,
      server,
    ).catch((error: unknown) => {
      throw error instanceof OAuthError ? notPending() : error;
    });
    await writeAudit(c.var.deps.db, {
      ...auditActor(c),
      action: approve ? 'oauth.grant.approve' : 'oauth.grant.decline',
      resourceType: 'oauth_grant',
      resourceId: decided.grantId,
      details: {
        client_id: decided.pending.clientId,
        client_name: decided.pending.clientName,
        resource: decided.pending.resource,
        scope: decided.pending.scope,
      },
    });
    return c.json({ redirect_to: decided.redirectTo }, 200);
  })
  .openapi(listRoute, async (c) => {
    const query = c.req.valid('query');
    const all = query.all === 'true';
    if (all && c.var.auth.role !== 'admin') throw forbidden('Admin role required for all=true');
    const { rows, total } = await listGrants(c.var.deps.db, all ? null : c.var.auth.userId, query);
    return sendPage(c, { total, entries: rows.map(grantView) });
  })
  .openapi(revokeRoute, async (c) => {
    const { id } = c.req.valid('param');
    const server = oauthServer(c);
    const grant = await oauthGrantStore(c.var.deps.db).find(id);
    // Someone else's grant is a 404 to a non-admin, as with keys.
    if (!grant || (grant.userId !== c.var.auth.userId && c.var.auth.role !== 'admin'))
      throw notFound('Grant not found');
    const byOwner = grant.userId === c.var.auth.userId;
    if (await revokeGrant(id, byOwner ? 'revoked by its user' : 'revoked by an admin', server)) {
      await writeAudit(c.var.deps.db, {
        ...auditActor(c),
        action: 'oauth.grant.revoke',
        resourceType: 'oauth_grant',
        resourceId: id,
        details: { client_name: grant.clientName, owner_id: grant.userId },
      });
    }
    return c.body(null, 204);
  });
