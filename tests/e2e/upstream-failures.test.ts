// An upstream that fails after its answer started, against `npm run serve` on real stores:
// the connection reset mid-stream (and mid-body), the vendor's own error event, garbage
// instead of an event, a stream without usage, one event larger than the limit. The official
// SDKs must see an error (never a cleanly ended answer), keep-alive connections must stay
// usable, and the request log must say what happened.

import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeUpstreams, startFakeUpstreams } from '../fakes/server';
import { CLICKHOUSE_URL, pgUrl, SERVE_REDIS_URL, withRedisDatabase } from '../helpers/env';
import { registerFakeProvider } from '../helpers/fake-providers';
import { FIRST_ADMIN } from '../helpers/first-run';
import { http } from '../helpers/http';
import { type AdminCall, adminApi, freshStackStores } from '../helpers/stack-seed';
import { type StackCommand, type StartedStack, startStackProcess, stopStackGroup } from '../setup/e2e-global';

const SERVE: StackCommand = { file: 'npm', args: ['run', '--silent', 'serve'], detached: true };
const DATABASE = 'sluice_upstream_failures_e2e';
const REDIS_URL = withRedisDatabase(SERVE_REDIS_URL, 7);
/** SLUICE_MAX_STREAM_EVENT_BYTES for this stack: 1 MiB, so the cap is met by a 2 MiB event. */
const EVENT_LIMIT = 1024 * 1024;
const dataDir = mkdtempSync(join(tmpdir(), 'sluice-upfail-'));
let stack: StartedStack;
let fakes: FakeUpstreams;
let api: AdminCall;
let key = '';

/**
 * Per scenario, three ways through the gateway: the upstream's own name on an openai route
 * (passed through untouched), an alias on it (renamed as it passes), and an alias on an
 * anthropic route (translated for chat and responses clients, renamed for messages clients).
 */
const SCENARIOS = ['cut-stream', 'stream-error', 'garbage-stream', 'no-usage', 'huge-2048k', 'huge-256k'];
const ways = (scenario: string) => [`${scenario}`, `oai-${scenario}`, `anth-${scenario}`];

beforeAll(async () => {
  await freshStackStores(pgUrl(DATABASE), REDIS_URL);
  fakes = await startFakeUpstreams();
  await fetch(`${CLICKHOUSE_URL}/?query=${encodeURIComponent(`DROP DATABASE IF EXISTS ${DATABASE}`)}`, {
    method: 'POST',
  });
  stack = await startStackProcess(
    {
      DATABASE_URL: pgUrl(DATABASE),
      REDIS_URL,
      CLICKHOUSE_URL,
      CLICKHOUSE_DATABASE: DATABASE,
      SLUICE_MAX_STREAM_EVENT_BYTES: String(EVENT_LIMIT),
      SLUICE_QUIET: '1',
    },
    dataDir,
    SERVE,
  );
  const init = await http('POST', `${stack.consoleUrl}/api/setup/initialize`, {
    body: { admin: FIRST_ADMIN },
  });
  api = adminApi(stack.consoleUrl, init.body.access_token as string);
  const openai = await registerFakeProvider(api, fakes, 'openai', 'flaky-openai', 'Flaky OpenAI');
  const anthropic = await registerFakeProvider(api, fakes, 'anthropic', 'flaky-anthropic', 'Flaky Anthropic');
  const models: Array<[string, string, string]> = [
    ['healthy', openai, 'test-model'],
    ['dead', openai, 'dead-fail-503'],
  ];
  for (const scenario of SCENARIOS) {
    const [same, oai, anth] = ways(scenario);
    models.push([same!, openai, scenario], [oai!, openai, scenario], [anth!, anthropic, scenario]);
  }
  for (const [name, provider, upstream] of models) {
    const created = await api('POST', '/api/admin/models', {
      name,
      input_price_per_mtok: 1,
      output_price_per_mtok: 2,
      routes: [{ provider_id: provider, upstream_model: upstream }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
  key = (await api('POST', '/api/keys', { name: 'flaky' })).body.key;
}, 180_000);

afterAll(async () => {
  await stopStackGroup(stack);
  await fakes?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const openai = () => new OpenAI({ apiKey: key, baseURL: `${stack.gatewayUrl}/v1`, maxRetries: 0 });
const anthropic = () => new Anthropic({ apiKey: key, baseURL: stack.gatewayUrl, maxRetries: 0 });
const PROMPT = 'one two three four five six';

/** What each official SDK makes of a streamed answer: its text, or the error it raised. */
async function viaSdk(endpoint: string, model: string): Promise<{ text: string; error: string | null }> {
  let text = '';
  try {
    if (endpoint === 'chat') {
      const stream = await openai().chat.completions.create({
        model,
        stream: true,
        messages: [{ role: 'user', content: PROMPT }],
      });
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    } else if (endpoint === 'messages') {
      const stream = anthropic().messages.stream({
        model,
        max_tokens: 64,
        messages: [{ role: 'user', content: PROMPT }],
      });
      for await (const event of stream) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta')
          text += event.delta.text;
      }
      await stream.finalMessage();
    } else {
      const stream = openai().responses.stream({ model, input: PROMPT });
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta') text += event.delta;
      }
      const final = await stream.finalResponse();
      if (final.status !== 'completed') return { text, error: `response ${final.status}` };
    }
    return { text, error: null };
  } catch (error) {
    return { text, error: error instanceof Error ? error.message : String(error) };
  }
}

interface Row {
  model: string;
  endpoint: string;
  status_code: number;
  error_type: string | null;
  error_message: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  usage_estimated: boolean;
  client_aborted: boolean;
}

/**
 * The request-log rows of `model` (written after the answers), once `count` are in, or those
 * there are after 15 s.
 */
async function rowsOf(model: string, count: number): Promise<Row[]> {
  let rows: Row[] = [];
  await vi
    .waitFor(
      async () => {
        const answer = await api('GET', `/api/gateway/logs?model=${encodeURIComponent(model)}&limit=50`);
        rows = (answer.body.entries ?? []) as Row[];
        if (rows.length < count) throw new Error(`${rows.length} of ${count} request-log rows of ${model}`);
      },
      { timeout: 15_000, interval: 300 },
    )
    .catch(() => undefined);
  return rows;
}

const ENDPOINTS = ['chat', 'messages', 'responses'] as const;
const PATHS = { chat: '/v1/chat/completions', messages: '/v1/messages', responses: '/v1/responses' };

describe('an upstream that breaks off, or reports its own error, part way through a stream', () => {
  for (const scenario of ['cut-stream', 'stream-error']) {
    for (const model of ways(scenario)) {
      it(`${model}: every SDK raises an error, and the log says 502 upstream_error`, async () => {
        for (const endpoint of ENDPOINTS) {
          const seen = await viaSdk(endpoint, model);
          expect(
            seen.error,
            `${endpoint}: ended as a whole answer: ${JSON.stringify(seen.text)}`,
          ).not.toBeNull();
        }
        const rows = await rowsOf(model, 3);
        expect(rows.map((r) => r.endpoint).sort()).toEqual(Object.values(PATHS).sort());
        for (const row of rows) {
          expect(row, JSON.stringify(row)).toMatchObject({
            status_code: 502,
            error_type: 'upstream_error',
            client_aborted: false,
          });
          // Tokens so far: the vendor's count when it sent one, else the gateway's estimate.
          expect(row.prompt_tokens, JSON.stringify(row)).toBeGreaterThan(0);
          if (scenario === 'stream-error')
            expect(row.error_message).toMatch(/overloaded|server had an error/i);
        }
      });
    }
  }
});

/** The endpoint speaks the route's own format: the stream is passed through, not translated. */
const passedThrough = (model: string, endpoint: (typeof ENDPOINTS)[number]) =>
  model.startsWith('anth-') ? endpoint === 'messages' : endpoint !== 'messages';

describe('garbage instead of an event, part way through a stream', () => {
  for (const model of ways('garbage-stream')) {
    it(`${model}: translated, an error; passed through, as it came with the vendor's usage`, async () => {
      for (const endpoint of ENDPOINTS) {
        const seen = await viaSdk(endpoint, model);
        if (!passedThrough(model, endpoint)) expect(seen.error, endpoint).not.toBeNull();
      }
      const rows = await rowsOf(model, 3);
      for (const row of rows) {
        const endpoint = ENDPOINTS.find((e) => PATHS[e] === row.endpoint)!;
        if (passedThrough(model, endpoint)) {
          // The client got the bytes as the upstream sent them: it read them all (200, the
          // vendor's usage read past the garbage), or its SDK gave up on the garbage (499).
          expect([200, 499], JSON.stringify(row)).toContain(row.status_code);
          expect(row.error_type, JSON.stringify(row)).toBeNull();
        } else {
          expect(row, JSON.stringify(row)).toMatchObject({ status_code: 502, error_type: 'upstream_error' });
        }
        expect(row.prompt_tokens, JSON.stringify(row)).toBeGreaterThan(0);
      }
    });
  }
});

describe('a whole (non-streamed) answer whose connection breaks off', () => {
  it('is a 502 in the client’s format, logged', async () => {
    for (const model of ways('cut-stream')) {
      const error = await openai()
        .chat.completions.create({ model, messages: [{ role: 'user', content: PROMPT }] })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
      const message = await anthropic()
        .messages.create({ model, max_tokens: 64, messages: [{ role: 'user', content: PROMPT }] })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect((message as InstanceType<typeof Anthropic.APIError>).status).toBe(502);
      const rows = (await rowsOf(model, 5)).filter(
        (r) => r.status_code === 502 && !r.error_message?.includes('incomplete'),
      );
      expect(rows.length, JSON.stringify(rows)).toBeGreaterThanOrEqual(2);
    }
  });
});

describe('a stream that reports no usage', () => {
  it('is logged 200 with the gateway’s estimate, marked, and charged against the key’s usage', async () => {
    const before = (await http('GET', `${stack.gatewayUrl}/v1/usage`, { token: key })).body.usage
      .tokens_today;
    const seen = await viaSdk('chat', 'no-usage');
    expect(seen.error).toBeNull();
    expect(seen.text).toBe(`echo: ${PROMPT}`);
    const [row] = await rowsOf('no-usage', 1);
    expect(row).toMatchObject({ status_code: 200, usage_estimated: true, error_type: null });
    expect(row!.prompt_tokens).toBeGreaterThan(0);
    expect(row!.completion_tokens).toBeGreaterThan(0);
    // Counted after the response (write-behind): the estimate reaches the key's counter.
    await expect
      .poll(
        async () =>
          (await http('GET', `${stack.gatewayUrl}/v1/usage`, { token: key })).body.usage.tokens_today -
          before,
        { timeout: 10_000, interval: 100 },
      )
      .toBeGreaterThanOrEqual(row!.prompt_tokens + row!.completion_tokens);
  });
});

describe('one event larger than SLUICE_MAX_STREAM_EVENT_BYTES', () => {
  it('ends the renamed and translated streams with an error; a smaller one passes whole', async () => {
    for (const model of ['oai-huge-2048k', 'anth-huge-2048k']) {
      for (const endpoint of ENDPOINTS) {
        const seen = await viaSdk(endpoint, model);
        expect(seen.error, `${model} ${endpoint}`).not.toBeNull();
        expect(seen.text.length).toBeLessThan(EVENT_LIMIT);
      }
      const rows = await rowsOf(model, 3);
      for (const row of rows) {
        expect(row.status_code).toBe(502);
        expect(row.error_message).toContain(`exceeds ${EVENT_LIMIT} characters`);
      }
    }
    // Under its own name (and nothing to drop) its bytes pass as they came: the usage reader
    // leaves a line too long to hold unread rather than cutting the stream, so no cap.
    const whole = await viaSdk('responses', 'huge-2048k');
    expect(whole.error).toBeNull();
    expect(whole.text.length).toBe(2048 * 1024 + 'echo: '.length);
    for (const model of ways('huge-256k')) {
      for (const endpoint of ENDPOINTS) {
        const seen = await viaSdk(endpoint, model);
        expect(seen.error, `${model} ${endpoint}`).toBeNull();
        expect(seen.text.length).toBe(256 * 1024 + 'echo: '.length);
      }
    }
  });
});

/** Raw HTTP/1.1 on one kept-alive socket: a broken stream, then a plain request on the same socket. */
function onOneSocket(
  agent: Agent,
  path: string,
  body: unknown,
): Promise<{ status: number; text: string; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, stack.gatewayUrl);
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, reused: req.reusedSocket }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('keep-alive after a broken stream', () => {
  it('the client’s connection stays usable: the next request on it is answered', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const model of ways('cut-stream')) {
        for (const endpoint of ENDPOINTS) {
          const body =
            endpoint === 'messages'
              ? { model, stream: true, max_tokens: 64, messages: [{ role: 'user', content: PROMPT }] }
              : endpoint === 'chat'
                ? { model, stream: true, messages: [{ role: 'user', content: PROMPT }] }
                : { model, stream: true, input: PROMPT };
          const broken = await onOneSocket(agent, PATHS[endpoint], body);
          expect(broken.status).toBe(200);
          expect(broken.text).toMatch(/"type":"upstream_error"|event: error|response\.failed/);
          const next = await onOneSocket(agent, PATHS.chat, {
            model: 'healthy',
            messages: [{ role: 'user', content: 'still there?' }],
          });
          expect(next, `${model} ${endpoint}`).toMatchObject({ status: 200, reused: true });
        }
      }
    } finally {
      agent.destroy();
    }
  });
});

describe('a route whose upstream answers 503 every time', () => {
  it('a burst of 40 tries it at most the bench policy’s count plus one (3 + 1)', async () => {
    const tried = () =>
      fakes.requests.filter((r) => (r.body as { model?: string } | undefined)?.model === 'dead-fail-503')
        .length;
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${stack.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'cache-control': 'no-store',
        },
        body: JSON.stringify({ model: 'dead', messages: [{ role: 'user', content: PROMPT }] }),
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(tried(), statuses.join(' ')).toBeLessThanOrEqual(4);
    expect(statuses.slice(-30)).toEqual(Array(30).fill(503));
  });
});
