// Redis restarted without persistence: the day, week and month limit counters are rebuilt from
// the request log (shared/src/limits/counter-rebuild.ts), over the real Redis (a database of
// this file's own, so the loss is a real FLUSHDB), the real Upstash client through the store
// bridge, and the request log in Postgres and in ClickHouse.
import type { Redis } from '@upstash/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresPool, type PostgresPool } from '../../console-server/src/stores/postgres';
import { createRedisBackend, type RedisBackend, runCommand } from '../../self-host/bridge/redis-backend';
import { type StoreBridge, startStoreBridge } from '../../self-host/bridge/server';
import { storeMarker } from '../../shared/src/db/repos/store-markers-repo';
import { createCounterAnchor } from '../../shared/src/limits/counter-anchor';
import { EPOCH_KEY, keepCounters } from '../../shared/src/limits/counter-rebuild';
import { COUNTING_SINCE_KEY } from '../../shared/src/limits/counting-since';
import type { LimitSubject, SubjectLimits } from '../../shared/src/limits/definitions';
import { createGate } from '../../shared/src/limits/gate';
import { createLimiter, type Limiter } from '../../shared/src/limits/limiter';
import { createVersionBoard } from '../../shared/src/runtime/version-board';
import { directScripts } from '../../shared/src/stores/lua-script';
import { createUpstash } from '../../shared/src/stores/upstash';
import { type AnalyticsAdapters, startAnalyticsAdapters } from '../helpers/analytics-adapters';
import { PG_HOST, PG_PORT } from '../helpers/env';
import { requestLogRecord } from '../helpers/request-log-record';
import { freshDatabase } from '../helpers/stores';

const REDIS_URL = process.env.TEST_REBUILD_REDIS_URL ?? 'redis://127.0.0.1:6379/12';
/** Wednesday 18 November 2026, 10:00 UTC: its week began Monday the 16th. */
const T = Date.parse('2026-11-18T10:00:00.000Z');
const HOUR = 3_600_000;
const DELAY_MS = 5_000;
const KEY = '7d000000-0000-4000-8000-000000000001';
const USER = '7e000000-0000-4000-8000-000000000001';
const subject: LimitSubject = { keyId: KEY, userId: USER, rateLimitRpm: null };
const limits: SubjectLimits = {
  key: { rules: [], budgets: [{ period: 'weekly', limitTokens: 1_000_000 }] },
  user: { rules: [], budgets: [] },
};

let backend: RedisBackend;
let bridge: StoreBridge;
let redis: Redis;
let adapters: AnalyticsAdapters;
let db: PostgresPool;

beforeAll(async () => {
  backend = createRedisBackend(REDIS_URL);
  bridge = await startStoreBridge({
    port: 0,
    pgTarget: { host: PG_HOST, port: PG_PORT },
    redis: backend,
    redisToken: 'rebuild-token',
  });
  redis = createUpstash({
    url: bridge.env.UPSTASH_REDIS_REST_URL,
    token: bridge.env.UPSTASH_REDIS_REST_TOKEN,
    timeoutMs: 5000,
  });
  adapters = await startAnalyticsAdapters({ pgName: 'counter_rebuild', chDatabase: 'sluice_it_rebuild' });
  db = createPostgresPool(await freshDatabase('counter_rebuild_marker'), 2);
});

afterAll(async () => {
  await db?.pool.end();
  await adapters?.close();
  await bridge?.close();
  await backend?.close();
});

/** What an ordinary request leaves behind: counted at admission and settlement, and one log row. */
async function request(limiter: Limiter, at: number, tokens: number, latencyMs = 200) {
  const admission = await limiter.admit(subject, at, { failClosed: true });
  expect(admission.ok).toBe(true);
  await limiter.addTokens(subject, tokens, at + latencyMs);
  return requestLogRecord({
    createdAt: new Date(at),
    userId: USER,
    apiKeyId: KEY,
    weightedTokens: tokens,
    totalTokens: tokens,
    latencyMs,
  });
}

const refusedRow = (at: number) =>
  requestLogRecord({
    createdAt: new Date(at),
    userId: USER,
    apiKeyId: KEY,
    statusCode: 429,
    errorType: 'rate_limit_error',
    uncounted: true,
  });

const usageOf = async (limiter: Limiter, at: number) => {
  const report = await limiter.readUsage(subject, at);
  const weekly = report.limits.find((l) => l.window === 'weekly');
  return { ...report.usage, weekly: weekly?.used };
};

describe.each([
  'pg-pool',
  'clickhouse',
] as const)('limit counters rebuilt from the request log (%s)', (adapter) => {
  it('marks a first start, rebuilds what a loss took, counts what came after once, and holds a rebuild to one console', async () => {
    await runCommand(backend, ['FLUSHDB']);
    const log = adapters.stores[adapter].requests;
    const deps = { redis, log, marker: storeMarker(db.db, `redis_epoch_${adapter}`), delayMs: DELAY_MS };
    const limiter = createLimiter({ redis, limitsOf: async () => limits, timeoutMs: 5000, warn: () => {} });

    // A first start (or an upgrade): nothing is rebuilt, the mark is set in both stores.
    expect(await keepCounters(deps, T - 5 * HOUR)).toEqual({ state: 'marked' });
    expect(await keepCounters(deps, T - 5 * HOUR)).toEqual({ state: 'intact' });

    const before = [
      await request(limiter, Date.parse('2026-11-05T12:00:00Z'), 7), // this month only
      await request(limiter, Date.parse('2026-11-17T12:00:00Z'), 50), // this week
      await request(limiter, T - 3 * HOUR, 100),
      await request(limiter, T - 2 * HOUR, 100),
      refusedRow(T - 2 * HOUR),
    ];
    // Admitted before the loss, its answer ends after it: its tokens are counted live.
    const inFlight = requestLogRecord({
      createdAt: new Date(T - 1_000),
      userId: USER,
      apiKeyId: KEY,
      weightedTokens: 40,
      totalTokens: 40,
      latencyMs: 5_000,
    });
    expect((await limiter.admit(subject, T - 1_000, { failClosed: true })).ok).toBe(true);
    await log.insert(before);
    const counted = await usageOf(limiter, T - 500);
    expect(counted).toEqual({
      requests_today: 3,
      requests_month: 5,
      tokens_today: 200,
      tokens_month: 257,
      weekly: 250,
    });

    // The loss: Redis comes back empty. The first counter write stamps when counting began again.
    await runCommand(backend, ['FLUSHDB']);
    const after = await request(limiter, T, 30);
    expect(String(await redis.get(COUNTING_SINCE_KEY))).toBe(String(T));
    await limiter.addTokens(subject, 40, T + 4_000);
    await log.insert([after, inFlight]);
    expect(await usageOf(limiter, T + 4_500)).toEqual({
      requests_today: 1,
      requests_month: 1,
      tokens_today: 70,
      tokens_month: 70,
      weekly: 70,
    });

    // The rebuild waits for rows still on their way to the log, then adds back what was lost.
    expect(await keepCounters(deps, T + 1_000)).toEqual({ state: 'waiting', countingSince: T });
    const rebuilt = await keepCounters(deps, T + DELAY_MS);
    expect(rebuilt).toMatchObject({ state: 'rebuilt', countingSince: T, requests: 5, weightedTokens: 257 });
    expect(await usageOf(limiter, T + 6_000)).toEqual({
      requests_today: counted.requests_today + 1,
      requests_month: counted.requests_month + 1,
      tokens_today: counted.tokens_today + 70,
      tokens_month: counted.tokens_month + 70,
      weekly: (counted.weekly ?? 0) + 70,
    });
    expect(String(await redis.get(EPOCH_KEY))).toBe(await deps.marker.read());
    expect(await keepCounters(deps, T + 60_000)).toEqual({ state: 'intact' });

    // Another loss while a console holds the rebuild: the others wait for it.
    await runCommand(backend, ['FLUSHDB']);
    await redis.set('sluice:rl:rebuild-lock', 'another-console', { px: 60_000 });
    // No counter written since: the keeper stamps the instant itself.
    expect(await keepCounters(deps, T + HOUR)).toEqual({ state: 'waiting', countingSince: T + HOUR });
    expect(await keepCounters(deps, T + HOUR + DELAY_MS)).toEqual({ state: 'busy' });
    expect((await limiter.readUsage(subject, T + HOUR)).usage.requests_today).toBe(0);
  });
});

describe('a gateway finds the counters lost (ADMIT without the epoch mark)', () => {
  it('rebuilds them before it counts its first request, once for every request waiting on it', async () => {
    // A key and owner of their own: the request log is shared with the tests above.
    const KEY = '7d000000-0000-4000-8000-000000000002';
    const USER = '7e000000-0000-4000-8000-000000000002';
    const subject: LimitSubject = { keyId: KEY, userId: USER, rateLimitRpm: null };
    await runCommand(backend, ['FLUSHDB']);
    const log = adapters.stores['pg-pool'].requests;
    const marker = storeMarker(db.db, 'redis_epoch_gateway');
    const limiter = createLimiter({ redis, limitsOf: async () => limits, timeoutMs: 5000, warn: () => {} });
    let rebuilds = 0;
    const keeper = { redis, log, marker, delayMs: 0 };
    const anchor = createCounterAnchor(keeper, 5000, { now: () => T + 1_000 });
    const counted = async () => {
      rebuilds += 1;
      await anchor();
    };
    const gate = createGate({
      run: (call) => directScripts(redis)(call),
      board: createVersionBoard({ parts: [], read: async () => [], timeoutMs: 5000 }),
      limitsOf: async () => limits,
      onRefusal: () => {},
      warn: () => {},
      anchorCounters: counted,
    });
    const admit = (at: number) =>
      gate.admit({
        subject,
        route: null,
        cacheKey: null,
        failClosed: true,
        checkVersions: false,
        nowMs: at,
        background: () => {},
      });

    // A first start: the mark is set, nothing is rebuilt, the request counts.
    expect((await admit(T)).kind).toBe('admitted');
    expect(await marker.read()).not.toBeNull();
    await log.insert([
      requestLogRecord({
        createdAt: new Date(T),
        userId: USER,
        apiKeyId: KEY,
        weightedTokens: 11,
        totalTokens: 11,
      }),
    ]);
    // Redis loses everything; ten requests arrive together: one rebuild, each counted once.
    await runCommand(backend, ['FLUSHDB']);
    rebuilds = 0;
    const answers = await Promise.all(Array.from({ length: 10 }, () => admit(T + 1_000)));
    expect(answers.map((a) => a.kind)).toEqual(Array(10).fill('admitted'));
    expect(rebuilds).toBe(10);
    const usage = await limiter.readUsage(subject, T + 1_000);
    expect(usage.usage).toMatchObject({ requests_today: 11, tokens_today: 11 });
  });
});
