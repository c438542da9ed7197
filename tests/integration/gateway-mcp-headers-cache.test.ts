// The 2026-07-28 gateway features on /mcp: decisions from the Mcp-Method and Mcp-Name headers
// before the body is read (a refused request's body is never parsed), and upstream list results
// kept as their ttlMs and cacheScope say, shared by two gateway instances through Redis. The
// upstream is a stateless-only server (tests/fakes/mcp-stateless-server.ts) whose prompt list is
// public and whose resource list is private; clients are the official SDK (session-era, bridged)
// and the stateless wire by hand (the SDK 1.x has no client of the revision).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStatelessServer } from '../fakes/mcp-stateless-server';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

const VERSION = '2026-07-28';
/** How long the server's prompt and resource lists stay fresh. */
const LIST_TTL_MS = 3_000;
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
};
let h: ProxyHarness;
let second: GatewayHarness;
let upstream: Awaited<ReturnType<typeof startStatelessServer>>;
/** A key of a `user`, whose role may use modern__echo only. */
let memberKey = '';
let nextId = 1;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How many requests of `method` the upstream has had. */
const upstreamCalls = (method: string) => upstream.calls.filter((c) => c.method === method).length;

beforeAll(async () => {
  h = await proxyHarness('gateway_mcp_headers_cache');
  second = gatewayHarness(h.gateway.env);
  upstream = await startStatelessServer({ listTtlMs: LIST_TTL_MS });
  const created = await h.admin('POST', '/api/mcp/servers', { name: 'modern', endpoint_url: upstream.url });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await h.admin('POST', `/api/mcp/servers/${created.body.id}/discover`)).status).toBe(200);
  const email = 'cache-member@example.com';
  const password = 'cache-member-password';
  await h.admin('POST', '/api/admin/users', { email, display_name: 'M', password, role: 'user' });
  const login = await h.console.call('POST', '/api/auth/login', { body: { email, password } });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const key = await h.console.call('POST', '/api/keys', { token, body: { name: 'member' } });
  memberKey = ((await key.json()) as { key: string }).key;
  const access = await h.admin('PATCH', '/api/admin/settings', {
    settings: { mcp_tool_access: { user: ['modern__echo'] } },
  });
  expect(access.status, JSON.stringify(access.body)).toBe(200);
  await sleep(1_100); // the settings version is read once a second
}, 60_000);
afterAll(async () => {
  await upstream?.close();
  await h?.close();
});

interface Post {
  gateway?: GatewayHarness;
  key?: string;
  path?: string;
  headers?: Record<string, string>;
  /** The body as sent; by default a well-formed stateless request of `method`. */
  body?: BodyInit;
}

/** `headers` add to the request's or replace them; an empty value leaves one out. */
async function post(method: string, params: Record<string, unknown> = {}, options: Post = {}) {
  const headers = {
    authorization: `Bearer ${options.key ?? h.apiKey}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    ...options.headers,
  };
  const response = await (options.gateway ?? h.gateway).app.request(options.path ?? '/mcp', {
    method: 'POST',
    headers: Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== '')),
    body:
      options.body ??
      JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: META } }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC bodies, asserted field by field.
  return { status: response.status, body: (await response.json()) as any };
}

async function sdkClient(gateway: GatewayHarness, key: string) {
  const transport = new StreamableHTTPClientTransport(new URL('http://gateway.test/mcp'), {
    fetch: ((input: string | URL | Request, init?: RequestInit) =>
      gateway.app.request(input instanceof Request ? input : String(input), init)) as typeof fetch,
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: 'sluice-cache-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('decisions from Mcp-Method and Mcp-Name, before the body', () => {
  it('refuses a tool the role may not use without parsing the body: not JSON, or large, it is never read as JSON', async () => {
    const before = upstream.calls.length;
    const refusal = {
      status: 200,
      body: {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32602, message: 'Tool not allowed: modern__drop_table' },
      },
    };
    const forbidden = { key: memberKey, headers: { 'mcp-name': 'modern__drop_table' } };
    expect(await post('tools/call', {}, { ...forbidden, body: '{"jsonrpc": "2.0", "id": 1, "meth' })).toEqual(
      refusal,
    );
    const large = 'x'.repeat(5 * 1024 * 1024);
    const sized = { ...forbidden.headers, 'content-length': String(large.length) };
    expect(await post('tools/call', {}, { ...forbidden, headers: sized, body: large })).toEqual(refusal);
    // The same by the server's own name on its own endpoint.
    const own = await post(
      'tools/call',
      {},
      { ...forbidden, path: '/mcp/modern', headers: { 'mcp-name': 'drop_table' }, body: '{' },
    );
    expect(own.body.error).toEqual({ code: -32602, message: 'Tool not allowed: drop_table' });
    expect(upstream.calls.length).toBe(before);
  });

  it('refuses a stateless request without Mcp-Method (400, -32020), its body unread; a session-era one is read as ever', async () => {
    const before = upstream.calls.length;
    const missing = {
      status: 400,
      body: { jsonrpc: '2.0', id: null, error: { code: -32020, message: 'Missing Mcp-Method header' } },
    };
    const bare = { headers: { 'mcp-method': '' } };
    // A well-formed request the gateway would otherwise serve, on /mcp and on /mcp/{server} …
    expect(await post('tools/list', {}, bare)).toEqual(missing);
    expect(await post('tools/list', {}, { ...bare, path: '/mcp/modern' })).toEqual(missing);
    const echo = { name: 'modern__echo', arguments: { text: 'hi' } };
    expect(await post('tools/call', echo, { ...bare, key: memberKey })).toEqual(missing);
    // … and a body that is not JSON: refused the same, never parsed.
    expect(await post('tools/call', {}, { ...bare, body: '{' })).toEqual(missing);
    expect(upstream.calls.length).toBe(before);
    // Without the revision's version header (a session-era client) the body is read as ever:
    // that body is a parse error.
    const sessionEra = { headers: { 'mcp-method': '', 'mcp-protocol-version': '' }, body: '{' };
    expect(await post('tools/call', {}, sessionEra)).toMatchObject({
      status: 400,
      body: { error: { code: -32700 } },
    });
  });

  it('refuses a stateless tools/call without Mcp-Name (400, -32020), its body unread', async () => {
    const before = upstream.calls.length;
    const echo = { name: 'modern__echo', arguments: { text: 'hi' } };
    expect(await post('tools/call', echo, { key: memberKey })).toEqual({
      status: 400,
      body: { jsonrpc: '2.0', id: null, error: { code: -32020, message: 'Missing Mcp-Name header' } },
    });
    expect(upstream.calls.length).toBe(before);
  });

  it('refuses unknown tools and removed methods likewise; allows the rest, whose body must agree', async () => {
    const unknown = await post(
      'tools/call',
      {},
      { headers: { 'mcp-name': 'modern__nothing' }, body: 'nope' },
    );
    expect(unknown.body.error).toEqual({ code: -32602, message: 'Unknown tool: modern__nothing' });
    expect(await post('ping', {}, { body: 'nope' })).toMatchObject({
      status: 404,
      body: { id: null, error: { code: -32601, message: 'Method not found: ping' } },
    });
    // Allowed by its headers, the body is read: not JSON is a parse error …
    const allowed = { key: memberKey, headers: { 'mcp-name': 'modern__echo' } };
    expect(await post('tools/call', {}, { ...allowed, body: '{' })).toMatchObject({
      status: 400,
      body: { error: { code: -32700 } },
    });
    // … and a body that names another tool than the header is refused (400).
    const smuggled = await post('tools/call', { name: 'modern__drop_table', arguments: {} }, allowed);
    expect(smuggled).toMatchObject({ status: 400, body: { error: { code: -32020 } } });
    expect(smuggled.body.error.message).toMatch(/Mcp-Name header does not match/);
    const echoed = await post('tools/call', { name: 'modern__echo', arguments: { text: 'hi' } }, allowed);
    expect(echoed.body.result.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
  });
});

describe('upstream lists kept as their ttlMs and cacheScope say', () => {
  it('a public list is fetched once for two users on two gateway instances within its ttlMs, and again after it (official SDK)', async () => {
    const admin = await sdkClient(h.gateway, h.apiKey);
    const member = await sdkClient(second, memberKey);
    const before = upstreamCalls('prompts/list');
    expect((await admin.listPrompts()).prompts.map((p) => p.name)).toEqual(['modern__greeting']);
    expect((await member.listPrompts()).prompts.map((p) => p.name)).toEqual(['modern__greeting']);
    expect(upstreamCalls('prompts/list')).toBe(before + 1);
    // A list the server says not to keep (ttlMs 0) is asked for every time.
    const templates = upstreamCalls('resources/templates/list');
    await admin.listResourceTemplates();
    await member.listResourceTemplates();
    expect(upstreamCalls('resources/templates/list')).toBe(templates + 2);
    await sleep(LIST_TTL_MS + 100);
    expect((await member.listPrompts()).prompts).toHaveLength(1);
    expect(upstreamCalls('prompts/list')).toBe(before + 2);
    await admin.close();
    await member.close();
  });

  it('a private list is fetched per user; the answer says what is left of its ttlMs', async () => {
    const before = upstreamCalls('resources/list');
    const first = await post('resources/list', {}, { path: '/mcp/modern' });
    expect(first.body.result).toMatchObject({
      resources: [{ uri: 'memo://mine' }],
      ttlMs: LIST_TTL_MS,
      cacheScope: 'private',
    });
    const again = await post('resources/list', {}, { path: '/mcp/modern', gateway: second });
    expect(again.body.result.cacheScope).toBe('private');
    expect(again.body.result.ttlMs).toBeLessThanOrEqual(LIST_TTL_MS);
    expect(upstreamCalls('resources/list')).toBe(before + 1);
    await post('resources/list', {}, { path: '/mcp/modern', key: memberKey });
    expect(upstreamCalls('resources/list')).toBe(before + 2);
    await post('resources/list', {}, { path: '/mcp/modern', key: memberKey, gateway: second });
    expect(upstreamCalls('resources/list')).toBe(before + 2);
  });

  it('tools/list of a forwarding endpoint: kept once for everyone, shown per role, and so private', async () => {
    const before = upstreamCalls('tools/list');
    const admin = await post('tools/list', {}, { path: '/mcp/modern' });
    const member = await post('tools/list', {}, { path: '/mcp/modern', key: memberKey, gateway: second });
    expect(admin.body.result.tools.map((t: { name: string }) => t.name)).toEqual([
      'echo',
      'greet',
      'drop_table',
    ]);
    expect(member.body.result.tools.map((t: { name: string }) => t.name)).toEqual(['echo']);
    expect(member.body.result).toMatchObject({ cacheScope: 'private' });
    expect(upstreamCalls('tools/list')).toBeLessThanOrEqual(before + 1);
  });

  it('on /mcp the composed list is private, fresh as long as its least fresh part', async () => {
    const listed = await post('prompts/list');
    expect(listed.body.result).toMatchObject({
      prompts: [{ name: 'modern__greeting' }],
      cacheScope: 'private',
    });
    expect(listed.body.result.ttlMs).toBeGreaterThan(0);
    expect(listed.body.result.ttlMs).toBeLessThanOrEqual(LIST_TTL_MS);
    const templates = await post('resources/templates/list');
    expect(templates.body.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  });
});
