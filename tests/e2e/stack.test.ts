// Setup, sign-in, the console's and the gateway's health endpoints — over HTTP against the stack
// started as `npm start` starts it, with real Postgres, Redis and ClickHouse.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkConsoleJourney } from '../helpers/console-journey';
import { CLICKHOUSE_URL, E2E_REDIS_URL, pgUrl, withRedisDatabase } from '../helpers/env';
import { walkFirstRun } from '../helpers/first-run';
import { http } from '../helpers/http';
import { freshStackStores } from '../helpers/stack-seed';
import { interrupt, type StartedStack, startStackProcess } from '../setup/e2e-global';

// A stack of its own on empty stores: the shared one is already set up, and this file walks
// the first run.
const DATABASE = 'sluice_e2e_first_run';
const REDIS_URL = withRedisDatabase(E2E_REDIS_URL, 4);
const dataDir = mkdtempSync(join(tmpdir(), 'sluice-first-run-'));
let stack: StartedStack;
let gatewayUrl = '';
let consoleUrl = '';

beforeAll(async () => {
  await freshStackStores(pgUrl(DATABASE), REDIS_URL);
  stack = await startStackProcess(
    { DATABASE_URL: pgUrl(DATABASE), REDIS_URL, CLICKHOUSE_URL, CLICKHOUSE_DATABASE: DATABASE },
    dataDir,
  );
  ({ gatewayUrl, consoleUrl } = stack);
});

afterAll(async () => {
  if (stack) await interrupt(stack);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the running stack (real stores)', () => {
  // The first run is walked once, by whichever test needs it first: no test relies on another
  // having run before it.
  let firstRun: Promise<string> | undefined;
  const signedIn = (): Promise<string> => {
    firstRun ??= walkFirstRun(consoleUrl, gatewayUrl).then((walked) => walked.accessToken);
    return firstRun;
  };

  it('walks the first run: setup, login, me, gateway readiness, JWT on the gateway', async () => {
    expect(await signedIn()).not.toBe('');
  });

  it('manages provider, model, key lifecycle and settings, all found in the audit search', async () => {
    await walkConsoleJourney(consoleUrl, gatewayUrl, await signedIn());
  });

  it('reports every store healthy on the console, ClickHouse included', async () => {
    const health = await http('GET', `${consoleUrl}/api/health`);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: 'ok',
      services: { postgres: 'ok', redis: 'ok', clickhouse: 'ok' },
    });
  });

  it('answers gateway liveness and the health root', async () => {
    expect((await http('GET', `${gatewayUrl}/health`)).body).toEqual({ status: 'ok' });
    expect((await http('GET', `${gatewayUrl}/health/live`)).body).toEqual({ status: 'alive' });
  });

  it('answers bad input with 4xx envelopes over the wire, never 500', async () => {
    const malformed = await fetch(`${consoleUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const huge = await fetch(`${consoleUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x'.repeat(1_100_000) }),
    });
    expect(huge.status).toBe(413);
    const unknown = await http('GET', `${gatewayUrl}/v1/unknown`, { token: 'bad' });
    expect(unknown.status).toBe(401);
  });

  it('names the field holding a NUL or a lone surrogate, and refuses deep nesting, on both apps', async () => {
    const adminToken = await signedIn();
    const nul = await http('POST', `${consoleUrl}/api/auth/register`, {
      body: { email: 'nul@example.com', display_name: 'a\u0000b', password: 'long-enough-password' },
    });
    expect(nul.status).toBe(422);
    expect(nul.body.error).toMatchObject({ type: 'validation_error', details: [{ path: 'display_name' }] });
    const lone = await rawJson(
      `${consoleUrl}/api/auth/login`,
      '{"email":"x\\ud800@example.com","password":"p"}',
    );
    expect(lone.status).toBe(422);
    expect(lone.body.error.message).toContain('`email` contains a lone UTF-16 surrogate');
    const deepConsole = await rawJson(`${consoleUrl}/api/auth/login`, `{"email":${deepArray(10_000)}}`);
    expect(deepConsole.status).toBe(400);
    expect(deepConsole.body.error.message).toMatch(/nests deeper than 64 levels/);

    const chat = { model: 'any', messages: [{ role: 'user', content: 'a\u0000b' }] };
    const gatewayNul = await http('POST', `${gatewayUrl}/v1/chat/completions`, {
      token: adminToken,
      body: chat,
    });
    expect(gatewayNul.status).toBe(400);
    expect(gatewayNul.body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(gatewayNul.body.error.message).toContain('`messages.0.content` contains a NUL character');
    const deepGateway = await rawJson(
      `${gatewayUrl}/v1/messages`,
      `{"model":"any","max_tokens":1,"messages":${deepArray(10_000)}}`,
      adminToken,
    );
    expect(deepGateway.status).toBe(400);
    expect(deepGateway.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const deepMcp = await rawJson(
      `${gatewayUrl}/mcp`,
      `{"jsonrpc":"2.0","id":7,"method":"ping","params":${deepArray(10_000)}}`,
      adminToken,
    );
    expect(deepMcp.status).toBe(400);
    expect(deepMcp.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600 } });
  });

  it('answers 413 to every oversized body on one keep-alive connection, never a reset', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const body = Buffer.alloc(3 * 1024 * 1024, 'x');
    const sockets = new Set<unknown>();
    try {
      for (let i = 0; i < 20; i++) {
        const status = await postWithAgent(agent, `${consoleUrl}/api/auth/register`, body, sockets);
        expect(status).toBe(413);
      }
    } finally {
      agent.destroy();
    }
    // The connection may be closed cleanly after a 413, but never before its response.
    expect(sockets.size).toBeGreaterThanOrEqual(1);
  });
});

function deepArray(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/** Exact JSON text (escapes a serializer would not produce) over real HTTP. */
async function rawJson(url: string, text: string, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(url, { method: 'POST', headers, body: text });
  // biome-ignore lint/suspicious/noExplicitAny: asserted field by field.
  return { status: res.status, body: (await res.json()) as any };
}

/** One POST through a keep-alive agent; rejects on a reset, so the test sees it. */
function postWithAgent(agent: Agent, url: string, body: Buffer, sockets: Set<unknown>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('socket', (socket) => sockets.add(socket));
    req.on('error', reject);
    req.end(body);
  });
}
