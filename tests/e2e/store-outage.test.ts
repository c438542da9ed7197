// Store outages (docs/operations.md, Store outages) against the running self-host stack
// (`npm run serve`), with each store reached through a fault proxy the test switches between pass,
// refuse and blackhole.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FaultProxy, startFaultProxy } from '../fakes/fault-proxy';
import { type FakeUpstreams, startFakeUpstreams } from '../fakes/server';
import { CLICKHOUSE_URL, PG_HOST, PG_PORT, pgUrl, SERVE_REDIS_URL, withRedisDatabase } from '../helpers/env';
import { FIRST_ADMIN } from '../helpers/first-run';
import { http } from '../helpers/http';
import { adminApi, freshStackStores, seedFakeOpenAiModel } from '../helpers/stack-seed';
import { type StackCommand, type StartedStack, startStackProcess, stopStackGroup } from '../setup/e2e-global';

const SERVE: StackCommand = { file: 'npm', args: ['run', '--silent', 'serve'], detached: true };
const DATABASE = 'sluice_outage_e2e';
const REDIS_URL = withRedisDatabase(SERVE_REDIS_URL, 6);
const STORE_TIMEOUT_MS = 1000;
const DB_TIMEOUT_MS = Number(process.env.SLUICE_TEST_DB_TIMEOUT_MS ?? 2000);
const BRIDGE_PG_TIMEOUT_MS = DB_TIMEOUT_MS;
const CH_OUTAGE_MS = Number(process.env.SLUICE_TEST_CH_OUTAGE_MS ?? 22_000);

const dataDir = mkdtempSync(join(tmpdir(), 'sluice-outage-'));
let stack: StartedStack;
let fakes: FakeUpstreams;
let redisLink: FaultProxy;
let pgLink: FaultProxy;
let chLink: FaultProxy;
let adminToken: string;
/** A key with rate_limit_rpm 4, one with 100 (fail-closed case), one without limits. */
const keys = { limited: '', closed: '', plain: '' };

beforeAll(async () => {
  await freshStackStores(pgUrl(DATABASE), REDIS_URL);
  fakes = await startFakeUpstreams();
  redisLink = await startFaultProxy({ host: '127.0.0.1', port: Number(new URL(REDIS_URL).port) });
  pgLink = await startFaultProxy({ host: PG_HOST, port: PG_PORT });
  const clickhouse = new URL(CLICKHOUSE_URL);
  chLink = await startFaultProxy({ host: clickhouse.hostname, port: Number(clickhouse.port || 8123) });
  await fetch(`${CLICKHOUSE_URL}/?query=${encodeURIComponent(`DROP DATABASE IF EXISTS ${DATABASE}`)}`, {
    method: 'POST',
  });
  stack = await startStackProcess(
    {
      DATABASE_URL: pgLink.rewrite(pgUrl(DATABASE)),
      REDIS_URL: redisLink.rewrite(REDIS_URL),
      CLICKHOUSE_URL: chLink.rewrite(CLICKHOUSE_URL),
      CLICKHOUSE_DATABASE: DATABASE,
      SLUICE_SPILL_DRAIN_INTERVAL_MS: '1000',
      SLUICE_STORE_TIMEOUT_MS: String(STORE_TIMEOUT_MS),
      SLUICE_DB_TIMEOUT_MS: String(DB_TIMEOUT_MS),
      // Longer than the gateway's wait, so a blackholed load outlives the request that started it.
      SLUICE_BRIDGE_PG_TIMEOUT_MS: String(BRIDGE_PG_TIMEOUT_MS),
      SLUICE_BRIDGE_REDIS_TIMEOUT_MS: String(STORE_TIMEOUT_MS),
      SLUICE_QUIET: '1',
    },
    dataDir,
    SERVE,
  );
  const init = await http('POST', `${stack.consoleUrl}/api/setup/initialize`, {
    body: { admin: FIRST_ADMIN },
  });
  adminToken = init.body.access_token as string;
  const api = adminApi(stack.consoleUrl, adminToken);
  await seedFakeOpenAiModel(api, fakes, 'outage-model');
  keys.limited = (await api('POST', '/api/keys', { name: 'limited', rate_limit_rpm: 4 })).body.key;
  keys.closed = (await api('POST', '/api/keys', { name: 'closed', rate_limit_rpm: 100 })).body.key;
  keys.plain = (await api('POST', '/api/keys', { name: 'plain' })).body.key;
  expect(Object.values(keys).every((k) => typeof k === 'string' && k.startsWith('sluice-'))).toBe(true);
}, 180_000);

afterAll(async () => {
  await stopStackGroup(stack);
  await fakes?.close();
  await redisLink?.close();
  await pgLink?.close();
  await chLink?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// A failed test must not leave its store down for the ones after it.
afterEach(() => {
  for (const link of [redisLink, pgLink, chLink]) link?.setMode('pass');
});

interface Timed {
  status: number;
  ms: number;
  // biome-ignore lint/suspicious/noExplicitAny: asserted field by field.
  body: any;
  headers: Headers;
}

async function chat(token: string, text = 'hello'): Promise<Timed> {
  const started = performance.now();
  const answer = await http('POST', `${stack.gatewayUrl}/v1/chat/completions`, {
    token,
    body: { model: 'outage-model', messages: [{ role: 'user', content: text }] },
  });
  return { ...answer, ms: performance.now() - started };
}

async function consoleCall(method: string, path: string, body?: unknown): Promise<Timed> {
  const started = performance.now();
  const answer = await http(method, `${stack.consoleUrl}${path}`, { token: adminToken, body });
  return { ...answer, ms: performance.now() - started };
}

/** Calls `attempt` until it returns a value (not undefined), for at most `ms`. */
function within<T>(ms: number, attempt: () => Promise<T | undefined>): Promise<T | undefined> {
  return vi
    .waitFor(
      async () => {
        const value = await attempt();
        if (value === undefined) throw new Error('not yet');
        return value;
      },
      { timeout: ms, interval: 100 },
    )
    .catch(() => undefined);
}

const remaining = (answer: Timed) => answer.headers.get('x-ratelimit-remaining-requests');

describe('Redis outage', () => {
  it('costs one bounded wait, then nothing, and limits count again within seconds of its return', async () => {
    const before = await chat(keys.limited);
    expect(before.status).toBe(200);
    expect(remaining(before)).toBe('3');

    redisLink.setMode('blackhole');
    const during: Timed[] = [];
    for (let i = 0; i < 12; i++) during.push(await chat(keys.limited, `during ${i}`));
    // Fail-open (the default while the counters are unreachable): served past the limit of 4,
    // without rate-limit headers.
    expect(during.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(during.every((a) => remaining(a) === null)).toBe(true);
    // The first request waits for its deadline at most; the breaker spares every later one.
    expect(during[0]!.ms).toBeLessThan(STORE_TIMEOUT_MS + 1_500);
    const later = during.slice(1).map((a) => a.ms);
    expect(
      later.reduce((a, b) => a + b, 0),
      later.join(' '),
    ).toBeLessThan(STORE_TIMEOUT_MS);
    console.info(
      `Redis blackholed: before ${before.ms.toFixed(0)} ms; first request ${during[0]!.ms.toFixed(0)} ms, the next 11 ${later.map((ms) => ms.toFixed(0)).join(' ')} ms`,
    );

    redisLink.setMode('pass');
    // A probe every 500 ms: counting resumes as soon as one answers.
    const counted = await within(5_000, async () => {
      const answer = await chat(keys.limited, 'back');
      return remaining(answer) === null ? undefined : answer;
    });
    expect(counted, 'limits never counted again').toBeDefined();
    const left = Number(remaining(counted!));
    const rest: Timed[] = [];
    for (let i = 0; i <= left; i++) rest.push(await chat(keys.limited, `after ${i}`));
    expect(rest.slice(0, left).map((a) => a.status)).toEqual(Array(left).fill(200));
    expect(rest[left]).toMatchObject({ status: 429, body: { error: { type: 'rate_limit_error' } } });
  });

  it('refuses limited callers at once when rate_limit_fail_closed is on, and serves the others', async () => {
    const patch = await consoleCall('PATCH', '/api/admin/settings', {
      settings: { rate_limit_fail_closed: true },
    });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    expect((await chat(keys.closed)).status).toBe(200);

    redisLink.setMode('refuse');
    const closed: Timed[] = [];
    for (let i = 0; i < 5; i++) closed.push(await chat(keys.closed, `closed ${i}`));
    for (const answer of closed) {
      expect(answer.status).toBe(429);
      expect(answer.body.error.message).toContain('rate_limiter_unavailable');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // A refused link fails fast even before the breaker opens.
    expect(Math.max(...closed.map((a) => a.ms))).toBeLessThan(STORE_TIMEOUT_MS);
    const plain = await chat(keys.plain, 'no limits');
    expect(plain.status).toBe(200);

    redisLink.setMode('pass');
    const served = await within(5_000, async () => {
      const answer = await chat(keys.closed, 'back');
      return answer.status === 200 ? answer : undefined;
    });
    expect(served, 'fail-closed key never served again').toBeDefined();
    expect(remaining(served!)).not.toBeNull();
    const reset = await consoleCall('PATCH', '/api/admin/settings', {
      settings: { rate_limit_fail_closed: false },
    });
    expect(reset.status).toBe(200);
  });
});

describe('Postgres outage', () => {
  for (const mode of ['refuse', 'blackhole'] as const) {
    it(`${mode}: warm gateways keep serving, the console answers 503s, both recover`, async () => {
      // Created (and never used) before the outage: the gateway has not seen it yet.
      const cold = (await consoleCall('POST', '/api/keys', { name: `cold ${mode}` })).body.key as string;
      expect((await chat(keys.plain)).status).toBe(200);

      pgLink.setMode(mode);
      const warm: Timed[] = [];
      for (let i = 0; i < 10; i++) warm.push(await chat(keys.plain, `warm ${i}`));
      expect(warm.map((a) => a.status)).toEqual(Array(10).fill(200));
      expect(warm.reduce((sum, a) => sum + a.ms, 0)).toBeLessThan(2_000);
      console.info(`Postgres ${mode}: warm requests ${warm.map((a) => a.ms.toFixed(0)).join(' ')} ms`);

      const unknown = await chat(cold, 'cold');
      expect(unknown.status).toBe(503);
      expect(unknown.body.error).toEqual({
        type: 'service_unavailable',
        message: 'The database is unavailable; try again shortly',
      });

      const health = await consoleCall('GET', '/api/health');
      expect(health).toMatchObject({
        status: 503,
        body: { status: 'degraded', services: { postgres: 'error' } },
      });
      for (const [method, path, payload] of [
        ['GET', '/api/keys', undefined],
        ['POST', '/api/keys', { name: 'during outage' }],
        ['PATCH', '/api/admin/settings', { settings: { site_name: 'Outage' } }],
      ] as const) {
        const answer = await consoleCall(method, path, payload);
        expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(503);
        expect(answer.body.error.type).toBe('service_unavailable');
        expect(answer.headers.get('retry-after')).toBe('5');
        // SLUICE_DB_TIMEOUT_MS bounds a blackholed query (the pool's connect and query timeouts).
        expect(answer.ms, `${method} ${path}`).toBeLessThan(DB_TIMEOUT_MS + 2_000);
      }

      pgLink.setMode('pass');
      const listed = await within(15_000, async () => {
        const answer = await consoleCall('GET', '/api/keys');
        return answer.status === 200 ? answer : undefined;
      });
      expect(listed, 'console never recovered').toBeDefined();
      expect(listed!.body.map((k: { name: string }) => k.name)).not.toContain('during outage');
      const served = await within(15_000, async () => {
        const answer = await chat(cold, 'cold again');
        return answer.status === 200 ? answer : undefined;
      });
      expect(served, 'cold key never served').toBeDefined();
    }, 120_000);
  }
});

describe('Postgres failover (refused, then blackholed, then back)', () => {
  it(
    'a key first seen during the blackhole is served within the database timeout of the return',
    async () => {
      const fresh = (await consoleCall('POST', '/api/keys', { name: 'first seen in the blackhole' })).body
        .key as string;
      pgLink.setMode('refuse');
      expect((await chat(fresh, 'refused')).status).toBe(503);
      pgLink.setMode('blackhole');
      // A client that gives up first: the load its request started loses its request.
      const leaving = await fetch(`${stack.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fresh}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'outage-model', messages: [{ role: 'user', content: 'leaving' }] }),
        signal: AbortSignal.timeout(300),
      }).catch((error: unknown) => error);
      expect(leaving).toBeInstanceOf(Error);
      // The loads of the next requests hang (the bridge's connection is caught by the blackhole);
      // those requests answer 503 at their own deadline.
      const blackholedAt = performance.now();
      const hung: Timed[] = [];
      while (performance.now() - blackholedAt < DB_TIMEOUT_MS * 3) hung.push(await chat(fresh, 'blackholed'));
      expect(hung.map((a) => a.status)).toEqual(Array(hung.length).fill(503));
      pgLink.setMode('pass');
      const backAt = performance.now();
      const served = await within(DB_TIMEOUT_MS * 4, async () => {
        const answer = await chat(fresh, 'after');
        return answer.status === 200 ? answer : undefined;
      });
      const recoveryMs = performance.now() - backAt;
      expect(served, 'the key stayed refused after Postgres came back').toBeDefined();
      // Nothing can hold it longer than one load's life (SLUICE_DB_TIMEOUT_MS) and a retry.
      expect(recoveryMs).toBeLessThan(DB_TIMEOUT_MS * 2 + 1_000);
      const steady: number[] = [];
      for (let i = 0; i < 5; i++) steady.push((await chat(fresh, `steady ${i}`)).status);
      expect(steady).toEqual(Array(5).fill(200));
      console.info(
        `Postgres failover: blackholed requests ${hung.map((a) => a.ms.toFixed(0)).join(' ')} ms; key served ${recoveryMs.toFixed(0)} ms after Postgres came back`,
      );
    },
    DB_TIMEOUT_MS * 12 + 30_000,
  );
});

/** Straight to ClickHouse (not through the proxy): what the request log holds. */
async function clickhouseCount(where: string): Promise<number> {
  const query = `SELECT count() AS n, uniqExact(id) AS ids FROM ${DATABASE}.request_logs WHERE ${where} FORMAT JSON`;
  const response = await fetch(`${CLICKHOUSE_URL}/?query=${encodeURIComponent(query)}`);
  // The table is created with the first row the gateway writes.
  if (!response.ok) return 0;
  const body = (await response.json()) as { data: Array<{ n: string; ids: string }> };
  const row = body.data[0]!;
  // A row written twice would show as more rows than ids.
  expect(Number(row.n)).toBe(Number(row.ids));
  return Number(row.n);
}

/** Request-log rows waiting in the Postgres spill (read directly, not through the fault proxy). */
async function spilledRows(): Promise<number> {
  const client = new pg.Client({ connectionString: pgUrl(DATABASE) });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM request_logs');
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

describe('ClickHouse outage', () => {
  it(
    'loses no request-log row and writes none twice; reads answer 503 meanwhile',
    async () => {
      const startedMs = Date.now();
      expect((await chat(keys.plain, 'before')).status).toBe(200);
      expect(
        await within(10_000, async () =>
          (await clickhouseCount(`created_at_ms >= ${startedMs}`)) === 1 ? true : undefined,
        ),
      ).toBe(true);

      chLink.setMode('blackhole');
      const outageMs = Date.now();
      // Traffic through the whole outage (SLUICE_TEST_CH_OUTAGE_MS stretches it, e.g. to 2 min);
      // its first batch waits out the gateway's 20 s insert deadline before it goes to Postgres.
      const during: Timed[] = [];
      while (Date.now() - outageMs < CH_OUTAGE_MS) {
        during.push(await chat(keys.plain, `logged ${during.length}`));
        // Paced: a steady trickle of traffic for the outage's whole length is what is tested.
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(during.every((a) => a.status === 200)).toBe(true);
      // Log writes happen after the response: the outage adds nothing to a request.
      const slowest = Math.max(...during.map((a) => a.ms));
      expect(slowest).toBeLessThan(1_000);
      const read = await consoleCall('GET', '/api/gateway/logs');
      expect(read.status, JSON.stringify(read.body)).toBe(503);
      expect(read.body.error.type).toBe('service_unavailable');

      chLink.setMode('pass');
      const expected = during.length;
      const all = await within(30_000, async () =>
        (await clickhouseCount(`created_at_ms >= ${outageMs}`)) === expected ? true : undefined,
      );
      const stored = await clickhouseCount(`created_at_ms >= ${outageMs}`);
      expect(all, `rows in ClickHouse: ${stored} of ${expected}`).toBe(true);
      // The drain empties the Postgres spill; with nothing left there, nothing can be copied twice.
      await vi.waitFor(async () => expect(await spilledRows()).toBe(0), { timeout: 10_000, interval: 200 });
      expect(await clickhouseCount(`created_at_ms >= ${outageMs}`)).toBe(expected);
      console.info(
        `ClickHouse outage of ${CH_OUTAGE_MS} ms: ${expected} requests, ${stored} rows stored, slowest request ${slowest.toFixed(0)} ms`,
      );
      const logs = await consoleCall('GET', '/api/gateway/logs');
      expect(logs.status).toBe(200);
    },
    CH_OUTAGE_MS + 120_000,
  );
});
