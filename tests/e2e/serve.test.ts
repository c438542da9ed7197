// The self-host mode (docs/operations.md). `npm run serve` started as the team benchmark starts it
// (its own process group), on real Postgres, Redis and ClickHouse: the gateway on `workerd serve`
// with the generated config, the console on Node, the store bridge in the supervisor; one
// authenticated model call through a fake upstream; SIGTERM to the group stops every process.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeUpstreams, startFakeUpstreams } from '../fakes/server';
import { recreateDatabase } from '../helpers/databases';
import { CLICKHOUSE_URL, pgUrl, SERVE_REDIS_URL } from '../helpers/env';
import { FIRST_ADMIN } from '../helpers/first-run';
import { http } from '../helpers/http';
import { onOneConnection } from '../helpers/one-connection';
import { seedFakeOpenAiModel } from '../helpers/stack-seed';
import { type StackCommand, type StartedStack, startStackProcess, stripStoreEnv } from '../setup/e2e-global';

const ROOT = join(import.meta.dirname, '../..');
const SERVE: StackCommand = { file: 'npm', args: ['run', '--silent', 'serve'], detached: true };
const DATABASE = 'sluice_serve_e2e';

const dataDir = mkdtempSync(join(tmpdir(), 'sluice-serve-'));
let stack: StartedStack;
let fakes: FakeUpstreams;
/** The console API as the first admin, once the proxy test has initialised the console. */
let admin: (method: string, path: string, body?: unknown) => ReturnType<typeof http>;

beforeAll(async () => {
  await recreateDatabase(pgUrl(DATABASE));
  const redis = new Redis(SERVE_REDIS_URL);
  await redis.flushdb();
  redis.disconnect();
  fakes = await startFakeUpstreams();
  stack = await startStackProcess(
    {
      DATABASE_URL: pgUrl(DATABASE),
      REDIS_URL: SERVE_REDIS_URL,
      CLICKHOUSE_URL,
      CLICKHOUSE_DATABASE: DATABASE,
      SLUICE_QUIET: '1',
    },
    dataDir,
    SERVE,
  );
});

afterAll(async () => {
  if (stack && stack.child.exitCode === null && stack.child.signalCode === null) await stopGroup(stack);
  await fakes?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `kill -TERM -- -PGID`, as the benchmark stops it; resolves once npm (the leader) is gone. */
function stopGroup(started: StartedStack): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => signalGroup(started.child.pid!, 'SIGKILL'), 20_000);
    started.child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    signalGroup(started.child.pid!, 'SIGTERM');
  });
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

/** Command lines of every process in the group (the stack's whole tree). */
function groupProcesses(pgid: number): string[] {
  try {
    return execFileSync('ps', ['-o', 'args=', '-g', String(pgid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
  } catch {
    return []; // ps exits 1 when no process matches
  }
}

describe('npm run serve', () => {
  it('refuses to start without real stores and points at npm start', () => {
    let failure: { status: number | null; stderr: string } = { status: 0, stderr: '' };
    try {
      execFileSync('npm', ['run', '--silent', 'serve'], {
        cwd: ROOT,
        env: stripStoreEnv(process.env),
        stdio: 'pipe',
        encoding: 'utf8',
      });
    } catch (error) {
      failure = error as { status: number | null; stderr: string };
    }
    expect(failure.status).toBe(2);
    expect(failure.stderr).toContain('set DATABASE_URL');
    expect(failure.stderr).toContain('npm start');
  });

  it('runs the gateway on workerd serve with the generated config, no wrangler and no Miniflare', () => {
    expect(stack.output()).toContain('Sluice is running');
    expect(stack.output()).toContain('workerd serve, 2026-04-01');
    const tree = groupProcesses(stack.child.pid!);
    expect(
      tree.some((args) => args.includes(`workerd serve ${join(dataDir, 'gateway', 'workerd.capnp')}`)),
    ).toBe(true);
    expect(tree.some((args) => args.includes('console-server/src/main.ts'))).toBe(true);
    expect(tree.filter((args) => /wrangler|miniflare|--experimental/.test(args))).toEqual([]);
  });

  it('answers gateway readiness and the console setup status', async () => {
    expect(await http('GET', `${stack.gatewayUrl}/health/ready`)).toMatchObject({
      status: 200,
      body: { status: 'ready' },
    });
    // The console's probes answer JSON like the gateway's, never the web UI's page.
    expect(await http('GET', `${stack.consoleUrl}/health`)).toMatchObject({
      status: 200,
      body: { status: 'ok' },
    });
    expect(await http('GET', `${stack.consoleUrl}/health/ready`)).toMatchObject({
      status: 200,
      body: { status: 'ready' },
    });
    expect(await http('GET', `${stack.consoleUrl}/api/setup/status`)).toMatchObject({
      status: 200,
      body: { initialized: false, needs_setup: true },
    });
  });

  it('answers a wrong key sent with a 3 MB body with a 401 the client gets, on a connection that stays', async () => {
    const refused = {
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { authorization: 'Bearer sk-wrong', 'content-type': 'application/json' },
      body: new Uint8Array(3_000_000).fill(0x20),
    };
    const health = { method: 'GET', path: '/health', headers: {} };
    const { answers, error } = await onOneConnection(stack.gatewayUrl, [refused, health]);
    expect({ statuses: answers.map((a) => a.status), error }).toEqual({ statuses: [401, 200], error: null });
  });

  it('proxies an authenticated model request to a fake upstream', async () => {
    const init = await http('POST', `${stack.consoleUrl}/api/setup/initialize`, {
      body: { admin: FIRST_ADMIN },
    });
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    const token = init.body.access_token as string;
    const api = (method: string, path: string, body?: unknown) =>
      http(method, `${stack.consoleUrl}${path}`, { token, body });
    await seedFakeOpenAiModel(api, fakes, 'served-model');
    const key = await api('POST', '/api/keys', { name: 'serve e2e' });
    expect(key.status, JSON.stringify(key.body)).toBe(201);

    const unauthenticated = await http('POST', `${stack.gatewayUrl}/v1/chat/completions`, {
      body: { model: 'served-model', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(unauthenticated.status).toBe(401);
    const answer = await http('POST', `${stack.gatewayUrl}/v1/chat/completions`, {
      token: key.body.key,
      body: { model: 'served-model', messages: [{ role: 'user', content: 'hello from serve' }] },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.choices[0].message.content).toBe('echo: hello from serve');
    expect(fakes.requests.filter((r) => r.vendor === 'openai')).toHaveLength(1);
    admin = api;
  });

  it('admits over the gateway’s own Redis link: limits count, revocation refuses the next request', async () => {
    const limited = await admin('POST', '/api/keys', { name: 'serve limited', rate_limit_rpm: 2 });
    expect(limited.status, JSON.stringify(limited.body)).toBe(201);
    const chat = () =>
      http('POST', `${stack.gatewayUrl}/v1/chat/completions`, {
        token: limited.body.key,
        body: { model: 'served-model', messages: [{ role: 'user', content: 'limited' }] },
      });
    const answers = [await chat(), await chat(), await chat()];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers.map((a) => a.headers.get('x-ratelimit-remaining-requests'))).toEqual(['1', '0', null]);

    const revocable = await admin('POST', '/api/keys', { name: 'serve revocable' });
    const ask = () =>
      http('POST', `${stack.gatewayUrl}/v1/chat/completions`, {
        token: revocable.body.key,
        body: { model: 'served-model', messages: [{ role: 'user', content: 'still mine?' }] },
      });
    expect((await ask()).status).toBe(200);
    expect((await admin('DELETE', `/api/keys/${revocable.body.id}`)).status).toBe(204);
    expect((await ask()).status).toBe(401);

    // The admissions went over the link's socket: workerd's own connection, in REDIS_URL's database.
    const redis = new Redis(SERVE_REDIS_URL);
    const clients = ((await redis.client('LIST')) as string).split('\n');
    redis.disconnect();
    const link = clients.filter((line) => line.includes('name=sluice-gateway-link'));
    expect(link).toHaveLength(1);
    expect(link[0]).toContain(` db=${new URL(SERVE_REDIS_URL).pathname.slice(1)} `);
  });

  it('stops every process of the group on SIGTERM to the group, cleanly', async () => {
    const pgid = stack.child.pid!;
    await stopGroup(stack);
    // npm leaves as soon as it is signalled; the supervisor then stops its children.
    await vi.waitFor(() => expect(groupProcesses(pgid)).toEqual([]), { timeout: 10_000, interval: 100 });
    expect(stack.output()).toContain('sluice: SIGTERM received, stopping');
    expect(stack.output()).not.toMatch(/unexpectedly|failed to start|Error/);
    for (const url of [stack.gatewayUrl, stack.consoleUrl]) {
      const refused = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) }).catch(
        (e: Error) => e,
      );
      expect((refused as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    }
  });

  it('stops the rest and exits with status 1 when the console dies on its own', async () => {
    // (A gateway process that dies is restarted instead: serve-gateway-processes.test.ts.)
    const again = await startStackProcess(
      { DATABASE_URL: pgUrl(DATABASE), REDIS_URL: SERVE_REDIS_URL, SLUICE_QUIET: '1' },
      dataDir,
      SERVE,
    );
    const pgid = again.child.pid!;
    const consoleProcess = execFileSync('ps', ['-o', 'pid=,args=', '-g', String(pgid)], { encoding: 'utf8' })
      .split('\n')
      .find((line) => line.includes('console-server/src/main.ts'));
    expect(consoleProcess).toBeDefined();
    const exited = new Promise<number | null>((resolve) => again.child.once('exit', (code) => resolve(code)));
    process.kill(Number(consoleProcess!.trim().split(/\s+/)[0]), 'SIGKILL');
    expect(await exited).toBe(1);
    expect(again.output()).toContain('sluice: console exited (signal SIGKILL) unexpectedly');
    await vi.waitFor(() => expect(groupProcesses(pgid)).toEqual([]), { timeout: 10_000, interval: 100 });
  });
});
