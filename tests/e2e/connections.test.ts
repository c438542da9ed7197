// Connections as clients and their libraries hold them, against `npm run serve`: a body that
// trickles in (408 at SLUICE_BODY_TIMEOUT_MS, gateway and console), keep-alive connections
// reused around the gateway's idle close, and headers too large for the console (431,
// answered rather than reset).
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstreams, startFakeUpstreams } from '../fakes/server';
import { pgUrl, SERVE_REDIS_URL, withRedisDatabase } from '../helpers/env';
import { FIRST_ADMIN } from '../helpers/first-run';
import { http } from '../helpers/http';
import { adminApi, freshStackStores, seedFakeOpenAiModel } from '../helpers/stack-seed';
import { type StackCommand, type StartedStack, startStackProcess, stopStackGroup } from '../setup/e2e-global';

const SERVE: StackCommand = { file: 'npm', args: ['run', '--silent', 'serve'], detached: true };
const DATABASE = 'sluice_connections_e2e';
const REDIS_URL = withRedisDatabase(SERVE_REDIS_URL, 5);
const BODY_TIMEOUT_MS = 2_000;
const dataDir = mkdtempSync(join(tmpdir(), 'sluice-connections-'));
let stack: StartedStack;
let fakes: FakeUpstreams;
let key = '';

beforeAll(async () => {
  await freshStackStores(pgUrl(DATABASE), REDIS_URL);
  fakes = await startFakeUpstreams();
  stack = await startStackProcess(
    {
      DATABASE_URL: pgUrl(DATABASE),
      REDIS_URL,
      SLUICE_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
      SLUICE_QUIET: '1',
    },
    dataDir,
    SERVE,
  );
  const init = await http('POST', `${stack.consoleUrl}/api/setup/initialize`, {
    body: { admin: FIRST_ADMIN },
  });
  const api = adminApi(stack.consoleUrl, init.body.access_token as string);
  await seedFakeOpenAiModel(api, fakes, 'plain');
  key = (await api('POST', '/api/keys', { name: 'connections' })).body.key;
}, 180_000);

afterAll(async () => {
  await stopStackGroup(stack);
  await fakes?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface RawExchange {
  /** Everything the server sent before it closed. */
  text: string;
  /** How the connection ended: the server's FIN, or a reset. */
  ended: 'closed' | 'reset';
  ms: number;
}

/** A raw connection: writes `head`, then `trickle` one byte every `everyMs` until the server ends it. */
function rawExchange(
  url: string,
  head: string,
  options: { trickle?: string; everyMs?: number; timeoutMs?: number } = {},
): Promise<RawExchange> {
  const { port, hostname } = new URL(url);
  const started = performance.now();
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(port), hostname);
    let text = '';
    let sent = 0;
    const drip = options.trickle
      ? setInterval(() => {
          if (sent < options.trickle!.length && !socket.destroyed) socket.write(options.trickle![sent++]!);
        }, options.everyMs ?? 500)
      : undefined;
    const give = setTimeout(() => socket.destroy(), options.timeoutMs ?? 20_000);
    const done = (ended: RawExchange['ended']) => {
      clearInterval(drip);
      clearTimeout(give);
      resolve({ text, ended, ms: performance.now() - started });
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ECONNRESET' ? 'reset' : 'closed'),
    );
    socket.on('close', () => done('closed'));
    socket.write(head);
  });
}

describe('a body that trickles in', () => {
  const body = JSON.stringify({ model: 'plain', messages: [{ role: 'user', content: 'hi' }] });

  it('the gateway answers 408 at SLUICE_BODY_TIMEOUT_MS and lets the connection go', async () => {
    const { port } = new URL(stack.gatewayUrl);
    const head = `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const exchange = await rawExchange(stack.gatewayUrl, head, { trickle: body, everyMs: 500 });
    expect(exchange.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(exchange.text).toContain('"type":"request_timeout"');
    expect(exchange.ms).toBeGreaterThan(BODY_TIMEOUT_MS - 100);
    expect(exchange.ms).toBeLessThan(BODY_TIMEOUT_MS + 5_000);
    console.info(
      `gateway: trickled body answered after ${exchange.ms.toFixed(0)} ms, connection ${exchange.ended}`,
    );
  });

  it('so does the console, in its own envelope, without a reset', async () => {
    const { port } = new URL(stack.consoleUrl);
    const login = JSON.stringify({ email: FIRST_ADMIN.email, password: FIRST_ADMIN.password });
    const head = `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${login.length}\r\n\r\n`;
    const exchange = await rawExchange(stack.consoleUrl, head, { trickle: login, everyMs: 500 });
    expect(exchange.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(exchange.text).toContain('"type":"request_timeout"');
    expect(exchange.ended).toBe('closed');
    expect(exchange.ms).toBeLessThan(BODY_TIMEOUT_MS + 5_000);
  });
});

describe('headers too large for the console', () => {
  it('answers 431 in the console envelope and closes without a reset', async () => {
    const { port } = new URL(stack.consoleUrl);
    const big = 'x'.repeat(64 * 1024);
    const head = `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Big: ${big}\r\n\r\n`;
    const exchange = await rawExchange(stack.consoleUrl, head);
    expect(exchange.text).toMatch(/^HTTP\/1\.1 431 /);
    expect(exchange.text).toContain('"type":"request_too_large"');
    expect(exchange.ended).toBe('closed');
  });
});

/** One request on `agent`: its status, whether it reused a socket, and any error. */
function viaAgent(agent: Agent): Promise<{ status: number; reused: boolean; error?: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(
      new URL('/v1/chat/completions', stack.gatewayUrl),
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({
        status: 0,
        reused: req.reusedSocket,
        error: error.code ?? error.message,
      }),
    );
    req.end(JSON.stringify({ model: 'plain', messages: [{ role: 'user', content: 'hi' }] }));
  });
}

/**
 * workerd, which serves the gateway, closes a keep-alive connection after 5 s without a
 * request and can neither advertise that (its HTTP server sets the connection headers itself)
 * nor be told otherwise: docs/deployment.md tells clients to retire idle connections sooner.
 */
describe('keep-alive', () => {
  it('the gateway closes an idle connection after about 5 s, as the docs say', async () => {
    const { port } = new URL(stack.gatewayUrl);
    const head = `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
    const exchange = await rawExchange(stack.gatewayUrl, head, { timeoutMs: 15_000 });
    expect(exchange.text).toMatch(/^HTTP\/1\.1 200 /);
    expect(exchange.ended).toBe('closed');
    expect(exchange.ms).toBeGreaterThan(4_000);
    expect(exchange.ms).toBeLessThan(7_000);
  }, 20_000);

  it('a client that retires idle connections after 4 s (the documented setting) never meets a closed one', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1, timeout: 4_000 });
    try {
      expect((await viaAgent(agent)).status).toBe(200);
      for (const idleMs of [3_000, 4_900, 5_050]) {
        // A real idle spell: what is tested is the agent's and workerd's idle timers.
        await new Promise((resolve) => setTimeout(resolve, idleMs));
        const next = await viaAgent(agent);
        expect(next.error, `after ${idleMs} ms idle`).toBeUndefined();
        expect(next.status).toBe(200);
        // Past 4 s the agent has let its idle connection go: a fresh one, never a dying one.
        if (idleMs > 4_000) expect(next.reused, `after ${idleMs} ms idle`).toBe(false);
      }
    } finally {
      agent.destroy();
    }
  }, 60_000);
});
