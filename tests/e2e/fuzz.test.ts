// Malformed input to every console endpoint (generated from its OpenAPI document) and to the
// gateway's model and MCP endpoints, against a stack of its own on real stores. Whatever is sent,
// the answer is a 4xx (or a 2xx where the input happens to be acceptable): never a 5xx, never a
// reset connection.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstreams, startFakeUpstreams } from '../fakes/server';
import { CLICKHOUSE_URL, pgUrl, SERVE_REDIS_URL, withRedisDatabase } from '../helpers/env';
import { FIRST_ADMIN } from '../helpers/first-run';
import { type FuzzCase, fuzzCases, fuzzOperations, WRONG_BODIES, WRONG_VALUES } from '../helpers/fuzz-values';
import { http } from '../helpers/http';
import { onOneConnection, type RawRequest } from '../helpers/one-connection';
import { adminApi, freshStackStores, seedFakeOpenAiModel } from '../helpers/stack-seed';
import { interrupt, type StartedStack, startStackProcess } from '../setup/e2e-global';

const DATABASE = 'sluice_fuzz_e2e';
const REDIS_URL = withRedisDatabase(SERVE_REDIS_URL, 7);
const CONCURRENCY = 8;

const dataDir = mkdtempSync(join(tmpdir(), 'sluice-fuzz-'));
let stack: StartedStack;
let fakes: FakeUpstreams;
let adminToken = '';
let apiKey = '';

async function login(): Promise<void> {
  const answer = await http('POST', `${stack.consoleUrl}/api/auth/login`, {
    body: { email: FIRST_ADMIN.email, password: FIRST_ADMIN.password },
  });
  expect(answer.status).toBe(200);
  adminToken = answer.body.access_token;
}

beforeAll(async () => {
  await freshStackStores(pgUrl(DATABASE), REDIS_URL);
  fakes = await startFakeUpstreams();
  stack = await startStackProcess(
    {
      DATABASE_URL: pgUrl(DATABASE),
      REDIS_URL,
      CLICKHOUSE_URL,
      CLICKHOUSE_DATABASE: DATABASE,
      SLUICE_QUIET: '1',
    },
    dataDir,
  );
  const init = await http('POST', `${stack.consoleUrl}/api/setup/initialize`, {
    body: { admin: FIRST_ADMIN },
  });
  expect(init.status).toBe(200);
  adminToken = init.body.access_token;
  const api = adminApi(stack.consoleUrl, adminToken);
  await seedFakeOpenAiModel(api, fakes, 'fuzz-model');
  apiKey = (await api('POST', '/api/keys', { name: 'fuzz' })).body.key;
}, 180_000);

afterAll(async () => {
  if (stack) await interrupt(stack);
  await fakes?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Outcome {
  sent: number;
  /** 500s the API documents (see DOCUMENTED_5XX). */
  documented: number;
  statuses: Map<number, number>;
  failures: string[];
}

/**
 * The one 5xx the API documents (the SSO endpoints answer 500 while OIDC is not configured); it
 * carries a message saying what to set.
 */
const DOCUMENTED_5XX = /^OIDC is not configured/;

async function send(base: string, token: () => string, one: FuzzCase): Promise<number | string> {
  try {
    const response = await fetch(`${base}${one.path}`, {
      method: one.method,
      headers: {
        authorization: `Bearer ${token()}`,
        ...(one.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: one.body,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    if (response.status >= 500) {
      const message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? '';
      if (DOCUMENTED_5XX.test(message)) return 'documented';
      return `${response.status} ${message}`;
    }
    return response.status;
  } catch (error) {
    return `no answer: ${(error as Error & { cause?: Error }).cause?.message ?? String(error)}`;
  }
}

/** Sends every case, CONCURRENCY at a time; signs in again if one of them ended the session. */
async function fuzz(base: string, token: () => string, cases: FuzzCase[]): Promise<Outcome> {
  const outcome: Outcome = { sent: 0, documented: 0, statuses: new Map(), failures: [] };
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const one = cases[next++]!;
      let result = await send(base, token, one);
      if (result === 401 && base === stack.consoleUrl && !one.path.startsWith('/api/auth')) {
        await login();
        result = await send(base, token, one);
      }
      outcome.sent += 1;
      if (typeof result === 'number') outcome.statuses.set(result, (outcome.statuses.get(result) ?? 0) + 1);
      if (result === 'documented') outcome.documented += 1;
      else if (typeof result !== 'number') {
        outcome.failures.push(
          `${one.method} ${one.path.slice(0, 120)} ${String(one.body).slice(0, 120)} → ${result}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return outcome;
}

const summary = (outcome: Outcome) =>
  [
    ...[...outcome.statuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`),
    `documented 500 (OIDC not configured)×${outcome.documented}`,
  ].join(' ');

describe('fuzz', () => {
  it('console: every OpenAPI operation with malformed paths, queries and bodies answers without a 5xx', async () => {
    const doc = (await http('GET', `${stack.consoleUrl}/api/openapi.json`)).body;
    const operations = fuzzOperations(doc);
    expect(operations.length).toBeGreaterThan(40);
    const cases = operations.flatMap((operation) => fuzzCases(operation));
    const outcome = await fuzz(stack.consoleUrl, () => adminToken, cases);
    console.info(
      `console fuzz: ${outcome.sent} requests over ${operations.length} operations: ${summary(outcome)}`,
    );
    expect(outcome.failures.slice(0, 40)).toEqual([]);
    expect(outcome.sent).toBe(cases.length);
  }, 600_000);

  it('gateway: malformed model and MCP requests answer without a 5xx', async () => {
    const bases: Array<[string, Record<string, unknown>]> = [
      ['/v1/chat/completions', { model: 'fuzz-model', messages: [{ role: 'user', content: 'hi' }] }],
      ['/v1/messages', { model: 'fuzz-model', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }],
      ['/v1/responses', { model: 'fuzz-model', input: 'hi' }],
    ];
    const fields = [
      'model',
      'messages',
      'input',
      'stream',
      'max_tokens',
      'max_output_tokens',
      'temperature',
      'tools',
      'tool_choice',
      'system',
      'stop',
      'metadata',
      'response_format',
      'n',
    ];
    const cases: FuzzCase[] = [];
    for (const [path, valid] of bases) {
      for (const body of WRONG_BODIES) cases.push({ method: 'POST', path, body });
      for (const field of fields) {
        for (const value of WRONG_VALUES) {
          cases.push({ method: 'POST', path, body: JSON.stringify({ ...valid, [field]: value }) });
        }
      }
    }
    for (const body of WRONG_BODIES) cases.push({ method: 'POST', path: '/mcp', body });
    for (const value of WRONG_VALUES) {
      cases.push({
        method: 'POST',
        path: '/mcp',
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: value }),
      });
      cases.push({
        method: 'POST',
        path: '/mcp',
        body: JSON.stringify({ jsonrpc: '2.0', id: value, method: value }),
      });
    }
    const outcome = await fuzz(stack.gatewayUrl, () => apiKey, cases);
    console.info(`gateway fuzz: ${outcome.sent} requests: ${summary(outcome)}`);
    expect(outcome.failures.slice(0, 40)).toEqual([]);
  }, 600_000);

  it('gateway: a refusal that comes before the body reaches the client, and its connection serves the next request', async () => {
    const spaces = (bytes: number) => new Uint8Array(bytes).fill(0x20);
    const chat = (token: string, bytes: number): RawRequest => ({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: spaces(bytes),
    });
    const health: RawRequest = { method: 'GET', path: '/health', headers: {} };
    const cases: Array<[string, number, RawRequest]> = [
      ['a wrong key and 3 MB', 401, chat('sk-wrong', 3_000_000)],
      ['a wrong key and 100 KB', 401, chat('sk-wrong', 100_000)],
      ['no such route and 1 MB', 404, { ...chat(apiKey, 1_000_000), path: '/v1/no-such-route' }],
      ['21 MB, over the limit', 413, chat(apiKey, 21 * 1024 * 1024)],
    ];
    for (const [name, status, request] of cases) {
      const { answers, error } = await onOneConnection(stack.gatewayUrl, [request, health, health]);
      expect({ name, statuses: answers.map((a) => a.status), error }).toEqual({
        name,
        statuses: [status, 200, 200],
        error: null,
      });
      expect(JSON.parse(answers[0]!.body)).toMatchObject({ error: { type: expect.any(String) } });
    }
  }, 120_000);
});
