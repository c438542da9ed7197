// The OpenAPI 3.1 document at /api/openapi.json is generated from the zod schemas and
// matches what the console really answers. A tour calls every documented operation; each
// real response must be a documented status with a body that validates against its schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckedApi, type CheckedCallOptions, checkedApi } from '../helpers/checked-api';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { appEnv, freshDatabase } from '../helpers/stores';

let h: ConsoleHarness;
let checked: CheckedApi;

const api = (method: string, path: string, options?: CheckedCallOptions) =>
  checked.call(method, path, options);

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

async function tourIdentity(): Promise<{ admin: string; user: string }> {
  await api('GET', '/api/health');
  await api('GET', '/api/setup/status');
  await api('POST', '/api/setup/initialize', { body: { admin: { email: 'x' } } });
  const admin = { email: 'tour@example.com', display_name: 'Tour', password: 'tour-password-1' };
  const init = await api('POST', '/api/setup/initialize', { body: { admin } });
  await api('POST', '/api/setup/initialize', { body: { admin } });
  const user = { email: 'tour-user@example.com', display_name: 'U', password: 'user-password-1' };
  await api('POST', '/api/auth/register', { body: user });
  await api('POST', '/api/auth/register', { body: user });
  await api('POST', '/api/auth/register', { body: { email: 'nope' } });
  const login = await api('POST', '/api/auth/login', {
    body: { email: admin.email, password: admin.password },
  });
  await api('POST', '/api/auth/login', { body: { email: admin.email, password: 'wrong-password' } });
  await api('POST', '/api/auth/login', { body: {} });
  await api('POST', '/api/auth/refresh', { body: { refresh_token: login.body.refresh_token } });
  await api('POST', '/api/auth/refresh', { body: { refresh_token: 'rt_nope' } });
  await api('GET', '/api/auth/me', { token: init.body.access_token });
  // SSO is not configured here: authorize and callback say so (500); the rest of it is console-sso.test.ts.
  await api('GET', '/api/auth/sso/status');
  await api('GET', '/api/auth/sso/authorize');
  await api('GET', '/api/auth/sso/callback');
  await api('GET', '/api/auth/sso/callback?code=c&state=s');
  await api('POST', '/api/auth/sso/exchange', { body: { code: 'unknown' } });
  await api('POST', '/api/auth/sso/exchange', { body: {} });
  await api('GET', '/api/auth/me');
  const userLogin = await api('POST', '/api/auth/login', {
    body: { email: user.email, password: user.password },
  });
  return { admin: init.body.access_token, user: userLogin.body.access_token };
}

async function tourAdmin(token: string, userToken: string): Promise<{ providerId: string }> {
  await api('GET', '/api/admin/users', { token });
  await api('GET', '/api/admin/users?limit=201', { token });
  await api('GET', '/api/admin/keys?q=tour', { token });
  await api('GET', '/api/admin/keys?limit=0', { token });
  await api('GET', '/api/admin/users', { token: userToken });
  const created = await api('POST', '/api/admin/users', {
    token,
    body: { email: 'ops@example.com', display_name: 'Ops', password: 'ops-password-1', role: 'operator' },
  });
  await api('POST', '/api/admin/users', {
    token,
    body: { email: 'ops@example.com', display_name: 'O', password: 'ops-password-1' },
  });
  await api('POST', '/api/admin/users', { token, body: { email: 'bad' } });
  await api('GET', `/api/admin/users/${created.body.id}`, { token });
  await api('GET', `/api/admin/users/${MISSING_ID}`, { token });
  await api('PATCH', `/api/admin/users/${created.body.id}`, { token, body: { display_name: 'Operations' } });
  await api('PATCH', `/api/admin/users/${created.body.id}`, { token, body: { role: 'root' } });
  await api('DELETE', `/api/admin/users/${created.body.id}`, { token });
  await api('DELETE', `/api/admin/users/${MISSING_ID}`, { token });

  const provider = {
    name: 'tour-openai',
    display_name: 'Tour',
    provider_type: 'openai',
    base_url: 'https://up.example/v1',
    api_key: 'sk-tour',
  };
  const p = await api('POST', '/api/admin/providers', { token, body: provider });
  await api('POST', '/api/admin/providers', { token, body: provider });
  await api('POST', '/api/admin/providers', {
    token,
    body: { ...provider, name: 'x2', provider_type: 'nope' },
  });
  await api('GET', '/api/admin/providers', { token });
  await api('GET', '/api/admin/providers?offset=-1', { token });
  await api('GET', '/api/admin/providers', { token: userToken });
  await api('GET', `/api/admin/providers/${p.body.id}`, { token });
  await api('GET', `/api/admin/providers/${MISSING_ID}`, { token });
  await api('PATCH', `/api/admin/providers/${p.body.id}`, { token, body: { display_name: 'Tour OpenAI' } });
  await api('PATCH', `/api/admin/providers/${p.body.id}`, { token, body: { base_url: 'ftp://x' } });
  const doomed = await api('POST', '/api/admin/providers', { token, body: { ...provider, name: 'doomed' } });
  await api('DELETE', `/api/admin/providers/${doomed.body.id}`, { token });
  await api('DELETE', `/api/admin/providers/${doomed.body.id}`, { token });
  return { providerId: p.body.id };
}

async function tourModels(token: string, providerId: string): Promise<void> {
  const route = { provider_id: providerId, upstream_model: 'gpt-4o-mini', rpm_cap: 60 };
  const m = await api('POST', '/api/admin/models', { token, body: { name: 'tour-model', routes: [route] } });
  await api('POST', '/api/admin/models', { token, body: { name: 'tour-model' } });
  await api('POST', '/api/admin/models', { token, body: { name: 'has space' } });
  await api('GET', '/api/admin/models', { token });
  await api('GET', '/api/admin/models?limit=0', { token });
  await api('GET', '/api/admin/models/unpriced', { token });
  await api('GET', '/api/admin/models/unpriced?limit=x', { token });
  await api('GET', '/api/admin/models/route-health', { token });
  const price = { vendor: 'tour', input_price_per_mtok: 1, output_price_per_mtok: 2 };
  await api('GET', '/api/admin/model-prices', { token });
  await api('GET', '/api/admin/model-prices?limit=201', { token });
  await api('PUT', '/api/admin/model-prices/tour-upstream', { token, body: price });
  await api('PUT', '/api/admin/model-prices/tour-upstream', { token, body: { ...price, vendor: 'tour2' } });
  await api('PUT', '/api/admin/model-prices/tour-upstream', {
    token,
    body: { ...price, input_price_per_mtok: -1 },
  });
  await api('DELETE', '/api/admin/model-prices/tour-upstream', { token });
  await api('DELETE', '/api/admin/model-prices/tour-upstream', { token });
  await api('GET', `/api/admin/models/${m.body.id}`, { token });
  await api('GET', `/api/admin/models/${MISSING_ID}`, { token });
  await api('PATCH', `/api/admin/models/${m.body.id}`, {
    token,
    body: { input_price_per_mtok: 0.15, output_price_per_mtok: 0.6 },
  });
  await api('PATCH', `/api/admin/models/${m.body.id}`, { token, body: { input_weight: -1 } });
  await api('PUT', `/api/admin/models/${m.body.id}/routes`, {
    token,
    body: { routes: [route, { ...route, tpm_cap: 1000 }] },
  });
  await api('PUT', `/api/admin/models/${m.body.id}/routes`, {
    token,
    body: { routes: [{ ...route, provider_id: MISSING_ID }] },
  });
  const doomed = await api('POST', '/api/admin/models', { token, body: { name: 'doomed-model' } });
  await api('DELETE', `/api/admin/models/${doomed.body.id}`, { token });
  await api('DELETE', `/api/admin/models/${doomed.body.id}`, { token });
}

async function tourKeys(token: string, userToken: string): Promise<void> {
  const key = await api('POST', '/api/keys', {
    token,
    body: { name: 'tour key', allowed_models: ['tour-model'], expires_in_days: 3 },
  });
  await api('POST', '/api/keys', { token, body: { name: 'x', expires_in_days: 100000 } });
  await api('POST', '/api/keys', { body: { name: 'x' } });
  await api('GET', '/api/keys', { token });
  await api('GET', '/api/keys?offset=x', { token });
  await api('GET', '/api/keys/expiring?days=7', { token });
  await api('GET', '/api/keys/expiring?days=zero', { token });
  await api('GET', `/api/keys/${key.body.id}`, { token });
  await api('GET', `/api/keys/${key.body.id}`, { token: userToken });
  await api('PATCH', `/api/keys/${key.body.id}`, {
    token,
    body: { rate_limit_rpm: 30, inactivity_timeout_days: 30 },
  });
  await api('PATCH', `/api/keys/${key.body.id}`, { token, body: { rate_limit_rpm: -1 } });
  await api('POST', `/api/keys/${key.body.id}/rotate`, { token });
  await api('POST', `/api/keys/${MISSING_ID}/rotate`, { token });
  await api('DELETE', `/api/keys/${key.body.id}`, { token });
  await api('DELETE', `/api/keys/${key.body.id}`, { token });
}

async function tourSettingsAndAudit(token: string, userToken: string): Promise<void> {
  await api('GET', '/api/admin/settings', { token });
  await api('GET', '/api/admin/settings', { token: userToken });
  await api('PATCH', '/api/admin/settings', { token, body: { settings: { cache_ttl_seconds: 120 } } });
  await api('PATCH', '/api/admin/settings', { token, body: { settings: { no_such_setting: 1 } } });
  await api('GET', '/api/admin/settings/category/keys', { token });
  await api('POST', '/api/admin/settings/guardrails/try', {
    token,
    body: { text: 'a@b.io', redact: { detectors: ['email'] } },
  });
  await api('POST', '/api/admin/settings/guardrails/try', {
    token,
    body: { text: 'x', content: { deny: 1 } },
  });
  await api('GET', '/api/admin/settings/category/nope', { token });
  for (const legacy of ['system', 'oidc', 'audit'])
    await api('GET', `/api/admin/settings/${legacy}`, { token });
  await api('GET', '/api/audit/logs?q=provider.create&limit=10', { token });
  await api('GET', '/api/audit/logs?limit=1001', { token });
  await api('GET', '/api/audit/logs', { token: userToken });
  await api('GET', '/api/admin/platform-logs?action=provider.create&limit=10', { token });
  await api('GET', '/api/admin/platform-logs?limit=201', { token });
  await api('GET', '/api/admin/access-logs?port=3001&method=get&path=/api&limit=10', { token });
  await api('GET', '/api/admin/access-logs?source=console&status_code=2xx&port=9301', { token });
  await api('GET', '/api/admin/access-logs?port=0', { token });
  await api('GET', '/api/admin/access-logs', { token: userToken });
  await api('GET', '/api/admin/app-logs?level=WARN&target=limits&q=x&limit=10', { token });
  await api('GET', '/api/admin/app-logs?level=NOTICE', { token });
  await api('GET', '/api/admin/app-logs');
}

async function tourLimits(token: string, userToken: string): Promise<void> {
  const me = await api('GET', '/api/auth/me', { token: userToken });
  const role = await api('POST', '/api/admin/roles', {
    token,
    body: { name: 'tour-role', rules: [{ kind: 'requests', window: '1m', limit: 10 }] },
  });
  await api('POST', '/api/admin/roles', { token, body: { name: 'tour-role' } });
  await api('POST', '/api/admin/roles', { token: userToken, body: { name: 'x' } });
  await api('GET', '/api/admin/roles', { token });
  await api('GET', '/api/admin/roles?limit=0', { token });
  await api('GET', `/api/admin/roles/${role.body.id}`, { token });
  await api('GET', `/api/admin/roles/${MISSING_ID}`, { token });
  await api('PATCH', `/api/admin/roles/${role.body.id}`, { token, body: { description: 'tour' } });
  await api('PATCH', `/api/admin/roles/${role.body.id}`, { token, body: {} });
  const team = await api('POST', '/api/admin/teams', { token, body: { name: 'tour-team' } });
  await api('POST', '/api/admin/teams', { token, body: { name: 'Not A Slug' } });
  await api('GET', '/api/admin/teams', { token });
  await api('GET', '/api/admin/teams?limit=0', { token });
  await api('GET', `/api/admin/teams/${team.body.id}`, { token });
  await api('PATCH', `/api/admin/teams/${team.body.id}`, { token, body: { description: 'tour' } });
  await api('PUT', `/api/admin/teams/${team.body.id}/members`, { token, body: { user_ids: [me.body.id] } });
  await api('PUT', `/api/admin/teams/${team.body.id}/members`, { token, body: { user_ids: [MISSING_ID] } });
  await api('PUT', `/api/admin/teams/${team.body.id}/roles`, { token, body: { role_ids: [role.body.id] } });
  await api('PUT', `/api/admin/limits/user/${me.body.id}/roles`, {
    token,
    body: { role_ids: [role.body.id] },
  });
  await api('GET', `/api/admin/limits/user/${me.body.id}/roles`, { token });
  const key = await api('POST', '/api/keys', { token: userToken, body: { name: 'tour limits key' } });
  const rules = { rules: [{ kind: 'tokens', window: '5h', limit: 1000 }] };
  await api('PUT', `/api/admin/limits/api_key/${key.body.id}/rules`, { token, body: rules });
  await api('PUT', `/api/admin/limits/api_key/${key.body.id}/rules`, { token, body: { rules: [{}] } });
  await api('GET', `/api/admin/limits/api_key/${key.body.id}/rules`, { token });
  await api('GET', `/api/admin/limits/api_key/${MISSING_ID}/rules`, { token });
  const budgets = { budgets: [{ period: 'daily', limit_tokens: 5000 }] };
  await api('PUT', `/api/admin/limits/user/${me.body.id}/budgets`, { token, body: budgets });
  await api('GET', `/api/admin/limits/user/${me.body.id}/budgets`, { token });
  await api('GET', `/api/admin/limits/api_key/${key.body.id}/usage`, { token });
  await api('GET', `/api/admin/limits/api_key/${key.body.id}/usage`, { token: userToken });
  await api('DELETE', `/api/admin/limits/user/${me.body.id}/budgets`, { token });
  await api('DELETE', `/api/admin/limits/api_key/${key.body.id}/rules`, { token });
  const toolLimits = `/api/admin/limits/role/${role.body.id}/tool-limits`;
  const toolLimit = await api('POST', toolLimits, {
    token,
    body: { tool: 'github__*', kind: 'rate', window: '1m', limit: 10 },
  });
  await api('POST', toolLimits, { token, body: { tool: 'github__*', kind: 'rate', window: '1m', limit: 5 } });
  await api('POST', toolLimits, {
    token,
    body: { tool: 'github', kind: 'budget', period: 'daily', limit: -1 },
  });
  await api('POST', `/api/admin/limits/api_key/${key.body.id}/tool-limits`, {
    token,
    body: { tool: '*', kind: 'budget', period: 'daily', limit: 100 },
  });
  await api('GET', toolLimits, { token });
  await api('GET', toolLimits, { token: userToken });
  await api('GET', '/api/admin/limits/tool-limits', { token });
  await api('DELETE', `${toolLimits}/${toolLimit.body.id}`, { token });
  await api('DELETE', `${toolLimits}/${toolLimit.body.id}`, { token });
  const grant = await api('POST', '/api/admin/permissions', {
    token,
    body: { user_id: me.body.id, permission: 'rate_limits:read', scope_type: 'own' },
  });
  await api('POST', '/api/admin/permissions', {
    token,
    body: { user_id: me.body.id, permission: 'rate_limits:read', scope_type: 'team' },
  });
  await api('GET', '/api/admin/permissions', { token });
  await api('GET', '/api/admin/permissions?offset=-1', { token });
  await api('DELETE', `/api/admin/permissions/${grant.body.id}`, { token });
  await api('DELETE', `/api/admin/teams/${team.body.id}`, { token });
  await api('DELETE', `/api/admin/roles/${role.body.id}`, { token });
  await api('DELETE', `/api/admin/roles/${role.body.id}`, { token });
}

async function tourMcp(token: string, userToken: string): Promise<void> {
  const body = {
    name: 'tour-mcp',
    endpoint_url: 'http://127.0.0.1:9/mcp',
    auth_type: 'bearer',
    auth_secret: 's',
  };
  const server = await api('POST', '/api/mcp/servers', { token, body });
  await api('POST', '/api/mcp/servers', { token, body });
  await api('POST', '/api/mcp/servers', { token, body: { name: 'x', endpoint_url: 'ftp://x' } });
  await api('GET', '/api/mcp/servers', { token });
  await api('GET', '/api/mcp/servers?limit=0', { token });
  await api('GET', '/api/mcp/servers', { token: userToken });
  await api('GET', `/api/mcp/servers/${server.body.id}`, { token });
  await api('GET', `/api/mcp/servers/${MISSING_ID}`, { token });
  await api('PATCH', `/api/mcp/servers/${server.body.id}`, { token, body: { is_active: false } });
  await api('PATCH', `/api/mcp/servers/${server.body.id}`, { token, body: { auth_type: 'query' } });
  await api('POST', `/api/mcp/servers/${server.body.id}/discover`, { token });
  await api('POST', `/api/mcp/servers/${MISSING_ID}/discover`, { token });
  await api('GET', '/api/mcp/tools', { token: userToken });
  await api('GET', '/api/mcp/tools?offset=-1', { token: userToken });
  await api('GET', '/api/mcp/tools');
  await api('GET', `/api/mcp/logs?server_id=${server.body.id}&sort_by=duration_ms&limit=10`, { token });
  await api('GET', '/api/mcp/logs?limit=201', { token });
  await api('GET', '/api/gateway/logs?model=gpt-test&status_code=200&sort_by=cost_usd&limit=10', { token });
  await api('GET', '/api/gateway/logs?from=2025-04-02&to=2025-04-01', { token });
  await api('GET', '/api/gateway/logs?client_name=codex&error_type=rate_limit_error', { token });
  await api('GET', '/api/gateway/logs?status_code=4xx&unpriced=true', { token });
  await api('GET', '/api/gateway/logs?status_code=6xx', { token });
  await api('GET', '/api/analytics/usage?from=2025-04-01&to=2025-04-02&group_by=hour', { token });
  await api('GET', '/api/analytics/usage?group_by=month', { token });
  await api('GET', '/api/analytics/usage/stats?model=gpt-test', { token: userToken });
  await api('GET', '/api/analytics/costs?group_by=week', { token });
  await api('GET', '/api/analytics/costs/stats');
  await api('GET', '/api/analytics/costs/stats?from=2025-04-01', { token });
  await api('GET', '/api/analytics/clients?from=2025-04-01', { token });
  await api('GET', '/api/analytics/clients', { token: userToken });
  await api('GET', '/api/analytics/errors?model=gpt-test', { token });
  await api('GET', '/api/analytics/errors?from=nope', { token });
  await tourMcpVirtualServers(token, userToken);
  await api('DELETE', `/api/mcp/servers/${server.body.id}`, { token });
  await api('DELETE', `/api/mcp/servers/${server.body.id}`, { token });
}

async function tourMcpVirtualServers(token: string, userToken: string): Promise<void> {
  const body = { name: 'tour-virtual', description: 'curated', tools: ['tour-mcp__echo'] };
  const virtual = await api('POST', '/api/mcp/virtual-servers', { token, body });
  await api('POST', '/api/mcp/virtual-servers', { token, body });
  await api('POST', '/api/mcp/virtual-servers', { token, body: { name: 'tour-bad', tools: ['echo'] } });
  await api('POST', '/api/mcp/virtual-servers', { token: userToken, body });
  await api('GET', '/api/mcp/virtual-servers', { token });
  await api('GET', '/api/mcp/virtual-servers?limit=201', { token });
  await api('GET', '/api/mcp/virtual-servers', { token: userToken });
  await api('GET', `/api/mcp/virtual-servers/${virtual.body.id}`, { token });
  await api('GET', `/api/mcp/virtual-servers/${MISSING_ID}`, { token });
  await api('PATCH', `/api/mcp/virtual-servers/${virtual.body.id}`, { token, body: { is_active: false } });
  await api('PATCH', `/api/mcp/virtual-servers/${virtual.body.id}`, { token, body: {} });
  await api('PATCH', `/api/mcp/virtual-servers/${MISSING_ID}`, { token, body: { is_active: true } });
  await api('DELETE', `/api/mcp/virtual-servers/${virtual.body.id}`, { token });
  await api('DELETE', `/api/mcp/virtual-servers/${virtual.body.id}`, { token });
}

/** An MCP client signs a user in (the authorization server's own endpoints are not /api). */
async function tourOAuth(token: string, userToken: string): Promise<void> {
  const registered = await h.call('POST', '/oauth/register', {
    body: { client_name: 'Tour', redirect_uris: ['http://127.0.0.1/cb'] },
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const authorize = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: 'http://127.0.0.1:7777/cb',
    code_challenge: 'c'.repeat(43),
    code_challenge_method: 'S256',
    resource: 'http://127.0.0.1:3000/mcp',
  });
  const started = await h.call('GET', `/oauth/authorize?${authorize}`);
  const requestId =
    new URL(started.headers.get('location') ?? '', 'http://x').searchParams.get('request') ?? '';
  await api('GET', `/api/oauth/requests/${requestId}`, { token });
  await api('GET', '/api/oauth/requests/expired', { token });
  await api('POST', `/api/oauth/requests/${requestId}/decision`, { token, body: { approve: true } });
  await api('POST', `/api/oauth/requests/${requestId}/decision`, { token, body: { approve: true } });
  const grants = await api('GET', '/api/oauth/grants', { token });
  await api('GET', '/api/oauth/grants?all=true', { token });
  await api('GET', '/api/oauth/grants?all=true', { token: userToken });
  await api('GET', '/api/oauth/grants?limit=0', { token });
  await api('DELETE', `/api/oauth/grants/${grants.body[0].id}`, { token });
  await api('DELETE', `/api/oauth/grants/${MISSING_ID}`, { token: userToken });
  const server = await api('POST', '/api/mcp/servers', {
    token,
    body: { name: 'tour-oauth', endpoint_url: 'http://127.0.0.1:9/mcp', auth_type: 'oauth' },
  });
  await api('GET', '/api/mcp/connections', { token: userToken });
  await api('GET', '/api/mcp/connections?limit=x', { token: userToken });
  await api('POST', `/api/mcp/connections/${server.body.id}`, { token: userToken });
  await api('POST', `/api/mcp/connections/${MISSING_ID}`, { token: userToken });
  // A server of another auth type takes no ID token (400); an unknown one is 404; no body is 422.
  await api('POST', `/api/mcp/connections/${server.body.id}/id-token`, {
    token: userToken,
    body: { id_token: 'a.b.c' },
  });
  await api('POST', `/api/mcp/connections/${MISSING_ID}/id-token`, {
    token: userToken,
    body: { id_token: 'a.b.c' },
  });
  await api('POST', `/api/mcp/connections/${server.body.id}/id-token`, { token: userToken, body: {} });
  await api('DELETE', `/api/mcp/connections/${server.body.id}`, { token: userToken });
  await api('DELETE', `/api/mcp/servers/${server.body.id}`, { token });
}

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_openapi')));
  checked = await checkedApi(h, { ip: '198.51.100.200' });
});
afterAll(() => h.close());

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with a bearer security scheme and an Error component', async () => {
    const doc = (await (await h.call('GET', '/api/openapi.json')).json()) as {
      openapi: string;
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.Error).toBeDefined();
  });

  it('matches the real responses of a tour over every operation', async () => {
    const tokens = await tourIdentity();
    const { providerId } = await tourAdmin(tokens.admin, tokens.user);
    await tourModels(tokens.admin, providerId);
    await tourKeys(tokens.admin, tokens.user);
    await tourSettingsAndAudit(tokens.admin, tokens.user);
    await tourLimits(tokens.admin, tokens.user);
    await tourMcp(tokens.admin, tokens.user);
    await tourOAuth(tokens.admin, tokens.user);
    expect(checked.problems).toEqual([]);
    const missed = checked.conformance
      .operations()
      .filter((op) => !checked.conformance.exercisedOperations().includes(op));
    expect(missed).toEqual([]);
  });
});
