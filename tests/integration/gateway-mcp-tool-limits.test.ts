// Per-tool rate limits and call budgets (docs/mcp.md, Tool limits and budgets) at the gateway,
// with the official MCP SDK client: a rate refuses the (n+1)th call in its window and a budget
// the (n+1)th of its period, as JSON-RPC error -32029 naming the limit, the tool and when it
// frees; a limit on one tool leaves the others alone; /mcp, /mcp/{server}, a virtual server and
// the stateless revision all count on the same counters; two gateways sharing Redis admit
// exactly the limit between them; GET /v1/usage shows the counts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningMcpServer } from '../fakes/mcp-servers';
import { startStatelessServer } from '../fakes/mcp-stateless-server';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { registerTestMcpServers } from '../helpers/mcp-test-servers';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

const RATE_LIMITED = -32029;
let h: ProxyHarness;
let second: GatewayHarness;
const running: RunningMcpServer[] = [];
let members = 0;

/** Both gateways see the limits just set (they read the cache versions at most once a second). */
const readVersions = () => Promise.all([h.gateway.readVersions(), second.readVersions()]);

/** A fresh user with the `user` role and a key of their own: counters nobody else touches. */
async function member(): Promise<{ userId: string; keyId: string; key: string }> {
  const email = `tools${++members}@tool-limits.example`;
  const password = 'member-password-1';
  const created = await h.admin('POST', '/api/admin/users', {
    email,
    display_name: 'M',
    password,
    role: 'user',
  });
  expect(created.status).toBe(201);
  const login = await h.console.call('POST', '/api/auth/login', { body: { email, password } });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const res = await h.console.call('POST', '/api/keys', { token, body: { name: 'agent' } });
  const key = (await res.json()) as { id: string; key: string };
  return { userId: created.body.id, keyId: key.id, key: key.key };
}

async function limit(subject: string, id: string, body: Record<string, unknown>): Promise<void> {
  const res = await h.admin('POST', `/api/admin/limits/${subject}/${id}/tool-limits`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

async function connect(apiKey: string, path = '/mcp', gateway: GatewayHarness = h.gateway) {
  const transport = new StreamableHTTPClientTransport(new URL(`http://gateway.test${path}`), {
    fetch: ((input: string | URL | Request, init?: RequestInit) =>
      gateway.app.request(input instanceof Request ? input : String(input), init)) as typeof fetch,
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });
  const client = new Client({ name: 'sluice-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const call = (client: Client, name: string) =>
  client.callTool({ name, arguments: { text: 'hi', message: 'hi' } });

/** The refusal a call met: its JSON-RPC code, message and data. */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  const { code, message, data } = error as McpError;
  return {
    code,
    message,
    data: data as { limit: string; tool: string; retry_after_seconds: number; resets_at: string },
  };
}

async function usage(apiKey: string) {
  const res = await h.gateway.app.request('/v1/usage', { headers: { authorization: `Bearer ${apiKey}` } });
  expect(res.status).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: asserted field by field.
  return (await res.json()) as any;
}

beforeAll(async () => {
  h = await proxyHarness('gateway_mcp_tool_limits');
  second = gatewayHarness(h.gateway.env);
  running.push(...(await registerTestMcpServers(h)).running);
  const stateless = await startStatelessServer();
  running.push(stateless);
  const modern = await h.admin('POST', '/api/mcp/servers', { name: 'modern', endpoint_url: stateless.url });
  expect(modern.status).toBe(201);
  expect((await h.admin('POST', `/api/mcp/servers/${modern.body.id}/discover`)).status).toBe(200);
  const curated = await h.admin('POST', '/api/mcp/virtual-servers', {
    name: 'curated',
    tools: ['guarded__alpha', 'everything__echo'],
  });
  expect(curated.status).toBe(201);
}, 60_000);
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
  await h?.close();
});

describe('a rate', () => {
  it('refuses the (n+1)th call in its window, naming the limit, the tool and when it frees', async () => {
    const m = await member();
    await limit('api_key', m.keyId, { tool: 'guarded__alpha', kind: 'rate', window: '1m', limit: 2 });
    await readVersions();
    const client = await connect(m.key);
    for (let i = 0; i < 2; i++) {
      expect((await call(client, 'guarded__alpha')).content).toEqual([{ type: 'text', text: 'alpha: hi' }]);
    }
    const started = Date.now();
    const refused = await refusal(call(client, 'guarded__alpha'));
    expect(refused.code).toBe(RATE_LIMITED);
    expect(refused.message).toContain('Rate limited: key:tool_calls/1m:guarded__alpha on guarded__alpha');
    expect(refused.data.limit).toBe('key:tool_calls/1m:guarded__alpha');
    expect(refused.data.tool).toBe('guarded__alpha');
    expect(refused.data.retry_after_seconds).toBeGreaterThanOrEqual(50);
    expect(refused.data.retry_after_seconds).toBeLessThanOrEqual(61);
    const frees = Date.parse(refused.data.resets_at) - started;
    expect(frees).toBeGreaterThan(50_000);
    expect(frees).toBeLessThanOrEqual(61_000);

    // The other tools of the server, and of other servers, are left alone.
    expect((await call(client, 'guarded__beta')).content).toEqual([{ type: 'text', text: 'beta: hi' }]);
    expect((await call(client, 'everything__echo')).content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
    // /mcp/{server} and a virtual server count on the same limit, by the same <server>__<tool> name.
    const scoped = await connect(m.key, '/mcp/guarded');
    expect((await refusal(call(scoped, 'alpha'))).data.limit).toBe('key:tool_calls/1m:guarded__alpha');
    expect((await call(scoped, 'gamma')).isError).toBeFalsy();
    const curated = await connect(m.key, '/mcp/curated');
    expect((await refusal(call(curated, 'guarded__alpha'))).code).toBe(RATE_LIMITED);

    const report = await usage(m.key);
    expect(report.tool_limits).toEqual([
      {
        scope: 'key',
        tool: 'guarded__alpha',
        kind: 'rate',
        window: '1m',
        window_secs: 60,
        limit: 2,
        used: 2,
        resets_at: null,
        status: 'exhausted',
      },
    ]);
    // Tool limits are not the key's model limits: those are still its owner's.
    expect(report.scope).toBe('user');
  });

  it('a role’s `*` covers every routed call of its users together; refused calls count on nothing', async () => {
    const m = await member();
    const role = await h.admin('POST', '/api/admin/roles', { name: `tool-callers-${m.userId.slice(0, 8)}` });
    await limit('role', role.body.id, { tool: '*', kind: 'rate', window: '5m', limit: 3 });
    await limit('role', role.body.id, { tool: 'guarded__*', kind: 'rate', window: '1m', limit: 1 });
    expect(
      (await h.admin('PUT', `/api/admin/limits/user/${m.userId}/roles`, { role_ids: [role.body.id] })).status,
    ).toBe(200);
    await readVersions();
    const client = await connect(m.key);
    await call(client, 'guarded__alpha');
    // guarded__* is used up: refused, and so not counted on `*` either.
    expect((await refusal(call(client, 'guarded__gamma'))).data.limit).toBe('user:tool_calls/1m:guarded__*');
    await call(client, 'everything__echo');
    await call(client, 'everything__echo');
    const refused = await refusal(call(client, 'everything__echo'));
    expect(refused.data).toMatchObject({ limit: 'user:tool_calls/5m:*', tool: 'everything__echo' });
    const limits = (await usage(m.key)).tool_limits.map(
      (l: { tool: string; used: number; limit: number }) => [l.tool, l.used, l.limit],
    );
    // Both used up: least left first ties, so in either order.
    expect(limits).toHaveLength(2);
    expect(limits).toEqual(
      expect.arrayContaining([
        ['guarded__*', 1, 1],
        ['*', 3, 3],
      ]),
    );
  });
});

describe('a budget', () => {
  it('refuses the (n+1)th call of its period until the period ends (UTC)', async () => {
    const m = await member();
    await limit('user', m.userId, { tool: 'guarded__*', kind: 'budget', period: 'daily', limit: 3 });
    await readVersions();
    const client = await connect(m.key);
    await call(client, 'guarded__alpha');
    await call(client, 'guarded__beta');
    await call(await connect(m.key, '/mcp/curated'), 'guarded__alpha');
    const refused = await refusal(call(client, 'guarded__delta'));
    expect(refused.code).toBe(RATE_LIMITED);
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(refused.data).toMatchObject({
      limit: 'user:tool_budget/daily:guarded__*',
      tool: 'guarded__delta',
      resets_at: midnight.toISOString(),
    });
    expect(refused.message).toContain(`(at ${midnight.toISOString()})`);
    expect((await call(client, 'everything__echo')).content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
    expect((await usage(m.key)).tool_limits).toEqual([
      {
        scope: 'user',
        tool: 'guarded__*',
        kind: 'budget',
        window: 'daily',
        window_secs: null,
        limit: 3,
        used: 3,
        resets_at: midnight.toISOString(),
        status: 'exhausted',
      },
    ]);
  });
});

describe('the stateless revision', () => {
  const VERSION = '2026-07-28';
  let nextId = 1;
  async function statelessCall(path: string, apiKey: string, name: string) {
    const res = await h.gateway.app.request(path, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': VERSION,
        'mcp-method': 'tools/call',
        'mcp-name': name,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: nextId++,
        method: 'tools/call',
        params: {
          name,
          arguments: { text: 'hi', message: 'hi' },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': VERSION,
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC bodies, asserted field by field.
    return { status: res.status, body: (await res.json()) as any };
  }

  it('counts a call forwarded to a stateless server and one bridged on /mcp alike', async () => {
    const m = await member();
    await limit('api_key', m.keyId, { tool: 'modern__echo', kind: 'rate', window: '1h', limit: 1 });
    await limit('api_key', m.keyId, {
      tool: 'everything__echo',
      kind: 'budget',
      period: 'monthly',
      limit: 1,
    });
    await readVersions();
    expect((await statelessCall('/mcp/modern', m.key, 'echo')).body.result).toBeDefined();
    const forwarded = await statelessCall('/mcp/modern', m.key, 'echo');
    expect(forwarded.status).toBe(200);
    expect(forwarded.body.error).toMatchObject({
      code: RATE_LIMITED,
      data: { limit: 'key:tool_calls/1h:modern__echo', tool: 'modern__echo' },
    });
    expect((await statelessCall('/mcp', m.key, 'everything__echo')).body.result).toBeDefined();
    const bridged = await statelessCall('/mcp', m.key, 'everything__echo');
    expect(bridged.body.error).toMatchObject({
      code: RATE_LIMITED,
      data: { limit: 'key:tool_budget/monthly:everything__echo' },
    });
  });
});

describe('two gateways sharing Redis', () => {
  it('admit exactly the limit between them, however the calls interleave', async () => {
    const m = await member();
    await limit('api_key', m.keyId, { tool: 'everything__echo', kind: 'rate', window: '1h', limit: 5 });
    await readVersions();
    const clients = await Promise.all([
      connect(m.key, '/mcp', h.gateway),
      connect(m.key, '/mcp', second),
      connect(m.key, '/mcp', h.gateway),
      connect(m.key, '/mcp', second),
    ]);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => call(clients[i % clients.length]!, 'everything__echo')),
    );
    const admitted = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    expect(admitted).toHaveLength(5);
    expect(refused).toHaveLength(7);
    for (const reason of refused) expect((reason as McpError).code).toBe(RATE_LIMITED);
    expect((await usage(m.key)).tool_limits[0]).toMatchObject({ used: 5, limit: 5 });
  });
});
