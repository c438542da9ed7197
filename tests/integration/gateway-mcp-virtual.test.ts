// Virtual MCP servers (docs/mcp.md): /api/mcp/virtual-servers* in the console (admin only, 409 on
// a name clash with a registered or virtual server, 422 on a bad tool name, audit) and
// /mcp/{virtual} at the gateway: the official SDK client sees exactly the curated tools of two
// servers under their <server>__<tool> names, calls one on each, and nothing else; empty
// resource and prompt lists; security.mcp_tool_access by the same names.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../shared/src/db/schema';
import type { RunningMcpServer } from '../fakes/mcp-servers';
import { registerTestMcpServers } from '../helpers/mcp-test-servers';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
const running: RunningMcpServer[] = [];
let member: { token: string; key: string };

async function connect(path: string, apiKey = h.apiKey) {
  const transport = new StreamableHTTPClientTransport(new URL(`http://gateway.test${path}`), {
    fetch: ((input: string | URL | Request, init?: RequestInit) =>
      h.gateway.app.request(input instanceof Request ? input : String(input), init)) as typeof fetch,
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });
  const client = new Client({ name: 'sluice-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function asMember(method: string, path: string, body?: unknown) {
  const res = await h.console.call(method, path, { token: member.token, body });
  return { status: res.status };
}

beforeAll(async () => {
  h = await proxyHarness('gateway_mcp_virtual');
  running.push(...(await registerTestMcpServers(h)).running);
  const email = 'virtual-member@example.com';
  const password = 'virtual-member-password';
  await h.admin('POST', '/api/admin/users', { email, display_name: 'M', password, role: 'user' });
  const login = await h.console.call('POST', '/api/auth/login', { body: { email, password } });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const keyRes = await h.console.call('POST', '/api/keys', { token, body: { name: 'member mcp' } });
  member = { token, key: ((await keyRes.json()) as { key: string }).key };
}, 60_000);
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
  await h?.close();
});

const CURATED = ['everything__echo', 'guarded__alpha', 'later__tool'];

describe('the admin API', () => {
  it('creates, lists, gets, patches and deletes, audited', async () => {
    const created = await h.admin('POST', '/api/mcp/virtual-servers', {
      name: 'curated',
      description: 'Echo and alpha',
      tools: CURATED,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      name: 'curated',
      description: 'Echo and alpha',
      tools: CURATED,
      is_active: true,
    });
    const id = created.body.id as string;
    const list = await h.admin('GET', '/api/mcp/virtual-servers');
    expect(list.body.map((v: { name: string }) => v.name)).toEqual(['curated']);
    expect((await h.admin('GET', `/api/mcp/virtual-servers/${id}`)).body).toEqual(created.body);

    const patched = await h.admin('PATCH', `/api/mcp/virtual-servers/${id}`, { description: 'Curated' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ description: 'Curated', tools: CURATED });
    expect((await h.admin('PATCH', `/api/mcp/virtual-servers/${id}`, {})).status).toBe(422);
    expect((await h.admin('PATCH', `/api/mcp/virtual-servers/${id}`, { name: 'x' })).status).toBe(422);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await h.admin('PATCH', `/api/mcp/virtual-servers/${missing}`, { tools: ['a__b'] })).status).toBe(
      404,
    );
    expect((await h.admin('GET', `/api/mcp/virtual-servers/${missing}`)).status).toBe(404);

    const other = await h.admin('POST', '/api/mcp/virtual-servers', { name: 'short-lived', tools: ['a__b'] });
    expect(other.status).toBe(201);
    expect((await h.admin('DELETE', `/api/mcp/virtual-servers/${other.body.id}`)).status).toBe(204);
    expect((await h.admin('DELETE', `/api/mcp/virtual-servers/${other.body.id}`)).status).toBe(404);
    const actions = async (resourceId: string) =>
      (await h.console.deps.db.select().from(auditLog).where(eq(auditLog.resourceId, resourceId)))
        .map((r) => r.action)
        .sort();
    expect(await actions(id)).toEqual(['mcp_virtual_server.create', 'mcp_virtual_server.update']);
    expect(await actions(other.body.id)).toEqual(['mcp_virtual_server.create', 'mcp_virtual_server.delete']);
  });

  it('refuses a name a registered or virtual server has (409), either way round', async () => {
    for (const name of ['everything', 'curated']) {
      const clash = await h.admin('POST', '/api/mcp/virtual-servers', { name, tools: ['everything__echo'] });
      expect(clash.status, name).toBe(409);
    }
    const server = await h.admin('POST', '/api/mcp/servers', {
      name: 'curated',
      endpoint_url: 'http://127.0.0.1:9/mcp',
    });
    expect(server.status).toBe(409);
    expect(server.body.error.message).toContain('virtual server');
  });

  it('refuses bad tool lists and names (422)', async () => {
    for (const body of [
      { name: 'bad', tools: ['echo'] },
      { name: 'bad', tools: [] },
      { name: 'bad', tools: ['everything__echo', 'everything__echo'] },
      { name: 'bad', tools: Array.from({ length: 501 }, (_, i) => `s__t${i}`) },
      { name: 'Bad Name', tools: ['everything__echo'] },
      { name: 'sluice', tools: ['everything__echo'] },
    ]) {
      const res = await h.admin('POST', '/api/mcp/virtual-servers', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
    }
  });

  it('is for admins only (403)', async () => {
    expect((await asMember('GET', '/api/mcp/virtual-servers')).status).toBe(403);
    const body = { name: 'mine', tools: ['everything__echo'] };
    expect((await asMember('POST', '/api/mcp/virtual-servers', body)).status).toBe(403);
    const { body: list } = await h.admin('GET', '/api/mcp/virtual-servers');
    expect((await asMember('DELETE', `/api/mcp/virtual-servers/${list[0].id}`)).status).toBe(403);
  });
});

describe('/mcp/{virtual} at the gateway', () => {
  it('lists exactly the curated tools that exist, routes calls to their servers, nothing else', async () => {
    await h.gateway.readVersions();
    const client = await connect('/mcp/curated');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['everything__echo', 'guarded__alpha']);
    const echo = await client.callTool({ name: 'everything__echo', arguments: { message: 'curated' } });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: curated' }]);
    const alpha = await client.callTool({ name: 'guarded__alpha', arguments: { text: 'x' } });
    expect(alpha.content).toEqual([{ type: 'text', text: 'alpha: x' }]);
    const outside = await client
      .callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } })
      .catch((e: Error) => e);
    expect(String(outside)).toContain('Unknown tool: everything__get-sum');
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listPrompts()).prompts).toEqual([]);
    await client.close();
  });

  it('applies security.mcp_tool_access by the same <server>__<tool> names', async () => {
    const set = await h.admin('PATCH', '/api/admin/settings', {
      settings: { mcp_tool_access: { user: ['guarded__*'] } },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    await h.gateway.readVersions();
    try {
      const client = await connect('/mcp/curated', member.key);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['guarded__alpha']);
      const refused = await client
        .callTool({ name: 'everything__echo', arguments: { message: 'no' } })
        .catch((e: Error) => e);
      expect(String(refused)).toContain('Tool not allowed: everything__echo');
      await client.close();
    } finally {
      await h.admin('PATCH', '/api/admin/settings', { settings: { mcp_tool_access: {} } });
    }
  });

  it('follows changes: a new tool list is served, an inactive or deleted virtual server is 404', async () => {
    const { body: list } = await h.admin('GET', '/api/mcp/virtual-servers');
    const id = list.find((v: { name: string }) => v.name === 'curated').id as string;
    await h.admin('PATCH', `/api/mcp/virtual-servers/${id}`, { tools: ['guarded__beta'] });
    await h.gateway.readVersions();
    const client = await connect('/mcp/curated');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['guarded__beta']);
    await client.close();
    await h.admin('PATCH', `/api/mcp/virtual-servers/${id}`, { is_active: false });
    await h.gateway.readVersions();
    const gone = await connect('/mcp/curated').catch((e: Error) => e);
    expect(String(gone)).toContain('No active MCP server named curated');
    expect((await h.admin('DELETE', `/api/mcp/virtual-servers/${id}`)).status).toBe(204);
  });
});
