// OpenTelemetry traces from a running stack, as a collector receives them: the OTLP receiver
// decodes what the apps send with the official OTLP definitions, in both encodings (npm start
// on the embedded stores sends protobuf, npm run serve on the real ones JSON). The span tree
// of a streamed chat through a fallback, of an MCP tool call and of a refused request; the
// client's traceparent continued through the gateway to the upstream; console request and
// database spans; and a collector that hangs changes no request's status.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GuardedCall, type RunningMcpServer, startGuardedServer } from '../fakes/mcp-servers';
import { type FakeUpstreams, startFakeUpstreams } from '../fakes/server';
import { CLICKHOUSE_URL, pgUrl, SERVE_REDIS_URL, withRedisDatabase } from '../helpers/env';
import { registerFakeProvider } from '../helpers/fake-providers';
import { FIRST_ADMIN } from '../helpers/first-run';
import { http } from '../helpers/http';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../helpers/otlp-receiver';
import { type AdminCall, adminApi, freshStackStores } from '../helpers/stack-seed';
import {
  NPM_START,
  type StackCommand,
  type StartedStack,
  startStackProcess,
  stopStackGroup,
} from '../setup/e2e-global';

const SERVE: StackCommand = { file: 'npm', args: ['run', '--silent', 'serve'], detached: true };
const DATABASE = 'sluice_tracing_e2e';
/** Longest an export may take; a request never waits for one. */
const EXPORT_TIMEOUT_MS = 3_000;

interface Mode {
  label: string;
  command: StackCommand;
  protocol: 'http/protobuf' | 'http/json';
  encoding: ReceivedSpan['encoding'];
  /** Real stores for `serve`; none (the embedded defaults) for `npm start`. */
  stores: () => Promise<Record<string, string>>;
}

const MODES: Mode[] = [
  {
    label: 'npm start (embedded stores)',
    command: { ...NPM_START, detached: true },
    protocol: 'http/protobuf',
    encoding: 'protobuf',
    stores: async () => ({}),
  },
  {
    label: 'npm run serve (Postgres, Redis, ClickHouse)',
    command: SERVE,
    protocol: 'http/json',
    encoding: 'json',
    stores: async () => {
      const redisUrl = withRedisDatabase(SERVE_REDIS_URL, 8);
      await freshStackStores(pgUrl(DATABASE), redisUrl);
      await fetch(`${CLICKHOUSE_URL}/?query=${encodeURIComponent(`DROP DATABASE IF EXISTS ${DATABASE}`)}`, {
        method: 'POST',
      });
      return {
        DATABASE_URL: pgUrl(DATABASE),
        REDIS_URL: redisUrl,
        CLICKHOUSE_URL,
        CLICKHOUSE_DATABASE: DATABASE,
      };
    },
  },
];

const newTraceId = () => crypto.randomUUID().replaceAll('-', '');
const newSpanId = () => crypto.randomUUID().replaceAll('-', '').slice(0, 16);

function childrenOf(spans: ReceivedSpan[], parent: ReceivedSpan): ReceivedSpan[] {
  return spans
    .filter((s) => s.parentSpanId === parent.spanId)
    .sort((a, b) => (a.startNs < b.startNs ? -1 : 1));
}

describe.each(MODES)('traces from $label', (mode) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-tracing-'));
  let receiver: OtlpReceiver;
  let fakes: FakeUpstreams;
  let mcpServer: RunningMcpServer & { calls: GuardedCall[] };
  let stack: StartedStack;
  let api: AdminCall;
  let key = '';
  let limitedKey = '';

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    fakes = await startFakeUpstreams();
    mcpServer = await startGuardedServer({ type: 'bearer', secret: 'traced-secret' });
    stack = await startStackProcess(
      {
        ...(await mode.stores()),
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: mode.protocol,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_EXPORTER_OTLP_TIMEOUT: String(EXPORT_TIMEOUT_MS),
        SLUICE_QUIET: '1',
      },
      dataDir,
      mode.command,
    );
    const init = await http('POST', `${stack.consoleUrl}/api/setup/initialize`, {
      body: { admin: FIRST_ADMIN },
    });
    api = adminApi(stack.consoleUrl, init.body.access_token as string);
    const openai = await registerFakeProvider(api, fakes, 'openai', 'traced-openai', 'Traced OpenAI');
    const created = await api('POST', '/api/admin/models', {
      name: 'traced-fallback',
      input_price_per_mtok: 1,
      output_price_per_mtok: 2,
      routes: [
        { provider_id: openai, upstream_model: 'dead-fail-503' },
        { provider_id: openai, upstream_model: 'test-model' },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const server = await api('POST', '/api/mcp/servers', {
      name: 'guarded',
      endpoint_url: mcpServer.url,
      auth_type: 'bearer',
      auth_secret: 'traced-secret',
    });
    expect(server.status, JSON.stringify(server.body)).toBe(201);
    expect((await api('POST', `/api/mcp/servers/${server.body.id}/discover`)).status).toBe(200);
    const traced = await api('POST', '/api/keys', { name: 'traced' });
    key = traced.body.key;
    // The key's owner in a team: the request span names it (sluice.teams).
    const owner = (await api('GET', `/api/admin/keys?q=traced`)).body[0].user_id;
    const team = await api('POST', '/api/admin/teams', { name: 'platform' });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    expect((await api('PUT', `/api/admin/teams/${team.body.id}/members`, { user_ids: [owner] })).status).toBe(
      200,
    );
    limitedKey = (await api('POST', '/api/keys', { name: 'one-a-minute', rate_limit_rpm: 1 })).body.key;
  }, 180_000);

  afterAll(async () => {
    await stopStackGroup(stack);
    await Promise.all([fakes?.close(), mcpServer?.close(), receiver?.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('continues the client trace through a streamed chat that falls back, and sends it upstream', async () => {
    const traceId = newTraceId();
    const clientSpan = newSpanId();
    const client = new OpenAI({ apiKey: key, baseURL: `${stack.gatewayUrl}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create(
      {
        model: 'traced-fallback',
        stream: true,
        max_tokens: 50,
        messages: [{ role: 'user', content: 'one two three' }],
      },
      { headers: { traceparent: `00-${traceId}-${clientSpan}-01`, tracestate: 'vendor=kept' } },
    );
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text.length).toBeGreaterThan(0);

    const spans = await receiver.waitForSpans((all) => {
      const mine = all.filter((s) => s.traceId === traceId);
      return mine.some((s) => s.name === 'sluice.log.write') && mine.some((s) => s.kind === 'SERVER');
    });
    const trace = spans.filter((s) => s.traceId === traceId);
    console.log(receiver.tree(traceId));
    const root = trace.find((s) => s.kind === 'SERVER')!;
    expect(root.encoding).toBe(mode.encoding);
    expect(root.parentSpanId).toBe(clientSpan);
    expect(root.traceState).toBe('vendor=kept');
    expect(root.resource['service.name']).toBe('sluice-gateway');
    expect(root.name).toBe('POST /v1/chat/completions');
    expect(root.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/chat/completions',
      'http.response.status_code': 200,
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'traced-fallback',
      'gen_ai.request.max_tokens': 50,
      'gen_ai.response.model': 'test-model',
      'gen_ai.provider.name': 'openai',
      'sluice.model': 'traced-fallback',
      'sluice.attempts': 2,
      'sluice.cache.hit': false,
      'sluice.teams': ['platform'],
    });
    expect(root.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    expect(root.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(root.attributes['gen_ai.response.time_to_first_chunk']).toBeGreaterThan(0);
    expect(root.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    expect(typeof root.attributes['sluice.key.id']).toBe('string');
    expect(typeof root.attributes['sluice.user.id']).toBe('string');

    const children = childrenOf(trace, root);
    expect(children.map((s) => s.name)).toEqual([
      'sluice.admission',
      'chat dead-fail-503',
      'chat test-model',
      'sluice.log.write',
    ]);
    const [, failed, answered] = children as [ReceivedSpan, ReceivedSpan, ReceivedSpan];
    expect(failed.kind).toBe('CLIENT');
    expect(failed.status.code).toBe('ERROR');
    expect(String(failed.attributes['sluice.fallback.reason'])).toMatch(/503/);
    expect(failed.attributes['sluice.attempt']).toBe(1);
    expect(answered.kind).toBe('CLIENT');
    expect(answered.status.code).toBe('UNSET');
    expect(answered.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'test-model',
      'sluice.attempt': 2,
      'gen_ai.usage.output_tokens': root.attributes['gen_ai.usage.output_tokens'],
      'gen_ai.response.finish_reasons': ['stop'],
    });
    // The answering attempt's span lasts until the stream's end, not only to its headers.
    expect(answered.endNs).toBeGreaterThanOrEqual(answered.startNs);

    // Each upstream call carried the trace, with its own attempt's span as the parent.
    const upstream = fakes.requests.filter((r) => r.headers.traceparent?.includes(traceId));
    const byModel = (model: string) =>
      upstream.find((r) => (r.body as { model?: string } | undefined)?.model === model);
    expect(byModel('dead-fail-503')?.headers.traceparent).toBe(`00-${traceId}-${failed.spanId}-01`);
    expect(byModel('test-model')?.headers.traceparent).toBe(`00-${traceId}-${answered.spanId}-01`);
    expect(byModel('test-model')?.headers.tracestate).toBe('vendor=kept');
  });

  it('traces an MCP tool call as the MCP conventions name it, to the upstream and its _meta', async () => {
    const traceId = newTraceId();
    const transport = new StreamableHTTPClientTransport(new URL(`${stack.gatewayUrl}/mcp/guarded`), {
      requestInit: {
        headers: { authorization: `Bearer ${key}`, traceparent: `00-${traceId}-${newSpanId()}-01` },
      },
    });
    const client = new Client({ name: 'traced', version: '1.0.0' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'alpha', arguments: { text: 'hi' } });
    expect(JSON.stringify(result.content)).toContain('alpha: hi');
    await client.close();

    const spans = await receiver.waitForSpans((all) =>
      all.some((s) => s.traceId === traceId && s.name === 'tools/call alpha' && s.kind === 'CLIENT'),
    );
    console.log(receiver.tree(traceId));
    const trace = spans.filter((s) => s.traceId === traceId);
    const server = trace.find((s) => s.kind === 'SERVER' && s.name === 'tools/call alpha')!;
    expect(server.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'alpha',
      'gen_ai.operation.name': 'execute_tool',
      'sluice.mcp.server': 'guarded',
      'http.response.status_code': 200,
    });
    expect(typeof server.attributes['mcp.session.id']).toBe('string');
    const call = childrenOf(trace, server).find((s) => s.kind === 'CLIENT')!;
    expect(call.name).toBe('tools/call alpha');
    expect(call.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'alpha' });
    const upstream = mcpServer.calls.find(
      (c) => c.method === 'tools/call' && c.traceparent?.includes(traceId),
    );
    expect(upstream?.traceparent).toBe(`00-${traceId}-${call.spanId}-01`);
    expect(upstream?.meta?.traceparent).toBe(`00-${traceId}-${call.spanId}-01`);
  });

  it('says which limit refused a request, on the request span and its admission', async () => {
    const client = new OpenAI({ apiKey: limitedKey, baseURL: `${stack.gatewayUrl}/v1`, maxRetries: 0 });
    const ask = (traceId: string) =>
      client.chat.completions
        .create(
          { model: 'traced-fallback', messages: [{ role: 'user', content: 'hi' }] },
          { headers: { traceparent: `00-${traceId}-${newSpanId()}-01` } },
        )
        .then(
          () => 200,
          (error: { status?: number }) => error.status,
        );
    expect(await ask(newTraceId())).toBe(200);
    const refusedTrace = newTraceId();
    expect(await ask(refusedTrace)).toBe(429);
    const spans = await receiver.waitForSpans((all) =>
      all.some((s) => s.traceId === refusedTrace && s.kind === 'SERVER'),
    );
    console.log(receiver.tree(refusedTrace));
    const trace = spans.filter((s) => s.traceId === refusedTrace);
    const root = trace.find((s) => s.kind === 'SERVER')!;
    expect(root.attributes['http.response.status_code']).toBe(429);
    expect(root.attributes['error.type']).toBe('rate_limit_error');
    const limit = String(root.attributes['sluice.limit']);
    expect(limit.length).toBeGreaterThan(0);
    const admission = childrenOf(trace, root).find((s) => s.name === 'sluice.admission')!;
    expect(admission.status.code).toBe('ERROR');
    expect(admission.attributes['sluice.limit']).toBe(limit);
    expect(childrenOf(trace, root).some((s) => s.kind === 'CLIENT')).toBe(false);
  });

  it("traces the console's requests with their database spans", async () => {
    const { email, password } = FIRST_ADMIN;
    const login = await http('POST', `${stack.consoleUrl}/api/auth/login`, { body: { email, password } });
    const traceId = newTraceId();
    const answer = await fetch(`${stack.consoleUrl}/api/keys`, {
      headers: {
        authorization: `Bearer ${login.body.access_token}`,
        traceparent: `00-${traceId}-${newSpanId()}-01`,
      },
    });
    expect(answer.status).toBe(200);
    const spans = await receiver.waitForSpans((all) =>
      all.some((s) => s.traceId === traceId && s.kind === 'SERVER'),
    );
    const trace = spans.filter((s) => s.traceId === traceId);
    const root = trace.find((s) => s.kind === 'SERVER')!;
    expect(root.resource['service.name']).toBe('sluice-console');
    expect(root.attributes).toMatchObject({ 'http.request.method': 'GET', 'http.response.status_code': 200 });
    const queries = childrenOf(trace, root).filter((s) => s.attributes['db.system.name'] === 'postgresql');
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.some((q) => q.attributes['db.operation.name'] === 'SELECT')).toBe(true);
    console.log(receiver.tree(traceId));
  });

  it('answers as before while the collector hangs: spans are dropped, never waited for', async () => {
    receiver.setMode('hang');
    try {
      const client = new OpenAI({ apiKey: key, baseURL: `${stack.gatewayUrl}/v1`, maxRetries: 0 });
      const took: number[] = [];
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        const answer = await client.chat.completions.create({
          model: 'traced-fallback',
          messages: [{ role: 'user', content: `hang ${i}` }],
        });
        took.push(performance.now() - started);
        expect(answer.choices[0]?.message.content?.length).toBeGreaterThan(0);
      }
      // A request that waited for an export would take the export timeout (EXPORT_TIMEOUT_MS).
      expect(Math.max(...took)).toBeLessThan(EXPORT_TIMEOUT_MS);
      // The exports that hung were given up and counted.
      await expect
        .poll(async () => await (await fetch(`${stack.gatewayUrl}/metrics`)).text(), { timeout: 20_000 })
        .toMatch(/sluice_otel_spans_dropped_total\{reason="export_failed"\} [1-9]/);
    } finally {
      receiver.setMode('ok');
    }
  });
});
