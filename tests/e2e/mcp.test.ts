// Issue 6's "Done means", over real HTTP against the stack as `npm start` runs it (the gateway in
// workerd): an admin registers server-everything and discovers its tools in the console; an MCP
// client configured with only the gateway URL and a Sluice key lists and calls them, and each call
// shows in /api/mcp/logs.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
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
