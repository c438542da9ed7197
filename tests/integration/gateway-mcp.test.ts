// The gateway's /mcp (docs/api.md, MCP): POST /mcp, DELETE /mcp, the MCP session states, and the
// errors for /mcp (400, 401, 404, 502). The official @modelcontextprotocol/sdk Client (streamable
// HTTP) with a Sluice key against the gateway, which fronts server-everything and a
// credential-checking server of ours: initialize, aggregated and namespaced lists, calls (with
// progress), resources, prompts, ping, DELETE, a closed session, and one session served by two
// gateway instances.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  GUARDED_TOOLS,
  type RunningMcpServer,
  startEverything,
  startGuardedServer,
} from '../fakes/mcp-servers';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { registerTestMcpServers } from '../helpers/mcp-test-servers';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
let second: GatewayHarness;
const running: RunningMcpServer[] = [];
/** Server ids of this run: ClickHouse keeps the call logs of earlier runs. */
const serverIds: Record<string, string> = {};

function fetchThrough(gateway: GatewayHarness): typeof fetch {
  return ((input: string | URL | Request, init?: RequestInit) =>
    gateway.app.request(input instanceof Request ? input : String(input), init)) as typeof fetch;
}

async function connect(
  options: { gateway?: GatewayHarness; sessionId?: string; apiKey?: string; path?: string } = {},
) {
  const transport = new StreamableHTTPClientTransport(
    new URL(`http://gateway.test${options.path ?? '/mcp'}`),
    {
      fetch: fetchThrough(options.gateway ?? h.gateway),
      requestInit: { headers: { authorization: `Bearer ${options.apiKey ?? h.apiKey}` } },
      sessionId: options.sessionId,
    },
  );
  const client = new Client({ name: 'sluice-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

async function raw(method: string, body?: unknown, headers: Record<string, string> = {}) {
  return h.gateway.app.request('/mcp', {
    method,
    headers: {
      authorization: `Bearer ${h.apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body),
  });
}

beforeAll(async () => {
  h = await proxyHarness('gateway_mcp');
  second = gatewayHarness(h.gateway.env);
  const servers = await registerTestMcpServers(h);
  running.push(...servers.running);
  Object.assign(serverIds, servers.ids);
}, 60_000);
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
  await h?.close();
});

describe('/mcp with the official SDK client', () => {
  it('initializes, lists namespaced tools in a stable order, and routes calls with credentials', async () => {
    const { client, transport } = await connect();
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()).toMatchObject({ name: 'sluice' });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('everything__echo');
    expect(names.filter((n) => n.startsWith('guarded__'))).toEqual(
      GUARDED_TOOLS.map((t) => `guarded__${t}`).sort(),
    );
    expect((await client.listTools()).tools).toEqual(tools);

    const echo = await client.callTool({
      name: 'everything__echo',
      arguments: { message: 'through sluice' },
    });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: through sluice' }]);
    const alpha = await client.callTool({ name: 'guarded__alpha', arguments: { text: 'x' } });
    expect(alpha.content).toEqual([{ type: 'text', text: 'alpha: x' }]);
    await client.ping();
    await client.close();
  });

  it('streams progress of a long-running tool', async () => {
    const { client } = await connect();
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 3 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(progress).toEqual([1, 2, 3]);
    expect(JSON.stringify(result.content)).toContain('Long running operation completed');
    await client.close();
  });

  it('aggregates resources and prompts, and reads a resource from its server', async () => {
    const { client } = await connect();
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const read = await client.readResource({ uri: resources[0]!.uri });
    expect(read.contents[0]?.uri).toBe(resources[0]!.uri);
    const { prompts } = await client.listPrompts();
    expect(prompts.length).toBeGreaterThan(0);
    expect(prompts.every((p) => p.name.startsWith('everything__'))).toBe(true);
    await client.close();
  });

  it('serves one server under its own names at /mcp/{server}, sessions kept apart from /mcp', async () => {
    const echoLogs = async () =>
      (await h.admin('GET', `/api/mcp/logs?server_id=${serverIds.everything}&tool_name=echo`)).body
        .total as number;
    const echoesBefore = await echoLogs();
    const { client, transport } = await connect({ path: '/mcp/everything' });
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('echo');
    expect(tools.some((t) => t.includes('__'))).toBe(false);
    const echoed = await client.callTool({ name: 'echo', arguments: { message: 'direct' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'Echo: direct' }]);
    const { prompts } = await client.listPrompts();
    expect(prompts.length).toBeGreaterThan(0);
    expect(prompts.some((p) => p.name.includes('__'))).toBe(false);
    const plain = prompts.find((p) => (p.arguments ?? []).length === 0);
    expect((await client.getPrompt({ name: String(plain?.name) })).messages.length).toBeGreaterThan(0);
    const { resources } = await client.listResources();
    expect((await client.readResource({ uri: String(resources[0]?.uri) })).contents.length).toBe(1);
    // A session opened here is unknown on /mcp, and the other way round.
    const elsewhere = await raw(
      'POST',
      { jsonrpc: '2.0', id: 9, method: 'ping' },
      {
        'mcp-session-id': String(transport.sessionId),
      },
    );
    expect(elsewhere.status).toBe(404);
    await client.close();
    // Logged like any routed call: the server's id and the tool's own name.
    await expect.poll(echoLogs, { timeout: 5000 }).toBe(echoesBefore + 1);
  });

  it('serves resource templates, templated reads, completions and logging/setLevel', async () => {
    for (const path of ['/mcp/everything', '/mcp']) {
      const { client } = await connect({ path });
      expect(client.getServerCapabilities()).toMatchObject({ completions: {}, logging: {} });
      const { resourceTemplates } = await client.listResourceTemplates();
      const template = resourceTemplates.find((t) => /\{[^}]+\}$/.test(t.uriTemplate));
      expect(template, path).toBeDefined();
      const uri = String(template?.uriTemplate).replace(/\{[^}]+\}$/, '1');
      const read = await client.readResource({ uri });
      expect(read.contents[0]?.uri).toBe(uri);
      const completion = await client.complete({
        ref: { type: 'ref/resource', uri: String(template?.uriTemplate) },
        argument: { name: String(/\{([^}]+)\}$/.exec(String(template?.uriTemplate))?.[1]), value: '' },
      });
      expect(Array.isArray(completion.completion.values)).toBe(true);
      expect(await client.setLoggingLevel('warning')).toEqual({});
      const badLevel = await client.setLoggingLevel('loud' as never).catch((e: unknown) => e);
      expect(String(badLevel)).toContain('params.level must be one of');
      await client.close();
    }
  });

  it('answers 404 for a server that is not registered and active', async () => {
    const res = await h.gateway.app.request('/mcp/nowhere', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${h.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25' },
      }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { message: 'No active MCP server named nowhere' },
    });
    const anonymous = await h.gateway.app.request('/mcp/everything', { method: 'POST', body: '{}' });
    expect(anonymous.status).toBe(401);
  });

  it('gets a prompt from its server by the published name, arguments passed on', async () => {
    const { client } = await connect();
    const { prompts } = await client.listPrompts();
    const withArgs = prompts.find((p) => (p.arguments ?? []).some((a) => a.required));
    const plain = prompts.find((p) => (p.arguments ?? []).length === 0);
    expect(plain && withArgs).toBeTruthy();
    const got = await client.getPrompt({ name: plain!.name });
    expect(got.messages.length).toBeGreaterThan(0);
    const args = Object.fromEntries((withArgs!.arguments ?? []).map((a) => [a.name, `value-of-${a.name}`]));
    const filled = await client.getPrompt({ name: withArgs!.name, arguments: args });
    expect(JSON.stringify(filled.messages)).toContain('value-of-');
    const unknown = await client.getPrompt({ name: 'everything__no-such-prompt' }).catch((e: unknown) => e);
    expect(String(unknown)).toMatch(/-32602|Invalid|not found/i);
    const bad = await client.getPrompt({ name: 'nowhere__x' }).catch((e: unknown) => e);
    expect(String(bad)).toContain('Unknown prompt: nowhere__x');
    await client.close();
  });

  it('serves one session from two gateway instances alternately', async () => {
    const first = await connect();
    const sessionId = first.transport.sessionId;
    const onSecond = await connect({ gateway: second, sessionId });
    const a = await first.client.callTool({ name: 'everything__echo', arguments: { message: 'a' } });
    const b = await onSecond.client.callTool({ name: 'everything__echo', arguments: { message: 'b' } });
    expect([a.content, b.content]).toEqual([
      [{ type: 'text', text: 'Echo: a' }],
      [{ type: 'text', text: 'Echo: b' }],
    ]);
    await first.client.close();
    await onSecond.client.close();
  });

  it('closes a session with DELETE; the closed session is then 404', async () => {
    const { client, transport } = await connect();
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    const after = await raw(
      'POST',
      { jsonrpc: '2.0', id: 9, method: 'ping' },
      { 'mcp-session-id': sessionId },
    );
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32001, message: 'Session not found' },
    });
    expect((await raw('DELETE', undefined, { 'mcp-session-id': sessionId })).status).toBe(404);
    await client.close();
  });
});

describe('sessions and the registry', () => {
  it('routes to a legacy SSE server too', async () => {
    const sse = await startEverything('sse');
    running.push(sse);
    const created = await h.admin('POST', '/api/mcp/servers', {
      name: 'legacy',
      endpoint_url: sse.url,
      transport_type: 'sse',
    });
    expect((await h.admin('POST', `/api/mcp/servers/${created.body.id}/discover`)).status).toBe(200);
    await h.gateway.readVersions();
    const { client } = await connect();
    const echo = await client.callTool({ name: 'legacy__echo', arguments: { message: 'over sse' } });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: over sse' }]);
    await client.close();
  });

  it('deleting a server terminates the sessions that used only it; others lose just its tools', async () => {
    const doomedServer = await startGuardedServer({ type: 'bearer', secret: 'doomed-secret' });
    running.push(doomedServer);
    const created = await h.admin('POST', '/api/mcp/servers', {
      name: 'doomed',
      endpoint_url: doomedServer.url,
      auth_type: 'bearer',
      auth_secret: 'doomed-secret',
    });
    await h.admin('POST', `/api/mcp/servers/${created.body.id}/discover`);
    await h.gateway.readVersions();
    const onlyDoomed = await connect();
    const both = await connect();
    await onlyDoomed.client.callTool({ name: 'doomed__alpha', arguments: { text: '1' } });
    await both.client.callTool({ name: 'doomed__alpha', arguments: { text: '2' } });
    await both.client.callTool({ name: 'everything__echo', arguments: { message: '3' } });

    expect((await h.admin('DELETE', `/api/mcp/servers/${created.body.id}`)).status).toBe(204);
    await h.gateway.readVersions();
    const ping = (sessionId: string | undefined) =>
      raw('POST', { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-session-id': sessionId ?? '' });
    expect((await ping(onlyDoomed.transport.sessionId)).status).toBe(404);
    expect((await ping(both.transport.sessionId)).status).toBe(200);
    const gone = await both.client.callTool({ name: 'doomed__alpha', arguments: {} }).catch((e: Error) => e);
    expect(String(gone)).toContain('Unknown tool: doomed__alpha');
    expect((await both.client.listTools()).tools.some((t) => t.name.startsWith('doomed__'))).toBe(false);
    await onlyDoomed.client.close();
    await both.client.close();
  });
});

describe('tool list changes', () => {
  it('are announced to a connected client on its stream (notifications/tools/list_changed)', async () => {
    const { client } = await connect();
    let announced = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      announced++;
    });
    // One server's own endpoint hears of its server's changes too.
    const { client: direct } = await connect({ path: '/mcp/guarded' });
    let announcedThere = 0;
    direct.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      announcedThere++;
    });
    const before = (await client.listTools()).tools.map((t) => t.name);
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const path = `/api/mcp/servers/${serverIds.guarded}`;
    try {
      // The client opens its stream after initializing: a change made before it listened is
      // not announced, so the server goes off and on until one is.
      for (let change = 0; change < 6 && (announced === 0 || announcedThere === 0); change++) {
        await h.admin('PATCH', path, { is_active: change % 2 === 1 });
        await vi
          .waitFor(() => expect(announced * announcedThere).toBeGreaterThan(0), { timeout: 4_000 })
          .catch(() => {});
      }
      expect(announced).toBeGreaterThan(0);
      expect(announcedThere).toBeGreaterThan(0);
    } finally {
      await h.admin('PATCH', path, { is_active: true });
    }
    await vi.waitFor(async () => {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(before);
    });
    await client.close();
    await direct.close();
  });
});

describe('the MCP call log', () => {
  it('holds every routed tools/call with user, key, server, tool, status, duration and error', async () => {
    const { client } = await connect();
    await client.callTool({ name: 'guarded__beta', arguments: { text: 'logged' } });
    const failed = await client
      .callTool({ name: 'everything__get-sum', arguments: { a: 'x' } })
      .catch((e) => e);
    expect(failed).toBeDefined();
    await client.close();
    const logs = async (query: string) => (await h.admin('GET', `/api/mcp/logs?${query}`)).body;
    const betaQuery = `server_id=${serverIds.guarded}&tool_name=beta`;
    await expect.poll(async () => (await logs(betaQuery)).total, { timeout: 5000 }).toBe(1);
    const [beta] = (await logs(betaQuery)).entries;
    expect(beta).toMatchObject({
      api_key_id: h.keyId,
      server_name: 'guarded',
      tool_name: 'beta',
      status: 'success',
      error: null,
    });
    expect(beta.user_id).toEqual(expect.any(String));
    expect(beta.duration_ms).toBeGreaterThanOrEqual(0);
    const sumQuery = `server_id=${serverIds.everything}&tool_name=get-sum&status=error`;
    await expect.poll(async () => (await logs(sumQuery)).total, { timeout: 5000 }).toBe(1);
    expect((await logs(sumQuery)).entries[0].error).toEqual(expect.any(String));
  });
});

describe('settings', () => {
  it('security.mcp_tool_access limits what a role lists and calls; admins keep everything', async () => {
    const email = 'mcp-member@example.com';
    const password = 'mcp-member-password';
    await h.admin('POST', '/api/admin/users', { email, display_name: 'M', password, role: 'user' });
    const login = await h.console.call('POST', '/api/auth/login', { body: { email, password } });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const keyRes = await h.console.call('POST', '/api/keys', { token, body: { name: 'member mcp' } });
    const { key } = (await keyRes.json()) as { key: string };
    const set = await h.admin('PATCH', '/api/admin/settings', {
      settings: { mcp_tool_access: { user: ['everything__echo', 'guarded__*'] } },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    await h.gateway.readVersions();
    try {
      const member = await connect({ apiKey: key });
      const names = (await member.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(['everything__echo', ...GUARDED_TOOLS.map((t) => `guarded__${t}`).sort()]);
      const refused = await member.client
        .callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } })
        .catch((e: Error) => e);
      expect(String(refused)).toContain('Tool not allowed: everything__get-sum');
      // The same rules, by the same names, on the server's own endpoint.
      const direct = await connect({ apiKey: key, path: '/mcp/everything' });
      expect((await direct.client.listTools()).tools.map((t) => t.name)).toEqual(['echo']);
      const refusedThere = await direct.client
        .callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } })
        .catch((e: Error) => e);
      expect(String(refusedThere)).toContain('Tool not allowed: get-sum');
      await direct.client.close();
      const admin = await connect();
      expect((await admin.client.listTools()).tools.map((t) => t.name)).toContain('everything__get-sum');
      await member.client.close();
      await admin.client.close();
    } finally {
      await h.admin('PATCH', '/api/admin/settings', { settings: { mcp_tool_access: {} } });
    }
  });

  it('general.mcp_tool_search: a search tool on /mcp, listed alone with the pinned tools; every tool still callable', async () => {
    const set = await h.admin('PATCH', '/api/admin/settings', {
      settings: { mcp_tool_search: 'only', mcp_pinned_tools: ['everything__echo'] },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    await h.gateway.readVersions();
    try {
      const { client } = await connect();
      const listed = (await client.listTools()).tools;
      expect(listed.map((t) => t.name)).toEqual(['sluice__search_tools', 'everything__echo']);
      const found = await client.callTool({
        name: 'sluice__search_tools',
        arguments: { query: 'add sum numbers' },
      });
      const tools = (found.structuredContent as { tools: Array<{ name: string; inputSchema: unknown }> })
        .tools;
      expect(tools[0]?.name).toBe('everything__get-sum');
      expect(tools[0]?.inputSchema).toMatchObject({ type: 'object' });
      // A tool found (not listed) is called by its name as ever.
      const sum = await client.callTool({ name: 'everything__get-sum', arguments: { a: 2, b: 3 } });
      expect(JSON.stringify(sum.content)).toContain('5');
      const bad = await client
        .callTool({ name: 'sluice__search_tools', arguments: {} })
        .catch((e: Error) => e);
      expect(String(bad)).toContain('arguments.query must be a non-empty string');
      // One server's own endpoint has no search tool: it lists that server's tools as they are.
      const direct = await connect({ path: '/mcp/everything' });
      expect((await direct.client.listTools()).tools.map((t) => t.name)).not.toContain(
        'sluice__search_tools',
      );
      await direct.client.close();
      await client.close();
    } finally {
      await h.admin('PATCH', '/api/admin/settings', {
        settings: { mcp_tool_search: 'off', mcp_pinned_tools: [] },
      });
    }
    // A server may not take the name the gateway's own tools are published under.
    const reserved = await h.admin('POST', '/api/mcp/servers', {
      name: 'sluice',
      endpoint_url: 'http://127.0.0.1:9/mcp',
    });
    expect(reserved.status).toBe(422);
  });

  it('security.inspect_tools refuses calls by tool glob and argument, logs and counts them', async () => {
    const set = await h.admin('PATCH', '/api/admin/settings', {
      settings: {
        inspect_tools: {
          deny: [
            { name: 'no-secrets-echoed', tool: 'everything__ech*', argument_regex: '(?i)password' },
            { name: 'no-sums', tool: '*__get-sum' },
          ],
        },
      },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    await h.gateway.readVersions();
    try {
      const { client } = await connect();
      const echoed = await client
        .callTool({ name: 'everything__echo', arguments: { message: 'my PASSWORD is hunter2' } })
        .catch((e: Error) => e);
      expect(String(echoed)).toContain('Tool call blocked by rule "no-secrets-echoed"');
      expect(String(echoed)).not.toContain('hunter2');
      expect((echoed as { code?: number }).code).toBe(-32001);
      const fine = await client.callTool({ name: 'everything__echo', arguments: { message: 'hello' } });
      expect(fine.content).toEqual([{ type: 'text', text: 'Echo: hello' }]);
      // The same names on the server's own endpoint.
      const direct = await connect({ path: '/mcp/everything' });
      const sum = await direct.client
        .callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } })
        .catch((e: Error) => e);
      expect(String(sum)).toContain('Tool call blocked by rule "no-sums"');
      await direct.client.close();
      await client.close();
      const query = `server_id=${serverIds.everything}&tool_name=echo&status=error`;
      const logged = async () => (await h.admin('GET', `/api/mcp/logs?${query}`)).body;
      await expect
        .poll(async () => (await logged()).entries.map((e: { error: string }) => e.error), { timeout: 5000 })
        .toContain('Tool call blocked by rule "no-secrets-echoed"');
      await expect
        .poll(async () => await (await h.gateway.app.request('/metrics')).text(), { timeout: 5000 })
        .toMatch(/sluice_guardrail_blocks_total\{guardrail="inspect_tools",rule="no-secrets-echoed"\} 1/);
      const invalid = await h.admin('PATCH', '/api/admin/settings', {
        settings: { inspect_tools: { deny: [{ name: 'bad', tool: '*', argument_regex: '([a-z]+)*' }] } },
      });
      expect(invalid.status).toBe(422);
      expect(invalid.body.error.details.map((d: { path: string }) => d.path)).toEqual([
        'settings.inspect_tools.deny.0.argument_regex',
      ]);
    } finally {
      await h.admin('PATCH', '/api/admin/settings', { settings: { inspect_tools: {} } });
    }
  });

  it('general.mcp_session_idle_seconds sets how long an idle session lives', async () => {
    await h.admin('PATCH', '/api/admin/settings', { settings: { mcp_session_idle_seconds: 120 } });
    await h.gateway.readVersions();
    const { client, transport } = await connect();
    const ttl = await h.gateway.deps.redis.pttl(`sluice:mcp:session:${transport.sessionId}`);
    expect(ttl).toBeGreaterThan(110_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
    await h.admin('PATCH', '/api/admin/settings', { settings: { mcp_session_idle_seconds: 1800 } });
    await client.close();
  });
});

describe('/mcp errors', () => {
  async function session(): Promise<string> {
    const init = await raw('POST', {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.status).toBe(200);
    expect(((await init.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(
      '2025-06-18',
    );
    return init.headers.get('mcp-session-id')!;
  }

  it('400 for malformed JSON and JSON-RPC; JSON-RPC errors for unknown methods and bad params', async () => {
    const id = await session();
    const headers = { 'mcp-session-id': id };
    const notJson = await raw('POST', '{"jsonrpc":', headers);
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const noMethod = await raw('POST', { jsonrpc: '2.0', id: 2 }, headers);
    expect(noMethod.status).toBe(400);
    expect(await noMethod.json()).toMatchObject({ id: 2, error: { code: -32600 } });
    expect((await raw('POST', [{ jsonrpc: '2.0', id: 3, method: 'ping' }], headers)).status).toBe(400);
    const unknown = await raw('POST', { jsonrpc: '2.0', id: 4, method: 'no/such' }, headers);
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toMatchObject({ id: 4, error: { code: -32601 } });
    const badTool = await raw(
      'POST',
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'nope__x' } },
      headers,
    );
    expect(await badTool.json()).toMatchObject({
      id: 5,
      error: { code: -32602, message: 'Unknown tool: nope__x' },
    });
    const notification = await raw('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    expect(notification.status).toBe(202);
  });

  it('400 without a session header, 404 for an unknown session, 401 without a key, 406 for a GET without event streams', async () => {
    expect((await raw('POST', { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(400);
    const unknown = await raw(
      'POST',
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { 'mcp-session-id': crypto.randomUUID() },
    );
    expect(unknown.status).toBe(404);
    const anonymous = await h.gateway.app.request('/mcp', { method: 'POST', body: '{}' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="sluice"');
    expect((await raw('GET')).status).toBe(400);
    expect((await raw('GET', undefined, { accept: 'application/json' })).status).toBe(406);
  });

  it('502 when the owning server cannot be reached', async () => {
    const dead = await h.admin('POST', '/api/mcp/servers', {
      name: 'dead',
      endpoint_url: 'http://127.0.0.1:9/mcp',
    });
    // Tools as if discovered earlier, while it was up.
    const { replaceMcpTools } = await import('../../shared/src/db/repos/mcp-repo');
    await replaceMcpTools(h.console.deps.db, dead.body.id, [
      { name: 'gone', description: null, inputSchema: {} },
    ]);
    await h.admin('PATCH', `/api/mcp/servers/${dead.body.id}`, { description: 'down' }); // bumps the catalog version
    await h.gateway.readVersions();
    const id = await session();
    const res = await raw(
      'POST',
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'dead__gone' } },
      {
        'mcp-session-id': id,
      },
    );
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({
      id: 7,
      error: { code: -32603, message: expect.stringContaining('dead') },
    });
  });
});
