// The MCP journey, over real HTTP against the stack as `npm start` runs it (the gateway in
// workerd): an admin registers server-everything and discovers its tools in the console; an MCP
// client configured with only the gateway URL and a Sluice key lists and calls them, and each call
// shows in /api/mcp/logs.

import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startMachineMcpServer } from '../fakes/mcp-machine-server';
import { type RunningMcpServer, startEverything } from '../fakes/mcp-servers';
import { FIRST_ADMIN } from '../helpers/first-run';
import { http } from '../helpers/http';

const { gatewayUrl, consoleUrl } = inject('stack');
let everything: RunningMcpServer;
let legacy: RunningMcpServer;
let sluiceKey: string;
let adminToken: string;
let serverId: string;

beforeAll(async () => {
  everything = await startEverything('streamableHttp');
  legacy = await startEverything('sse');
  const { email, password } = FIRST_ADMIN;
  const login = await http('POST', `${consoleUrl}/api/auth/login`, { body: { email, password } });
  const token = login.body.access_token as string;
  adminToken = token;
  const server = await http('POST', `${consoleUrl}/api/mcp/servers`, {
    token,
    body: { name: 'everything', endpoint_url: everything.url },
  });
  expect(server.status, JSON.stringify(server.body)).toBe(201);
  serverId = server.body.id;
  const found = await http('POST', `${consoleUrl}/api/mcp/servers/${server.body.id}/discover`, { token });
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  const sse = await http('POST', `${consoleUrl}/api/mcp/servers`, {
    token,
    body: { name: 'legacy', endpoint_url: legacy.url, transport_type: 'sse' },
  });
  expect(
    (await http('POST', `${consoleUrl}/api/mcp/servers/${sse.body.id}/discover`, { token })).status,
  ).toBe(200);
  sluiceKey = (await http('POST', `${consoleUrl}/api/keys`, { token, body: { name: 'mcp e2e' } })).body.key;
}, 60_000);
afterAll(async () => {
  await everything?.close();
  await legacy?.close();
});

describe('MCP through the running gateway (workerd)', () => {
  it('lists and calls server-everything’s tools, with progress, and closes the session', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${gatewayUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${sluiceKey}` } },
    });
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('everything__echo');
    const echo = await client.callTool({ name: 'everything__echo', arguments: { message: 'from workerd' } });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: from workerd' }]);
    const overSse = await client.callTool({
      name: 'legacy__echo',
      arguments: { message: 'sse from workerd' },
    });
    expect(overSse.content).toEqual([{ type: 'text', text: 'Echo: sse from workerd' }]);
    const progress: number[] = [];
    await client.callTool(
      { name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 2 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(progress).toEqual([1, 2]);
    await transport.terminateSession();
    await client.close();
    // Each call is in the MCP call log, as the console shows it.
    await expect
      .poll(
        async () =>
          (await http('GET', `${consoleUrl}/api/mcp/logs?server_id=${serverId}`, { token: adminToken })).body
            .total,
        { timeout: 10_000 },
      )
      .toBe(2);
    const logs = await http('GET', `${consoleUrl}/api/mcp/logs?server_id=${serverId}&tool_name=echo`, {
      token: adminToken,
    });
    expect(logs.body.entries[0]).toMatchObject({
      server_name: 'everything',
      tool_name: 'echo',
      status: 'success',
    });
  });
});

describe('a server Sluice signs in to as itself, called from workerd', () => {
  it('gets a new token in the gateway when the server refuses the one the console fetched', async () => {
    const upstream = await startMachineMcpServer({
      clients: { 'sluice-e2e': { secret: 'e2e-client-secret' } },
      tokenEndpointAuthMethods: ['client_secret_basic'],
      expiresIn: 600,
    });
    const token = adminToken;
    const server = await http('POST', `${consoleUrl}/api/mcp/servers`, {
      token,
      body: {
        name: 'internal',
        endpoint_url: upstream.url,
        auth_type: 'oauth_client_credentials',
        oauth_client_id: 'sluice-e2e',
        oauth_client_secret: 'e2e-client-secret',
      },
    });
    expect(server.status, JSON.stringify(server.body)).toBe(201);
    try {
      const found = await http('POST', `${consoleUrl}/api/mcp/servers/${server.body.id}/discover`, { token });
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      expect(upstream.tokenRequests).toHaveLength(1);
      // The console's token (shared through Redis) is refused from now on: the gateway asks again.
      const consoles = new Set(upstream.presented);
      upstream.revokeAll();
      const whoami = async () => {
        const transport = new StreamableHTTPClientTransport(new URL(`${gatewayUrl}/mcp/internal`), {
          requestInit: { headers: { authorization: `Bearer ${sluiceKey}` } },
        });
        const client = new Client({ name: 'e2e', version: '1.0.0' });
        await client.connect(transport);
        const result = await client.callTool({ name: 'whoami', arguments: {} });
        await client.close();
        return (result.content as Array<{ text: string }>)[0]?.text;
      };
      // The gateway sees the new server within its catalog's second.
      await expect.poll(() => whoami().catch(String), { timeout: 10_000 }).toBe('Called by sluice-e2e');
      expect(upstream.tokenRequests).toHaveLength(2);
      // Only the token the gateway got was taken after that.
      const gateways = new Set(upstream.presented.filter((t) => !consoles.has(t)));
      expect(gateways.size).toBe(1);
      expect(upstream.presented.slice(-1)).toEqual([...gateways]);
    } finally {
      await http('DELETE', `${consoleUrl}/api/mcp/servers/${server.body.id}`, { token });
      await upstream.close();
    }
  });
});

/** A raw POST /mcp with the Host and Origin a browser would send (fetch cannot set Host). */
function postMcp(headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(`${gatewayUrl}/mcp`);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: '/mcp',
        method: 'POST',
        // A connection of its own: a pooled one the gateway already closed would hang up.
        agent: false,
        headers: {
          authorization: `Bearer ${sluiceKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('DNS-rebinding protection on a loopback gateway', () => {
  it('refuses another site’s Host or Origin with 403, before authentication', async () => {
    const rebound = await postMcp({ host: 'evil.example.com', origin: 'http://evil.example.com' });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({
      error: { message: 'Host evil.example.com is not allowed for /mcp' },
    });
    const crossSite = await postMcp({ origin: 'https://evil.example.com' });
    expect(crossSite.status).toBe(403);
  });

  it('serves the loopback names, same-origin pages and clients that send no Origin', async () => {
    const own = new URL(gatewayUrl);
    const cases: Array<Record<string, string>> = [
      {},
      { origin: own.origin },
      { host: `localhost:${own.port}` },
    ];
    for (const headers of cases) {
      const res = await postMcp(headers);
      expect(res.status, JSON.stringify(headers)).not.toBe(403);
      expect(res.status, res.body).toBeLessThan(500);
    }
  });
});
