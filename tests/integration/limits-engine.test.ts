// The limits, GET /v1/usage and the fail-open/fail-closed answers when the stores fail
// (docs/limits.md), with admission as one Lua call. The limits engine over real Redis (via the
// sidecar, or straight over RESP in project direct, with the real @upstash/redis client), with
// time passed explicitly so windows and calendar resets are exact.
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { Redis } from '@upstash/redis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { LimitSet, LimitSubject, SubjectLimits } from '../../shared/src/limits/definitions';
import { createLimiter, type Limiter } from '../../shared/src/limits/limiter';
import type { RedisPort } from '../../shared/src/stores/redis-port';
import { createUpstash } from '../../shared/src/stores/upstash';
import { contractRedis } from '../helpers/contract-redis';

const T = Date.parse('2026-11-18T10:00:00.000Z'); // a Wednesday, on a bucket boundary of every window
const S = 1000;
const NO_LIMITS: LimitSet = { rules: [], budgets: [] };

let redis: Redis;
const warnings: string[] = [];

/** A REST client of a store at `url` (one that stops answering, below). */
function upstash(url: string, timeoutMs: number): Redis {
  return createUpstash({ url, token: inject('sidecarEnv').UPSTASH_REDIS_REST_TOKEN, timeoutMs });
}

/** Fresh ids per test: every test runs on counters of its own. */
function subject(rateLimitRpm: number | null = null): LimitSubject {
  return { keyId: randomUUID(), userId: randomUUID(), rateLimitRpm };
}

function limiterFor(limits: SubjectLimits, port: RedisPort = redis, timeoutMs = 2000): Limiter {
  return createLimiter({
    redis: port,
    limitsOf: async () => limits,
    timeoutMs,
    warn: (message) => warnings.push(message),
  });
}

const open = { failClosed: false };
const closed = { failClosed: true };

async function admitMany(limiter: Limiter, who: LimitSubject, count: number, at: number) {
  const results = [];
  for (let i = 0; i < count; i++) results.push(await limiter.admit(who, at, open));
  return results;
}

beforeAll(() => {
  redis = contractRedis();
});

describe('sliding windows', () => {
  it('admit up to the limit, then refuse naming the limit, with the exact Retry-After', async () => {
    const limiter = limiterFor({
      key: NO_LIMITS,
      user: { rules: [{ kind: 'requests', window: '1m', limit: 5 }], budgets: [] },
    });
    const who = subject();
    expect((await admitMany(limiter, who, 3, T)).every((r) => r.ok)).toBe(true);
    expect((await admitMany(limiter, who, 2, T + 30 * S)).every((r) => r.ok)).toBe(true);
    const refused = await limiter.admit(who, T + 40 * S, open);
    // The three of T leave the window at T + 60 s: 20 s from now.
    expect(refused).toEqual({ ok: false, label: 'user:requests/1m', retryAfterSeconds: 20 });
    expect((await limiter.admit(who, T + 60 * S, open)).ok).toBe(true);
  });

  it('check the key and its owner; a refused request counts on neither', async () => {
    const limits: SubjectLimits = {
      key: { rules: [{ kind: 'requests', window: '5m', limit: 2 }], budgets: [] },
      user: { rules: [{ kind: 'requests', window: '1h', limit: 10 }], budgets: [] },
    };
    const limiter = limiterFor(limits);
    const who = subject();
    await admitMany(limiter, who, 2, T);
    expect(await limiter.admit(who, T + S, open)).toMatchObject({ ok: false, label: 'key:requests/5m' });
    const owner = await limiterFor(limits).readUsage({ ...who, keyId: null }, T + 2 * S);
    expect(owner.scope).toBe('user');
    expect(owner.limits).toEqual([
      expect.objectContaining({
        kind: 'requests',
        window: '1h',
        limit: 10,
        used: 2,
        window_secs: 3600,
        resets_at: null,
      }),
    ]);
    expect(owner.usage.requests_today).toBe(2);
  });

  it('count rate_limit_rpm as the key’s requests/1m', async () => {
    const limiter = limiterFor({
      key: { rules: [{ kind: 'requests', window: '1m', limit: 2 }], budgets: [] },
      user: NO_LIMITS,
    });
    const who = subject(2);
    const results = await admitMany(limiter, who, 3, T);
    expect(results.map((r) => r.ok)).toEqual([true, true, false]);
    expect(results[2]).toMatchObject({ label: 'key:requests/1m', retryAfterSeconds: 60 });
  });

  it('refuse once weighted tokens reach a token limit, until they leave the window', async () => {
    const limiter = limiterFor({
      key: { rules: [{ kind: 'tokens', window: '5h', limit: 1000 }], budgets: [] },
      user: NO_LIMITS,
    });
    const who = subject();
    expect((await limiter.admit(who, T, open)).ok).toBe(true);
    await limiter.addTokens(who, 1200, T + S);
    const refused = await limiter.admit(who, T + 2 * S, open);
    // 5h in 60 buckets of 5 min: the tokens of T + 1 s leave with their bucket at T + 5 h.
    expect(refused).toEqual({ ok: false, label: 'key:tokens/5h', retryAfterSeconds: 5 * 3600 - 2 });
    expect((await limiter.admit(who, T + 5 * 3600 * S, open)).ok).toBe(true);
  });

  it('send x-ratelimit headers for the tightest request and token limits', async () => {
    const limiter = limiterFor({
      key: NO_LIMITS,
      user: {
        rules: [
          { kind: 'requests', window: '1m', limit: 5 },
          { kind: 'requests', window: '1d', limit: 100 },
          { kind: 'tokens', window: '1h', limit: 500 },
        ],
        budgets: [],
      },
    });
    const who = subject();
    await limiter.addTokens(who, 120, T);
    const admitted = await limiter.admit(who, T + S, open);
    expect(admitted).toEqual({
      ok: true,
      headers: {
        'x-ratelimit-limit-requests': '5',
        'x-ratelimit-remaining-requests': '4',
        'x-ratelimit-reset-requests': '60s',
        'x-ratelimit-limit-tokens': '500',
        'x-ratelimit-remaining-tokens': '380',
        'x-ratelimit-reset-tokens': '3599s',
      },
    });
  });
});

describe('calendar budgets (UTC)', () => {
  it('a daily budget refuses until UTC midnight, then frees', async () => {
    const limiter = limiterFor({
      key: NO_LIMITS,
      user: { rules: [], budgets: [{ period: 'daily', limitTokens: 1000 }] },
    });
    const who = subject();
    const lateEvening = Date.parse('2026-11-18T23:00:00.000Z');
    await limiter.addTokens(who, 1000, lateEvening);
    expect(await limiter.admit(who, lateEvening + S, open)).toEqual({
      ok: false,
      label: 'user:budget/daily',
      retryAfterSeconds: 3599,
    });
    expect((await limiter.admit(who, Date.parse('2026-11-19T00:00:00.000Z'), open)).ok).toBe(true);
  });

  it('a weekly budget frees on Monday, a monthly one on the 1st', async () => {
    const limiter = limiterFor({
      key: {
        rules: [],
        budgets: [
          { period: 'weekly', limitTokens: 10 },
          { period: 'monthly', limitTokens: 50 },
        ],
      },
      user: NO_LIMITS,
    });
    const who = subject();
    await limiter.addTokens(who, 10, T);
    expect(await limiter.admit(who, T, open)).toMatchObject({ ok: false, label: 'key:budget/weekly' });
    expect((await limiter.admit(who, Date.parse('2026-11-23T00:00:00Z'), open)).ok).toBe(true);
    await limiter.addTokens(who, 40, Date.parse('2026-11-23T00:00:01Z'));
    expect(await limiter.admit(who, Date.parse('2026-11-30T12:00:00Z'), open)).toMatchObject({
      ok: false,
      label: 'key:budget/monthly',
      retryAfterSeconds: 12 * 3600,
    });
    expect((await limiter.admit(who, Date.parse('2026-12-01T00:00:00Z'), open)).ok).toBe(true);
  });
});

describe('GET /v1/usage figures', () => {
  it('scope key: the key’s own limits, least left first, with calendar resets', async () => {
    const limits: SubjectLimits = {
      key: {
        rules: [
          { kind: 'requests', window: '1m', limit: 4 },
          { kind: 'tokens', window: '1d', limit: 100_000 },
        ],
        budgets: [{ period: 'monthly', limitTokens: 1000 }],
      },
      user: { rules: [{ kind: 'requests', window: '1m', limit: 100 }], budgets: [] },
    };
    const limiter = limiterFor(limits);
    const who = subject();
    await admitMany(limiter, who, 3, T);
    await limiter.addTokens(who, 900, T + S);
    const report = await limiter.readUsage(who, T + 2 * S);
    expect(report.scope).toBe('key');
    expect(report.usage).toEqual({
      requests_today: 3,
      requests_month: 3,
      tokens_today: 900,
      tokens_month: 900,
    });
    expect(report.limits).toEqual([
      {
        scope: 'key',
        kind: 'tokens',
        window: 'monthly',
        window_secs: null,
        limit: 1000,
        used: 900,
        resets_at: '2026-12-01T00:00:00.000Z',
      },
      { scope: 'key', kind: 'requests', window: '1m', window_secs: 60, limit: 4, used: 3, resets_at: null },
      {
        scope: 'key',
        kind: 'tokens',
        window: '1d',
        window_secs: 86400,
        limit: 100_000,
        used: 900,
        resets_at: null,
      },
    ]);
    // Reading is free: nothing was counted.
    expect((await limiter.readUsage(who, T + 3 * S)).usage.requests_today).toBe(3);
  });

  it('scope user when the key has no limits of its own; empty limits without owner limits', async () => {
    const who = subject();
    const limiter = limiterFor({ key: NO_LIMITS, user: NO_LIMITS });
    await admitMany(limiter, who, 2, T);
    const report = await limiter.readUsage(who, T + S);
    expect(report).toEqual({
      scope: 'user',
      usage: { requests_today: 2, requests_month: 2, tokens_today: 0, tokens_month: 0 },
      limits: [],
      tool_limits: [],
    });
  });
});

describe('when the stores fail', () => {
  let hung: Server;
  const sockets = new Set<Socket>();
  let hungUrl: string;

  beforeAll(async () => {
    // Accepts connections and never answers: a hung Redis bridge.
    hung = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const address = hung.address();
    hungUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => hung.close(() => resolve()));
  });

  const limited: SubjectLimits = {
    key: NO_LIMITS,
    user: { rules: [{ kind: 'requests', window: '1m', limit: 1 }], budgets: [] },
  };

  it('fail open by default, closed on demand, within the store deadline', async () => {
    const limiter = limiterFor(limited, upstash(hungUrl, 30_000), 300);
    const started = Date.now();
    expect(await limiter.admit(subject(), T, open)).toEqual({ ok: true, headers: {} });
    expect(await limiter.admit(subject(), T, closed)).toEqual({
      ok: false,
      label: 'rate_limiter_unavailable',
      retryAfterSeconds: 30,
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(warnings).toContain('limit counters unavailable');
  });

  it('label budgets-only subjects budget_unavailable, and refuse nothing without limits', async () => {
    const port = upstash('http://127.0.0.1:9', 1000);
    const budgetsOnly = limiterFor(
      { key: NO_LIMITS, user: { rules: [], budgets: [{ period: 'daily', limitTokens: 5 }] } },
      port,
    );
    expect(await budgetsOnly.admit(subject(), T, closed)).toMatchObject({ label: 'budget_unavailable' });
    const unlimited = limiterFor({ key: NO_LIMITS, user: NO_LIMITS }, port);
    expect((await unlimited.admit(subject(), T, closed)).ok).toBe(true);
  });

  it('limits_unavailable when the definitions cannot be loaded; usage reads throw', async () => {
    const limiter = createLimiter({
      redis,
      limitsOf: () => Promise.reject(new Error('postgres down')),
      timeoutMs: 500,
      warn: () => {},
    });
    expect(await limiter.admit(subject(), T, open)).toEqual({ ok: true, headers: {} });
    expect(await limiter.admit(subject(), T, closed)).toEqual({
      ok: false,
      label: 'limits_unavailable',
      retryAfterSeconds: 30,
    });
    await expect(limiter.readUsage(subject(), T)).rejects.toThrow('postgres down');
    await expect(limiterFor(limited, upstash(hungUrl, 30_000), 200).readUsage(subject(), T)).rejects.toThrow(
      /did not answer/,
    );
  });
});

describe('repeat offenders', () => {
  it('are refused from memory until their limit frees, with a shrinking Retry-After', async () => {
    let scriptCalls = 0;
    const counting = new Proxy(redis, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== 'evalsha' && prop !== 'eval')
          return typeof value === 'function' ? value.bind(target) : value;
        return (...args: unknown[]) => {
          scriptCalls++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as RedisPort;
    const limiter = limiterFor(
      { key: NO_LIMITS, user: { rules: [{ kind: 'requests', window: '1m', limit: 1 }], budgets: [] } },
      counting,
    );
    const who = subject();
    await limiter.admit(who, T, open);
    expect(await limiter.admit(who, T + S, open)).toMatchObject({ ok: false, retryAfterSeconds: 59 });
    const callsAfterRefusal = scriptCalls;
    expect(await limiter.admit(who, T + 30 * S, open)).toMatchObject({
      ok: false,
      label: 'user:requests/1m',
      retryAfterSeconds: 30,
    });
    expect(scriptCalls).toBe(callsAfterRefusal);
    expect((await limiter.admit(who, T + 60 * S, open)).ok).toBe(true);
    expect(scriptCalls).toBe(callsAfterRefusal + 1);
  });
});
