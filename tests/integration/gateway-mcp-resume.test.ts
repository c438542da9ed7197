// SEP-1699 on the session path: a client that lists event streams first in Accept
// gets every answer as one, primed (an id, empty data, a retry field), each event with an id;
// a client whose stream ends before the answer resumes it with GET and Last-Event-ID, on
// another gateway instance, and gets the answer the call kept. A client that prefers JSON keeps
// getting JSON. server-everything behind two gateway instances.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMcpServer, startEverything } from '../fakes/mcp-servers';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
let second: GatewayHarness;
let everything: RunningMcpServer;
const SSE_FIRST = 'text/event-stream, application/json';

beforeAll(async () => {
  h = await proxyHarness('gateway_mcp_resume');
  second = gatewayHarness(h.gateway.env);
  everything = await startEverything('streamableHttp');
  const created = await h.admin('POST', '/api/mcp/servers', {
    name: 'everything',
    endpoint_url: everything.url,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await h.admin('POST', `/api/mcp/servers/${created.body.id}/discover`)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await everything?.close();
  await h?.close();
});

function request(
  gateway: GatewayHarness,
  init: { method: string; headers?: Record<string, string>; body?: unknown },
) {
  return gateway.app.request('/mcp', {
    method: init.method,
    headers: { authorization: `Bearer ${h.apiKey}`, 'content-type': 'application/json', ...init.headers },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
}

async function openSession(): Promise<string> {
  const init = await request(h.gateway, {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream' },
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    },
  });
  expect(init.status).toBe(200);
  return init.headers.get('mcp-session-id')!;
}

interface SseEvent {
  id?: string;
  retry?: string;
  data: string;
}

/** Reads events until `done` says so (or the stream ends), then lets the stream go. */
async function readEvents(response: Response, done: (events: SseEvent[]) => boolean): Promise<SseEvent[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = '';
  while (!done(events)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    buffer += value;
    let cut = buffer.indexOf('\n\n');
    while (cut >= 0) {
      const event: SseEvent = { data: '' };
      for (const line of buffer.slice(0, cut).split('\n')) {
        const [field, ...rest] = line.split(':');
        const text = rest.join(':').replace(/^ /, '');
        if (field === 'id') event.id = text;
        if (field === 'retry') event.retry = text;
        if (field === 'data') event.data += text;
      }
      events.push(event);
      buffer = buffer.slice(cut + 2);
      cut = buffer.indexOf('\n\n');
    }
  }
  await reader.cancel().catch(() => {});
  return events;
}

const answerOf = (events: SseEvent[], id: number) =>
  events
    .map((e) => (e.data ? JSON.parse(e.data) : null))
    .find((m) => m && m.id === id && ('result' in m || 'error' in m));

describe('event streams on the session path (SEP-1699)', () => {
  it('primes a stream for a client that lists event streams first; JSON for one that prefers JSON', async () => {
    const session = await openSession();
    const listed = await request(h.gateway, {
      method: 'POST',
      headers: { accept: SSE_FIRST, 'mcp-session-id': session },
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    });
    expect(listed.headers.get('content-type')).toBe('text/event-stream');
    const events = await readEvents(listed, (all) => answerOf(all, 2) !== undefined);
    expect(events[0]).toMatchObject({ data: '', retry: expect.stringMatching(/^\d+$/) });
    expect(events[0]?.id).toMatch(/^[0-9a-f-]{36}::0$/);
    expect(events.slice(1).every((e) => e.id?.startsWith(events[0]!.id!.split('::')[0]!))).toBe(true);
    expect(answerOf(events, 2).result.tools.length).toBeGreaterThan(0);

    const json = await request(h.gateway, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'mcp-session-id': session },
      body: { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    });
    expect(json.headers.get('content-type')).toBe('application/json');
  });

  it('resumes a stream the client lost, on the other instance, with the answer the call kept', async () => {
    const session = await openSession();
    const call = await request(h.gateway, {
      method: 'POST',
      headers: { accept: SSE_FIRST, 'mcp-session-id': session },
      body: {
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 2 } },
      },
    });
    // The client reads the priming event, then loses the connection.
    const [priming] = await readEvents(call, (all) => all.length >= 1);
    expect(priming?.id).toMatch(/::0$/);
    const resumed = await request(second, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': priming!.id! },
    });
    expect(resumed.status).toBe(200);
    const rest = await readEvents(resumed, (all) => answerOf(all, 4) !== undefined);
    expect(JSON.stringify(answerOf(rest, 4).result.content)).toContain('Long running operation completed');
    expect(rest.every((e) => e.id?.startsWith(priming!.id!.split('::')[0]!))).toBe(true);
  });
});
