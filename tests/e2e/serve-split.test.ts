// `npm run serve` split by SLUICE_SERVE: two gateways (SLUICE_SERVE=gateway) and one console
// (SLUICE_SERVE=console) on the same stores and secrets, as docs/operations.md describes a
// scaled-out deployment. Each process runs only its app; a key made in the console works on
// both gateways, and a limit counts across them.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstreams, startFakeUpstreams } from '../fakes/server';
import { pgUrl, SERVE_REDIS_URL, withRedisDatabase } from '../helpers/env';
import { FIRST_ADMIN } from '../helpers/first-run';
import { http } from '../helpers/http';
import { adminApi, freshStackStores, seedFakeOpenAiModel } from '../helpers/stack-seed';
import { type StackCommand, type StartedStack, startStackProcess, stopStackGroup } from '../setup/e2e-global';

const SERVE: StackCommand = { file: 'npm', args: ['run', '--silent', 'serve'], detached: true };
const DATABASE = 'sluice_serve_split_e2e';
const REDIS_URL = withRedisDatabase(SERVE_REDIS_URL, 4);
const parent = mkdtempSync(join(tmpdir(), 'sluice-split-'));
/** What every process of one deployment shares: the stores and the two secrets. */
const SHARED = {
  DATABASE_URL: pgUrl(DATABASE),
  REDIS_URL,
  SLUICE_JWT_SECRET: randomBytes(32).toString('hex'),
  SLUICE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  SLUICE_QUIET: '1',
};
const started: StartedStack[] = [];
let consoleApp: StartedStack;
let gateways: StartedStack[];
let fakes: FakeUpstreams;

beforeAll(async () => {
  await freshStackStores(pgUrl(DATABASE), REDIS_URL);
  fakes = await startFakeUpstreams();
  const start = async (serve: string, name: string) => {
    const stack = await startStackProcess({ ...SHARED, SLUICE_SERVE: serve }, join(parent, name), SERVE);
    started.push(stack);
    return stack;
  };
  consoleApp = await start('console', 'console');
  gateways = [await start('gateway', 'gateway-a'), await start('gateway', 'gateway-b')];
}, 300_000);

afterAll(async () => {
  await Promise.all(started.map(stopStackGroup));
  await fakes?.close();
  rmSync(parent, { recursive: true, force: true });
});

const processes = (stack: StartedStack) =>
  execFileSync('ps', ['-o', 'args=', '-g', String(stack.child.pid)], { encoding: 'utf8' });

describe('SLUICE_SERVE', () => {
  it('runs only the app it names, and says so', async () => {
    expect(consoleApp.output()).toContain('gateway: not in this process (SLUICE_SERVE=console)');
    // The console reaches Postgres and Redis itself: no store bridge in its process.
    expect(consoleApp.output()).toContain('bridge:  none (the console reaches Postgres and Redis itself)');
    expect(processes(consoleApp)).toContain('console-server/src/main.ts');
    expect(processes(consoleApp)).not.toContain('workerd serve');
    for (const gateway of gateways) {
      expect(gateway.output()).toContain('console: not in this process (SLUICE_SERVE=gateway)');
      expect(processes(gateway)).toContain('workerd serve');
      expect(processes(gateway)).not.toContain('console-server/src/main.ts');
      const refused = await fetch(`${gateway.consoleUrl}/api/health`).catch((e: Error) => e);
      expect(refused).toBeInstanceOf(Error);
    }
  });

  it('N gateways and one console: a key from the console works on each, one limit counts across them', async () => {
    const init = await http('POST', `${consoleApp.consoleUrl}/api/setup/initialize`, {
      body: { admin: FIRST_ADMIN },
    });
    expect(init.status).toBe(200);
    const api = adminApi(consoleApp.consoleUrl, init.body.access_token as string);
    await seedFakeOpenAiModel(api, fakes, 'split-model');
    const key = (await api('POST', '/api/keys', { name: 'split', rate_limit_rpm: 4 })).body.key as string;
    const chat = (gateway: StartedStack) =>
      http('POST', `${gateway.gatewayUrl}/v1/chat/completions`, {
        token: key,
        body: { model: 'split-model', messages: [{ role: 'user', content: 'hi' }] },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await chat(gateways[i % 2]!)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('Redis restarted without persistence: the first request rebuilds the day and month counters from the log', async () => {
    const login = await http('POST', `${consoleApp.consoleUrl}/api/auth/login`, {
      body: { email: FIRST_ADMIN.email, password: FIRST_ADMIN.password },
    });
    const api = adminApi(consoleApp.consoleUrl, login.body.access_token as string);
    // A limit of its own makes /v1/usage report the key's counters, not its owner's.
    const created = (await api('POST', '/api/keys', { name: 'f10', rate_limit_rpm: 1000 })).body;
    const chat = (gateway: StartedStack) =>
      http('POST', `${gateway.gatewayUrl}/v1/chat/completions`, {
        token: created.key,
        body: { model: 'split-model', messages: [{ role: 'user', content: 'hi' }] },
      });
    const usage = async () =>
      (await http('GET', `${gateways[0]!.gatewayUrl}/v1/usage`, { token: created.key })).body.usage;
    for (let i = 0; i < 3; i++) expect((await chat(gateways[i % 2]!)).status).toBe(200);
    // Counted, and logged (rows reach the log within a batch).
    await expect
      .poll(async () => (await api('GET', `/api/gateway/logs?api_key_id=${created.id}`)).body.total, {
        timeout: 15_000,
      })
      .toBe(3);
    await expect.poll(async () => (await usage()).tokens_today, { timeout: 10_000 }).toBeGreaterThan(0);
    const before = await usage();
    expect(before).toMatchObject({ requests_today: 3, requests_month: 3 });

    const redis = new Redis(REDIS_URL);
    await redis.flushdb();
    redis.disconnect();
    // Read before any request: rebuilt first, not read empty.
    expect(await usage()).toMatchObject({
      requests_today: 3,
      requests_month: 3,
      tokens_today: before.tokens_today,
    });
    expect((await chat(gateways[1]!)).status).toBe(200);
    // Rebuilt before the request counted: the three from the log, and this one.
    const after = await usage();
    expect(after).toMatchObject({ requests_today: 4, requests_month: 4 });
    const perRequest = before.tokens_today / 3;
    await expect
      .poll(async () => (await usage()).tokens_today, { timeout: 10_000 })
      .toBe(before.tokens_today + perRequest);
    expect((await usage()).tokens_month).toBe(before.tokens_month + perRequest);
  });
});
