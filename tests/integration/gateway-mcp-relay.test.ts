// Server-to-client relay: an upstream's sampling, elicitation and roots requests and
// its log messages, sent in the middle of a tools/call, reach the official SDK client through
// the gateway (on the call's own event stream), and the client's answers reach the upstream —
// also when the answer is POSTed to another gateway instance. Real Redis (the answer mailbox),
// real Postgres, a real SDK server upstream.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COUNTER_URI, MARKER_URI, RELAY_TOOLS, startRelayServer } from '../fakes/mcp-relay-server';
import type { RunningMcpServer } from '../fakes/mcp-servers';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
let second: GatewayHarness;
let relay: RunningMcpServer;

const through = (gateway: GatewayHarness) =>
  ((input: string | URL | Request, init?: RequestInit) =>
    gateway.app.request(input instanceof Request ? input : String(input), init)) as typeof fetch;

/** Client answers (a POST whose body has no method) go to the second gateway instance. */
function answersElsewhere(): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const isAnswer = typeof init?.body === 'string' && !('method' in (JSON.parse(init.body) as object));
    return through(isAnswer ? second : h.gateway)(input, init);
  }) as typeof fetch;
}

interface Relayed {
  client: Client;
  logs: string[];
  asked: string[];
  updated: string[];
}

async function connect(
  options: { path?: string; fetch?: typeof fetch; declineUser?: boolean; plain?: boolean } = {},
) {
  const transport = new StreamableHTTPClientTransport(
    new URL(`http://gateway.test${options.path ?? '/mcp'}`),
    {
      fetch: options.fetch ?? through(h.gateway),
      requestInit: { headers: { authorization: `Bearer ${h.apiKey}` } },
    },
  );
  // A plain client declares nothing it answers: only a log level makes its calls stream.
  const capabilities = options.plain ? {} : { sampling: {}, elicitation: {}, roots: { listChanged: true } };
  const client = new Client({ name: 'relay-test', version: '1.0.0' }, { capabilities });
  const relayed: Relayed = { client, logs: [], asked: [], updated: [] };
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    relayed.logs.push(String(notification.params.data));
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    relayed.updated.push(notification.params.uri);
  });
  if (options.plain) {
    await client.connect(transport);
    return relayed;
  }
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    relayed.asked.push(request.method);
    const first = request.params.messages[0]?.content as { text?: string };
    return {
      role: 'assistant',
      model: 'client-model',
      stopReason: 'endTurn',
      content: { type: 'text', text: `echo ${first.text}` },
    };
  });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    relayed.asked.push(request.method);
    if (options.declineUser) throw new McpError(ErrorCode.InvalidRequest, 'the user closed the dialog');
    return { action: 'accept', content: { name: 'Ada' } };
  });
  client.setRequestHandler(ListRootsRequestSchema, async (request) => {
    relayed.asked.push(request.method);
    return { roots: [{ uri: 'file:///work/project', name: 'project' }] };
  });
  await client.connect(transport);
  return relayed;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as Array<{ type: string; text: string }>)[0]?.text;

beforeAll(async () => {
  h = await proxyHarness('gateway_mcp_relay');
  second = gatewayHarness(h.gateway.env);
  relay = await startRelayServer();
  const created = await h.admin('POST', '/api/mcp/servers', { name: 'relay', endpoint_url: relay.url });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const found = await h.admin('POST', `/api/mcp/servers/${created.body.id}/discover`);
  expect(found.body.tools.map((t: { name: string }) => t.name).sort()).toEqual([...RELAY_TOOLS].sort());
}, 60_000);
afterAll(async () => {
  await relay?.close();
  await h?.close();
});

describe('server-to-client relay during tools/call', () => {
  it("relays a sampling request to the client and the client's answer back", async () => {
    const { client, asked } = await connect();
    const result = await client.callTool({ name: 'relay__ask-model', arguments: { prompt: 'hello' } });
    expect(textOf(result)).toBe('model said: echo hello');
    expect(asked).toEqual(['sampling/createMessage']);
    await client.close();
  });

  it('relays an elicitation and the roots list, on the per-server endpoint too', async () => {
    const { client, asked } = await connect({ path: '/mcp/relay' });
    expect(textOf(await client.callTool({ name: 'ask-user', arguments: {} }))).toBe(
      'user accept: {"name":"Ada"}',
    );
    expect(textOf(await client.callTool({ name: 'list-roots', arguments: {} }))).toBe(
      'roots: file:///work/project',
    );
    expect(asked).toEqual(['elicitation/create', 'roots/list']);
    await client.close();
  });

  it('takes the answer when the client POSTs it to another gateway instance', async () => {
    const { client } = await connect({ fetch: answersElsewhere() });
    const result = await client.callTool({ name: 'relay__ask-model', arguments: { prompt: 'across' } });
    expect(textOf(result)).toBe('model said: echo across');
    await client.close();
  });

  it("passes the client's refusal to the upstream as its JSON-RPC error", async () => {
    const { client } = await connect({ declineUser: true });
    const result = await client.callTool({ name: 'relay__ask-user', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('the user closed the dialog');
    await client.close();
  });

  it('passes the log messages of a call on to a client that set a log level', async () => {
    const { client, logs } = await connect({ plain: true });
    await client.callTool({ name: 'relay__log-three', arguments: {} });
    expect(logs).toEqual([]);
    await client.setLoggingLevel('info');
    const result = await client.callTool({ name: 'relay__log-three', arguments: {} });
    expect(textOf(result)).toBe('logged three');
    expect(logs).toEqual(['step 1', 'step 2', 'step 3']);
    await client.close();
  });
});

describe('resource subscriptions', () => {
  it("passes the server's updates on the session's GET stream until the client unsubscribes", async () => {
    // The GET stream on one instance, every POST on the other: the stream must hear a
    // subscription made elsewhere.
    const split = ((input: string | URL | Request, init?: RequestInit) =>
      through(init?.method === 'GET' ? h.gateway : second)(input, init)) as typeof fetch;
    const { client, updated } = await connect({ fetch: split });
    await client.subscribeResource({ uri: COUNTER_URI });
    // The stream picks the subscription up within a poll; each bump notifies once it listens.
    await vi.waitFor(
      async () => {
        await client.callTool({ name: 'relay__bump', arguments: {} });
        expect(updated).toContain(COUNTER_URI);
      },
      { timeout: 8_000, interval: 300 },
    );
    // The marker's updates travel the same stream after any counter update a bump sends: once
    // a bump made after the unsubscribe is marked, no counter update may follow the first marker.
    await client.subscribeResource({ uri: MARKER_URI });
    await client.unsubscribeResource({ uri: COUNTER_URI });
    const markers = () => updated.filter((uri) => uri === MARKER_URI).length;
    await vi.waitFor(
      async () => {
        await client.callTool({ name: 'relay__bump', arguments: {} });
        expect(markers()).toBeGreaterThan(0);
      },
      { timeout: 8_000, interval: 300 },
    );
    const marked = markers();
    await client.callTool({ name: 'relay__bump', arguments: {} });
    await vi.waitFor(() => expect(markers()).toBeGreaterThan(marked));
    expect(updated.slice(updated.indexOf(MARKER_URI))).not.toContain(COUNTER_URI);
    await client.close();
  });

  it('refuses a subscription without a URI (-32602), and forgets one it never made', async () => {
    const { client } = await connect();
    await expect(client.subscribeResource({ uri: '' })).rejects.toThrow(/params.uri is required/);
    expect(await client.unsubscribeResource({ uri: 'relay://never' })).toEqual({});
    await client.close();
  });
});
