// Both protocol generations: requests of the stateless revision (2026-07-28: no
// initialize, no session; version and client capabilities in every request's `_meta` and the
// MCP-Protocol-Version header) on /mcp and /mcp/{server}, answered by either of two gateway
// instances. A session-era upstream (server-everything) is bridged; a stateless-only one is
// forwarded to as the client sent it, its input-required rounds and request state included,
// with the gateway's tool rules and call log still applied. Wire format by hand: the official
// SDK (1.x) has no client of this revision yet.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMcpServer, startEverything } from '../fakes/mcp-servers';
import { startStatelessServer } from '../fakes/mcp-stateless-server';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};
let h: ProxyHarness;
let second: GatewayHarness;
let stateless: Awaited<ReturnType<typeof startStatelessServer>>;
const running: RunningMcpServer[] = [];
let nextId = 1;
/** This run's server id: ClickHouse keeps the call logs of earlier runs. */
let modernId = '';

beforeAll(async () => {
  h = await proxyHarness('gateway_mcp_stateless');
  second = gatewayHarness(h.gateway.env);
  const everything = await startEverything('streamableHttp');
  stateless = await startStatelessServer();
  running.push(everything, stateless);
  const legacy = await h.admin('POST', '/api/mcp/servers', {
    name: 'everything',
    endpoint_url: everything.url,
  });
  expect(legacy.status, JSON.stringify(legacy.body)).toBe(201);
  expect((await h.admin('POST', `/api/mcp/servers/${legacy.body.id}/discover`)).status).toBe(200);
  const modern = await h.admin('POST', '/api/mcp/servers', { name: 'modern', endpoint_url: stateless.url });
  expect(modern.status, JSON.stringify(modern.body)).toBe(201);
  modernId = modern.body.id;
  // Discovery speaks the server's generation: stateless requests, no initialize.
  const found = await h.admin('POST', `/api/mcp/servers/${modern.body.id}/discover`);
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  expect(found.body.tools.map((t: { name: string }) => t.name)).toEqual(['echo', 'greet', 'drop_table']);
  const rules = await h.admin('PATCH', '/api/admin/settings', {
    settings: { inspect_tools: { deny: [{ name: 'no-drops', tool: 'modern__drop_*' }] } },
  });
  expect(rules.status, JSON.stringify(rules.body)).toBe(200);
}, 60_000);
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
  await h?.close();
});

interface Rpc {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC bodies, asserted field by field.
  body: any;
}

async function rpc(
  path: string,
  method: string,
  params: Record<string, unknown> = {},
  options: { gateway?: GatewayHarness; headers?: Record<string, string>; meta?: unknown } = {},
): Promise<Rpc> {
  const response = await (options.gateway ?? h.gateway).app.request(path, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${h.apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': method,
      // What the call names, as the revision has a client send it beside Mcp-Method.
      ...(typeof (params.name ?? params.uri) === 'string'
        ? { 'mcp-name': String(params.name ?? params.uri) }
        : {}),
      ...options.headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: { ...params, _meta: options.meta ?? META },
    }),
  });
  return { status: response.status, body: await response.json() };
}

describe('stateless requests: the revision’s envelope', () => {
  it('refuses a malformed one with HTTP 400 and the revision’s codes, naming the request id', async () => {
    const noHeader = await rpc('/mcp', 'tools/list', {}, { headers: { 'mcp-protocol-version': '' } });
    expect(noHeader.status).toBe(400);
    const mismatch = await rpc(
      '/mcp',
      'tools/list',
      {},
      { headers: { 'mcp-protocol-version': '2099-01-01' } },
    );
    expect(mismatch).toMatchObject({ status: 400, body: { error: { code: -32020 } } });
    const unknown = await rpc(
      '/mcp',
      'tools/list',
      {},
      {
        headers: { 'mcp-protocol-version': '2099-01-01' },
        meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
      },
    );
    expect(unknown).toMatchObject({
      status: 400,
      body: { error: { code: -32022, data: { supported: [VERSION], requested: '2099-01-01' } } },
    });
    expect(typeof unknown.body.id).toBe('number');
    const noCapabilities = await rpc(
      '/mcp',
      'tools/list',
      {},
      { meta: { 'io.modelcontextprotocol/protocolVersion': VERSION } },
    );
    expect(noCapabilities).toMatchObject({ status: 400, body: { error: { code: -32602 } } });
    expect(await rpc('/mcp', 'ping')).toMatchObject({ status: 404, body: { error: { code: -32601 } } });
  });
});

describe('/mcp: bridged to session-era servers, by either instance', () => {
  it('discovers the gateway, lists namespaced tools with caching hints, and calls one on the other instance', async () => {
    const discovered = await rpc('/mcp', 'server/discover');
    expect(discovered.body.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: [VERSION],
      capabilities: { tools: {} },
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'sluice' } },
    });
    const listed = await rpc('/mcp', 'tools/list');
    expect(listed.body.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect(listed.body.result.tools.map((t: { name: string }) => t.name)).toContain('everything__echo');
    const echo = await rpc(
      '/mcp',
      'tools/call',
      { name: 'everything__echo', arguments: { message: 'stateless' } },
      { gateway: second },
    );
    expect(echo.body.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Echo: stateless' }],
    });
    // No Mcp-Session-Id was handed out: nothing to keep between requests.
    expect(echo.status).toBe(200);
  });
});

describe('/mcp: a session-era server asks the stateless client something mid-call', () => {
  it('comes back as an input-required round; the answer, given to the other instance, finishes the call', async () => {
    const tool = { name: 'everything__trigger-elicitation-request', arguments: {} };
    const asked = await rpc('/mcp', 'tools/call', tool);
    expect(asked.body.result).toMatchObject({ resultType: 'input_required' });
    const inputs = Object.entries(asked.body.result.inputRequests) as Array<[string, { method: string }]>;
    expect(inputs.map(([, request]) => request.method)).toEqual(['elicitation/create']);
    const key = inputs[0]![0];
    const answered = await rpc(
      '/mcp',
      'tools/call',
      {
        ...tool,
        inputResponses: { [key]: { action: 'accept', content: { name: 'Ada Lovelace' } } },
        requestState: asked.body.result.requestState,
      },
      { gateway: second },
    );
    expect(answered.body.result.resultType).toBe('complete');
    expect(JSON.stringify(answered.body.result.content)).toContain('- Name: Ada Lovelace');
    const forged = await rpc('/mcp', 'tools/call', { ...tool, requestState: 'not-a-state' });
    expect(forged.body.error).toMatchObject({ code: -32602, message: 'Invalid requestState' });
  });
});

describe('/mcp/{server}: forwarded to a stateless server', () => {
  it('passes an input-required round through, its request state verified by the server, across instances', async () => {
    const listed = await rpc('/mcp/modern', 'tools/list');
    // The server's list is public, but what a caller sees of it depends on its role: private.
    expect(listed.body.result).toMatchObject({ resultType: 'complete', cacheScope: 'private' });
    expect(listed.body.result.ttlMs).toBeGreaterThan(0);
    expect(listed.body.result.ttlMs).toBeLessThanOrEqual(60_000);
    expect(listed.body.result.tools.map((t: { name: string }) => t.name)).toEqual([
      'echo',
      'greet',
      'drop_table',
    ]);
    const asked = await rpc('/mcp/modern', 'tools/call', { name: 'greet', arguments: {} });
    expect(asked.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { who: { method: 'elicitation/create' } },
    });
    const state = asked.body.result.requestState as string;
    const answered = await rpc(
      '/mcp/modern',
      'tools/call',
      {
        name: 'greet',
        arguments: {},
        inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } },
        requestState: state,
      },
      { gateway: second },
    );
    expect(answered.body.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'hello Ada' }],
    });
    const tampered = await rpc('/mcp/modern', 'tools/call', {
      name: 'greet',
      inputResponses: { who: { action: 'accept', content: { name: 'Eve' } } },
      requestState: `${state}x`,
    });
    expect(tampered.body.error).toMatchObject({ message: 'Invalid requestState' });
  });

  it('applies inspect_tools before the server sees the call, and logs calls', async () => {
    const before = stateless.calls.length;
    const blocked = await rpc('/mcp/modern', 'tools/call', {
      name: 'drop_table',
      arguments: { text: 'users' },
    });
    expect(blocked.body.error).toEqual({ code: -32001, message: 'Tool call blocked by rule "no-drops"' });
    expect(stateless.calls.slice(before).map((c) => c.method)).toEqual([]);
    expect(
      (await rpc('/mcp/modern', 'tools/call', { name: 'echo', arguments: { text: 'hi' } })).body.result,
    ).toMatchObject({
      content: [{ type: 'text', text: 'echo: hi' }],
    });
    await expect
      .poll(
        async () =>
          (await h.admin('GET', `/api/mcp/logs?server_id=${modernId}&tool_name=drop_table`)).body.entries
            ?.length ?? 0,
        { timeout: 10_000 },
      )
      .toBe(1);
    await expect
      .poll(
        async () =>
          (await h.admin('GET', `/api/mcp/logs?server_id=${modernId}&tool_name=echo`)).body.entries?.length ??
          0,
        {
          timeout: 10_000,
        },
      )
      .toBeGreaterThanOrEqual(1);
  });
});

describe('session-era clients (the official SDK) and a stateless-only server, bridged', () => {
  async function connect(path: string, gateway: GatewayHarness = h.gateway) {
    const transport = new StreamableHTTPClientTransport(new URL(`http://gateway.test${path}`), {
      fetch: ((input: string | URL | Request, init?: RequestInit) =>
        gateway.app.request(input instanceof Request ? input : String(input), init)) as typeof fetch,
      requestInit: { headers: { authorization: `Bearer ${h.apiKey}` } },
    });
    const client = new Client(
      { name: 'sluice-test', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    // The server's input-required round reaches this client as a session-era elicitation request.
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { name: 'Ada' },
    }));
    await client.connect(transport);
    return client;
  }

  it('lists and calls on /mcp/{server} and /mcp; an input-required round becomes an elicitation', async () => {
    const scoped = await connect('/mcp/modern');
    // The gateway's catalog is sorted by name (stable for prompt caches).
    expect((await scoped.listTools()).tools.map((t) => t.name)).toEqual(['drop_table', 'echo', 'greet']);
    expect((await scoped.callTool({ name: 'echo', arguments: { text: 'old client' } })).content).toEqual([
      { type: 'text', text: 'echo: old client' },
    ]);
    expect((await scoped.callTool({ name: 'greet', arguments: {} })).content).toEqual([
      { type: 'text', text: 'hello Ada' },
    ]);
    await scoped.close();
    const aggregate = await connect('/mcp', second);
    const names = (await aggregate.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['modern__echo', 'everything__echo']));
    expect((await aggregate.callTool({ name: 'modern__echo', arguments: { text: 'x' } })).content).toEqual([
      { type: 'text', text: 'echo: x' },
    ]);
    await aggregate.close();
    // It refuses initialize in both forms (the revision's probe, then the session-era one); each
    // connector (console discovery, two gateway instances) learns that once and sends stateless
    // requests from then on.
    expect(stateless.calls.filter((c) => c.method === 'initialize').length).toBeLessThanOrEqual(6);
  });
});
