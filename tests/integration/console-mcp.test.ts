// MCP servers and tools in the console (docs/mcp.md): /api/mcp/servers*, /api/mcp/tools; errors
// (409, 404, 502 for discover). The registry against real MCP servers — the npm package
// server-everything over streamable HTTP and over SSE, and a server of ours that demands bearer,
// header or query credentials and pages tools/list.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mcpServers } from '../../shared/src/db/schema';
import {
  GUARDED_TOOLS,
  type RunningMcpServer,
  startEverything,
  startGuardedServer,
} from '../fakes/mcp-servers';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { appEnv, freshDatabase } from '../helpers/stores';

let h: ConsoleHarness;
let adminToken: string;
let userToken: string;
const running: RunningMcpServer[] = [];
const SECRET = 'mcp-secret-5f4e3d2c1b';
const seen: string[] = [];

async function api(method: string, path: string, body?: unknown, token = adminToken) {
  const res = await h.call(method, path, { token, body });
  const text = await res.text();
  seen.push(text);
  // biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field.
  return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as any };
}

async function register(body: Record<string, unknown>) {
  const res = await api('POST', '/api/mcp/servers', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_console_mcp')));
  const admin = { email: 'mcp-admin@example.com', display_name: 'A', password: 'mcp-admin-password' };
  adminToken = (await api('POST', '/api/setup/initialize', { admin })).body.access_token;
  const user = { email: 'mcp-user@example.com', display_name: 'U', password: 'mcp-user-password' };
  await api('POST', '/api/auth/register', user);
  userToken = (await api('POST', '/api/auth/login', { email: user.email, password: user.password })).body
    .access_token;
}, 60_000);
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
  await h?.close();
});

describe('registering and discovering server-everything', () => {
  it.each([
    'streamableHttp',
    'sse',
  ] as const)('over %s: register, discover, list with tool_count', async (transport) => {
    const everything = await startEverything(transport);
    running.push(everything);
    const name = `everything-${transport.toLowerCase()}`;
    const created = await register({
      name,
      description: 'The reference server',
      endpoint_url: everything.url,
      transport_type: transport === 'sse' ? 'sse' : 'streamable_http',
    });
    expect(created).toMatchObject({ name, auth_type: 'none', auth_name: null, is_active: true });
    expect(created).not.toHaveProperty('tool_count');

    const found = await api('POST', `/api/mcp/servers/${created.id}/discover`);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.server_id).toBe(created.id);
    expect(found.body.tools_discovered).toBe(found.body.tools.length);
    const echo = found.body.tools.find((t: { name: string }) => t.name === 'echo');
    expect(echo).toMatchObject({ description: expect.any(String), input_schema: { type: 'object' } });

    const list = await api('GET', '/api/mcp/servers');
    expect(list.body.find((s: { id: string }) => s.id === created.id).tool_count).toBe(
      found.body.tools_discovered,
    );
    const one = await api('GET', `/api/mcp/servers/${created.id}`);
    expect(one.body).toMatchObject({ id: created.id, tool_count: found.body.tools_discovered });

    const tools = await api('GET', '/api/mcp/tools?limit=200', undefined, userToken);
    expect(tools.status).toBe(200);
    expect(tools.body.filter((t: { server_name: string }) => t.server_name === name)).toHaveLength(
      found.body.tools_discovered,
    );
  });
});

describe('credentials and paging', () => {
  it.each([
    { type: 'bearer' as const, secret: SECRET },
    { type: 'header' as const, name: 'X-Api-Key', secret: SECRET },
    { type: 'query' as const, name: 'token', secret: SECRET },
  ])('discovers every page of a server that demands $type auth', async (auth) => {
    const guarded = await startGuardedServer(auth);
    running.push(guarded);
    const created = await register({
      name: `guarded-${auth.type}`,
      endpoint_url: guarded.url,
      auth_type: auth.type,
      auth_name: 'name' in auth ? auth.name : null,
      auth_secret: auth.secret,
    });
    const found = await api('POST', `/api/mcp/servers/${created.id}/discover`);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.tools.map((t: { name: string }) => t.name)).toEqual(GUARDED_TOOLS);

    // A wrong secret: 502 with a clear message, and the tools found before stay.
    const patched = await api('PATCH', `/api/mcp/servers/${created.id}`, { auth_secret: 'wrong-secret' });
    expect(patched.status).toBe(200);
    const refused = await api('POST', `/api/mcp/servers/${created.id}/discover`);
    expect(refused.status).toBe(502);
    expect(refused.body.error).toMatchObject({
      type: 'upstream_error',
      message: expect.stringContaining(`guarded-${auth.type}`),
    });
    expect(guarded.refused).toBeGreaterThan(0);
    expect((await api('GET', `/api/mcp/servers/${created.id}`)).body.tool_count).toBe(GUARDED_TOOLS.length);
  });

  it('stores the secret sealed and never returns it', async () => {
    const [row] = await h.deps.db.select().from(mcpServers).where(eq(mcpServers.name, 'guarded-bearer'));
    expect(row?.authSecretEncrypted).toBeTruthy();
    expect(row?.authSecretEncrypted).not.toContain(SECRET);
    expect(seen.filter((text) => text.includes(SECRET) || text.includes('wrong-secret'))).toEqual([]);
  });
});

describe('errors', () => {
  it('409 for a taken name; 422 for bad URLs and inconsistent auth; 403 for non-admins', async () => {
    const url = 'http://127.0.0.1:9/mcp';
    await register({ name: 'taken', endpoint_url: url });
    expect((await api('POST', '/api/mcp/servers', { name: 'taken', endpoint_url: url })).status).toBe(409);
    for (const bad of [
      { name: 'x1', endpoint_url: 'ftp://example.com/mcp' },
      { name: 'x2', endpoint_url: url, auth_type: 'header', auth_secret: 's' },
      { name: 'x3', endpoint_url: url, auth_type: 'bearer' },
      { name: 'x4', endpoint_url: url, auth_secret: 's' },
      { name: 'x5', endpoint_url: url, transport_type: 'websocket' },
      { name: 'x6', endpoint_url: url, auth_type: 'bearer', auth_secret: 's', oauth_client_id: 'c' },
      { name: 'x7', endpoint_url: url, auth_type: 'oauth', oauth_client_secret: 's' },
      { name: 'Not A Slug', endpoint_url: url },
    ]) {
      const res = await api('POST', '/api/mcp/servers', bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.error.type).toBe('validation_error');
    }
    expect((await api('GET', '/api/mcp/servers', undefined, userToken)).status).toBe(403);
    expect((await api('POST', '/api/mcp/servers', { name: 'y', endpoint_url: url }, userToken)).status).toBe(
      403,
    );
    expect((await h.call('GET', '/api/mcp/tools')).status).toBe(401);
  });

  it('404 for unknown or malformed ids; 502 and nothing stored when a server cannot be reached', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await api('GET', `/api/mcp/servers/${id}`)).status).toBe(404);
      expect((await api('POST', `/api/mcp/servers/${id}/discover`)).status).toBe(404);
      expect((await api('DELETE', `/api/mcp/servers/${id}`)).status).toBe(404);
    }
    const dead = await register({ name: 'dead', endpoint_url: 'http://127.0.0.1:9/mcp' });
    const res = await api('POST', `/api/mcp/servers/${dead.id}/discover`);
    expect(res.status).toBe(502);
    expect(res.body.error.message).toContain('Cannot reach MCP server dead at http://127.0.0.1:9/mcp');
    expect((await api('GET', `/api/mcp/servers/${dead.id}`)).body.tool_count).toBe(0);
  });
});

describe('a server where each user signs in with a client registered beforehand', () => {
  it('keeps the client id visible and its secret sealed; PATCH keeps, replaces or drops them', async () => {
    const created = await api('POST', '/api/mcp/servers', {
      name: 'pre-registered',
      endpoint_url: 'http://127.0.0.1:9/mcp',
      auth_type: 'oauth',
      oauth_client_id: 'sluice-at-hub',
      oauth_client_secret: 'client-secret-value',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ oauth_client_id: 'sluice-at-hub', has_oauth_client_secret: true });
    expect(JSON.stringify(created.body)).not.toContain('client-secret-value');
    const sealed = async () =>
      (await h.deps.db.select().from(mcpServers).where(eq(mcpServers.id, created.body.id)))[0];
    const stored = (await sealed())?.oauthClientSecretEncrypted;
    expect(stored).toBeTruthy();
    expect(stored).not.toContain('client-secret-value');
    expect(await h.deps.secrets.decrypt(stored as string)).toBe('client-secret-value');

    const path = `/api/mcp/servers/${created.body.id}`;
    const described = await api('PATCH', path, { description: 'hub' });
    expect(described.body).toMatchObject({ oauth_client_id: 'sluice-at-hub', has_oauth_client_secret: true });
    const renamed = await api('PATCH', path, { oauth_client_id: 'another-client' });
    // Another client's id without its secret: the old secret was that client's, so it goes.
    expect(renamed.body).toMatchObject({ oauth_client_id: 'another-client', has_oauth_client_secret: false });
    const bearer = await api('PATCH', path, { auth_type: 'bearer', auth_secret: 'x' });
    expect(bearer.body).toMatchObject({ oauth_client_id: null, has_oauth_client_secret: false });
    expect((await sealed())?.oauthClientSecretEncrypted).toBeNull();
  });
});

describe('changing and deleting', () => {
  it('PATCH keeps the secret unless replaced, auth_type none drops it; DELETE removes the tools', async () => {
    const guarded = await startGuardedServer({ type: 'bearer', secret: SECRET });
    running.push(guarded);
    const created = await register({
      name: 'to-change',
      endpoint_url: guarded.url,
      auth_type: 'bearer',
      auth_secret: SECRET,
    });
    expect((await api('PATCH', `/api/mcp/servers/${created.id}`, { is_active: false })).body.is_active).toBe(
      false,
    );
    expect((await api('POST', `/api/mcp/servers/${created.id}/discover`)).status).toBe(200);
    expect((await api('PATCH', `/api/mcp/servers/${created.id}`, { auth_type: 'header' })).status).toBe(422);
    expect((await api('PATCH', `/api/mcp/servers/${created.id}`, { name: 'renamed' })).status).toBe(422);
    expect((await api('PATCH', `/api/mcp/servers/${created.id}`, {})).status).toBe(422);
    const none = await api('PATCH', `/api/mcp/servers/${created.id}`, { auth_type: 'none' });
    expect(none.body).toMatchObject({ auth_type: 'none', auth_name: null });
    const [row] = await h.deps.db.select().from(mcpServers).where(eq(mcpServers.id, created.id));
    expect(row?.authSecretEncrypted).toBeNull();

    expect((await api('DELETE', `/api/mcp/servers/${created.id}`)).status).toBe(204);
    expect((await api('GET', `/api/mcp/servers/${created.id}`)).status).toBe(404);
    const tools = await api('GET', '/api/mcp/tools?limit=200');
    expect(tools.body.filter((t: { server_id: string }) => t.server_id === created.id)).toEqual([]);
    const actions = (await h.deps.db.select().from(auditLog).where(eq(auditLog.resourceId, created.id))).map(
      (r) => r.action,
    );
    expect(actions.sort()).toEqual(
      [
        'mcp_server.create',
        'mcp_server.delete',
        'mcp_server.discover',
        'mcp_server.update',
        'mcp_server.update',
      ].sort(),
    );
  });
});
