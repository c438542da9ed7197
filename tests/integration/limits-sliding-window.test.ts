// Lua scripts run with EVALSHA (the SHA checked against SCRIPT LOAD) at admission; route caps
// (RPM and TPM per route over a sliding minute) and their Retry-After.
// Real Redis (integration database 1) through the real @upstash/redis client and the dev sidecar,
// and straight over RESP (project direct): tests/helpers/contract-redis.ts.
import { randomUUID } from 'node:crypto';
import type { Redis } from '@upstash/redis';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRouteCaps, routeCapKeys } from '../../shared/src/limits/route-caps';
import {
  addToCounters,
  createSlidingWindowLimiter,
  type SlidingWindowLimit,
  type SlidingWindowLimiter,
} from '../../shared/src/limits/sliding-window';
import { ADD_SCRIPT, CHECK_SCRIPT } from '../../shared/src/limits/sliding-window-scripts';
import { directScripts } from '../../shared/src/stores/lua-script';
import { contractRedis } from '../helpers/contract-redis';

/** A bucket boundary for 1-second buckets; tests pass time explicitly. */
const T = 1_800_000_000_000;

let redis: Redis;
let limiter: SlidingWindowLimiter;

/** Keys of one test only: tests share database 1 with the rest of the run. */
const prefix = () => `it:sw:${randomUUID()}`;

/** The buckets as stored: bucket index → count (the hash also keeps its totals: t, o, n). */
async function buckets(key: string): Promise<Record<string, number>> {
  const stored = (await redis.hgetall<Record<string, number>>(key)) ?? {};
  return Object.fromEntries(Object.entries(stored).filter(([field]) => /^-?\d+$/.test(field)));
}

function perMinute(key: string, limit: number, label = 'requests/1m'): SlidingWindowLimit {
  return { label, key, windowMs: 60_000, bucketMs: 1000, limit, cost: 1 };
}

beforeAll(() => {
  redis = contractRedis();
  limiter = createSlidingWindowLimiter(directScripts(redis));
});

describe('sliding-window scripts', () => {
  it.each([
    CHECK_SCRIPT,
    ADD_SCRIPT,
  ])('$name: the stored SHA-1 is what SCRIPT LOAD returns', async (script) => {
    expect(await redis.scriptLoad(script.source)).toBe(script.sha1);
  });
});

describe('sliding-window limiter on real Redis', () => {
  it('counts the request only when every limit passes', async () => {
    const p = prefix();
    const limits = [perMinute(`${p}:a`, 5, 'a'), perMinute(`${p}:b`, 1, 'b')];
    expect(await limiter.check(limits, T)).toEqual({
      allowed: true,
      states: [
        { label: 'a', used: 1, limit: 5, resetMs: 60_000 },
        { label: 'b', used: 1, limit: 1, resetMs: 60_000 },
      ],
    });
    const refused = await limiter.check(limits, T + 2000);
    expect(refused).toEqual({
      allowed: false,
      refusedBy: 'b',
      retryAfterSeconds: 58,
      states: [
        { label: 'a', used: 1, limit: 5, resetMs: 58_000 },
        { label: 'b', used: 1, limit: 1, resetMs: 58_000 },
      ],
    });
    expect(await buckets(`${p}:a`)).toEqual({ [T / 1000]: 1 });
    expect(await buckets(`${p}:b`)).toEqual({ [T / 1000]: 1 });
  });

  it('is exact at the window edge: 3/min, the 4th waits for the first bucket to leave', async () => {
    const key = `${prefix()}:req`;
    const limits = [perMinute(key, 3)];
    for (const at of [T, T + 10_000, T + 20_000])
      expect((await limiter.check(limits, at)).allowed).toBe(true);
    expect(await limiter.check(limits, T + 30_500)).toMatchObject({
      allowed: false,
      refusedBy: 'requests/1m',
      retryAfterSeconds: 30, // 29.5 s until bucket T leaves at T + 60 s
      states: [{ used: 3, limit: 3, resetMs: 49_500 }],
    });
    expect(await limiter.check(limits, T + 59_999)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    expect(await limiter.check(limits, T + 60_000)).toMatchObject({ allowed: true, states: [{ used: 3 }] });
    // The write dropped the bucket that left the window and refreshed the expiry.
    expect(Object.keys(await buckets(key)).sort()).toEqual(
      [T / 1000 + 10, T / 1000 + 20, T / 1000 + 60].map(String),
    );
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(61_000);
    expect(await limiter.check(limits, T + 60_001)).toMatchObject({ allowed: false, retryAfterSeconds: 10 });
  });

  it('a checked-only limit refuses once used ≥ limit, and frees when enough usage leaves', async () => {
    const key = `${prefix()}:tok`;
    const tokens: SlidingWindowLimit = {
      label: 'tokens/1m',
      key,
      windowMs: 60_000,
      bucketMs: 1000,
      limit: 100,
      cost: 0,
    };
    await limiter.add([{ key, windowMs: 60_000, bucketMs: 1000, amount: 60 }], T);
    await limiter.add([{ key, windowMs: 60_000, bucketMs: 1000, amount: 40.2 }], T + 5000); // rounds up to 41
    expect(await buckets(key)).toEqual({ [T / 1000]: 60, [T / 1000 + 5]: 41 });
    expect(await limiter.check([tokens], T + 6000)).toEqual({
      allowed: false,
      refusedBy: 'tokens/1m',
      retryAfterSeconds: 54, // 101 → 41 < 100 once bucket T leaves
      states: [{ label: 'tokens/1m', used: 101, limit: 100, resetMs: 59_000 }],
    });
    expect(await limiter.check([tokens], T + 60_000)).toMatchObject({
      allowed: true,
      states: [{ used: 41 }],
    });
    expect(await buckets(key)).toEqual({ [T / 1000]: 60, [T / 1000 + 5]: 41 }); // cost 0: nothing written
  });

  it('add drops fields that left the window once the hash outgrows it', async () => {
    const key = `${prefix()}:add`;
    const entry = { key, windowMs: 3000, bucketMs: 1000, amount: 1 };
    for (const at of [T, T + 1000, T + 2000]) await limiter.add([entry], at);
    expect(Object.keys(await buckets(key))).toHaveLength(3);
    await limiter.add([entry, { ...entry, key: `${key}:other`, amount: 0 }], T + 3000);
    expect(await buckets(key)).toEqual({ [T / 1000 + 1]: 1, [T / 1000 + 2]: 1, [T / 1000 + 3]: 1 });
    expect(await redis.exists(`${key}:other`)).toBe(0);
  });

  it('keeps running totals, so a check reads a few fields; a hash from before totals is summed once', async () => {
    const key = `${prefix()}:totals`;
    // As an earlier release left it: buckets only.
    await redis.hset(key, { [T / 1000]: 2, [T / 1000 + 10]: 3 });
    const limit = perMinute(key, 6);
    expect(await limiter.check([limit], T + 20_000)).toMatchObject({ allowed: true, states: [{ used: 6 }] });
    const stored = await redis.hgetall<Record<string, number>>(key);
    expect(stored).toMatchObject({ t: 6, o: T / 1000 - 39, n: T / 1000 + 20 });
    // Once the first bucket leaves, the total drops by it; the check after that drops it.
    expect(await limiter.check([limit], T + 60_500)).toMatchObject({ allowed: true, states: [{ used: 5 }] });
    expect(await buckets(key)).toEqual({ [T / 1000 + 10]: 3, [T / 1000 + 20]: 1, [T / 1000 + 60]: 1 });
    expect(await redis.hgetall<Record<string, number>>(key)).toMatchObject({ t: 5, o: T / 1000 + 1 });
  });

  it('after a long quiet spell counts only what is in the window again', async () => {
    const key = `${prefix()}:quiet`;
    const limit = perMinute(key, 2);
    expect((await limiter.check([limit], T)).allowed).toBe(true);
    expect((await limiter.check([limit], T + 1000)).allowed).toBe(true);
    expect((await limiter.check([limit], T + 2000)).allowed).toBe(false);
    // Ten minutes later (far more buckets than a window holds): the old buckets are gone.
    expect(await limiter.check([limit], T + 600_000)).toMatchObject({ allowed: true, states: [{ used: 1 }] });
    expect(await buckets(key)).toEqual({ [T / 1000 + 600]: 1 });
  });

  it('states decode to numbers through the Upstash client (integer-only replies)', async () => {
    const key = `${prefix()}:n`;
    const result = await limiter.check([perMinute(key, 1_000_000)], T + 999);
    expect(result).toEqual({
      allowed: true,
      states: [{ label: 'requests/1m', used: 1, limit: 1_000_000, resetMs: 59_001 }],
    });
  });
});

describe('reservations given back (negative ADD amounts, limits/reservation.ts)', () => {
  const run = () => directScripts(redis);
  const bucket = T / 1000;
  const minute = (key: string, current: number, amount: number) => ({
    key,
    current,
    bucketsInWindow: 60,
    expiryMs: 61_000,
    amount,
  });

  it('go back to the bucket they were taken in, and the real count goes in the current one', async () => {
    const key = `${prefix()}:give-back`;
    expect(await limiter.check([{ ...perMinute(key, 1000), cost: 400 }], T)).toMatchObject({ allowed: true });
    await addToCounters(run(), [minute(key, bucket + 5, 120), minute(key, bucket, -400)]);
    expect(await buckets(key)).toEqual({ [bucket]: 0, [bucket + 5]: 120 });
    // The running total follows: 880 more fit, 881 do not.
    expect(await limiter.check([{ ...perMinute(key, 1000), cost: 880 }], T + 6000)).toMatchObject({
      allowed: true,
      states: [{ used: 1000 }],
    });
    expect(await limiter.check([{ ...perMinute(key, 1000), cost: 1 }], T + 6000)).toMatchObject({
      allowed: false,
    });
  });

  it('never take a bucket below zero, nor write to a bucket that has left the window', async () => {
    const key = `${prefix()}:clamp`;
    await addToCounters(run(), [minute(key, bucket, 10)]);
    await addToCounters(run(), [minute(key, bucket, -50)]);
    expect(await buckets(key)).toEqual({ [bucket]: 0 });
    // Two minutes on, the reservation's bucket has gone: nothing to give back.
    await addToCounters(run(), [minute(key, bucket + 120, 7)]);
    await addToCounters(run(), [minute(key, bucket, -5)]);
    expect(await buckets(key)).toEqual({ [bucket + 120]: 7 });
    expect(await redis.hgetall<Record<string, number>>(key)).toMatchObject({ t: 7 });
  });

  it('on a calendar period: never below zero, and nothing written to a period that expired', async () => {
    const key = `${prefix()}:tok:2026-11-26`;
    const day = (amount: number) => ({ key, current: 0, bucketsInWindow: 1, expiryMs: 86_400_000, amount });
    await addToCounters(run(), [day(300)]);
    await addToCounters(run(), [day(-120)]);
    expect(await redis.hget(key, '0')).toBe(180);
    await addToCounters(run(), [day(-500)]);
    expect(await redis.hget(key, '0')).toBe(0);
    const gone = `${prefix()}:tok:2026-11-25`;
    await addToCounters(run(), [{ ...day(-10), key: gone }]);
    expect(await redis.exists(gone)).toBe(0);
  });
});

describe('route caps on real Redis', () => {
  it('a route with both caps null touches no Redis key', async () => {
    const keyPrefix = prefix();
    const caps = createRouteCaps(limiter, { keyPrefix });
    for (let i = 0; i < 5; i++) {
      expect(await caps.admit({ routeId: 'r1', rpmCap: null, tpmCap: null }, T + i)).toEqual({ ok: true });
    }
    const { req, tok } = routeCapKeys('r1', keyPrefix);
    expect(await redis.exists(req, tok)).toBe(0);
    expect(await redis.keys(`${keyPrefix}*`)).toEqual([]);
  });

  it('RPM cap: refuses with route:requests/1m once the minute is full', async () => {
    const caps = createRouteCaps(limiter, { keyPrefix: prefix() });
    const route = { routeId: 'r-rpm', rpmCap: 2, tpmCap: null };
    expect(await caps.admit(route, T)).toEqual({ ok: true });
    expect(await caps.admit(route, T + 15_000)).toEqual({ ok: true });
    expect(await caps.admit(route, T + 20_000)).toEqual({
      ok: false,
      label: 'route:requests/1m',
      retryAfterSeconds: 40,
    });
  });

  it('TPM cap: tokens added after responses refuse the next admit with route:tokens/1m', async () => {
    const keyPrefix = prefix();
    const caps = createRouteCaps(limiter, { keyPrefix });
    const route = { routeId: 'r-tpm', rpmCap: 100, tpmCap: 1000 };
    expect(await caps.admit(route, T)).toEqual({ ok: true });
    await caps.addTokens(route.routeId, 999, T + 1000);
    expect(await caps.admit(route, T + 2000)).toEqual({ ok: true }); // 999 < 1000
    await caps.addTokens(route.routeId, 1, T + 3000);
    expect(await caps.admit(route, T + 4000)).toEqual({
      ok: false,
      label: 'route:tokens/1m',
      retryAfterSeconds: 57, // the 999 tokens leave at T + 61 s
    });
    const { req, tok } = routeCapKeys(route.routeId, keyPrefix);
    const requests = Object.values(await buckets(req)).reduce((a, b) => a + b, 0);
    expect(requests).toBe(2); // the refused admit counted nothing
    expect(await buckets(tok)).toEqual({ [T / 1000 + 1]: 999, [T / 1000 + 3]: 1 });
    expect(await caps.admit(route, T + 61_000)).toEqual({ ok: true });
  });

  it('50 parallel admits against an RPM cap of 10 admit exactly 10', async () => {
    const keyPrefix = prefix();
    // Several clients, so the admits arrive over separate HTTP requests as well as pipelines.
    const clients = Array.from({ length: 5 }, () =>
      createRouteCaps(createSlidingWindowLimiter(directScripts(contractRedis())), { keyPrefix }),
    );
    const route = { routeId: 'r-burst', rpmCap: 10, tpmCap: 5000 };
    const decisions = await Promise.all(
      Array.from({ length: 50 }, (_, i) => clients[i % clients.length]!.admit(route, T + (i % 7) * 100)),
    );
    expect(decisions.filter((d) => d.ok)).toHaveLength(10);
    for (const d of decisions.filter((d) => !d.ok)) {
      expect(d).toEqual({ ok: false, label: 'route:requests/1m', retryAfterSeconds: 60 });
    }
    const stored = Object.values(await buckets(routeCapKeys(route.routeId, keyPrefix).req));
    expect(stored.reduce((a, b) => a + b, 0)).toBe(10);
  });
});
