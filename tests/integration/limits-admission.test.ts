// Admission on the hot path (docs/architecture.md, The hot path): one round trip before the
// upstream call checks the isolate's cache versions, every limit of key and owner (docs/limits.md),
// reads the response cache and the first route's caps; concurrent admissions share round trips. The
// gate (shared/src/limits/gate.ts) over the real Redis through the hot path's @upstash/redis client
// and the dev sidecar.
import { randomUUID } from 'node:crypto';
import type { Redis } from '@upstash/redis';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIT_SCRIPT } from '../../shared/src/limits/admission-script';
import type { LimitSubject, SubjectLimits } from '../../shared/src/limits/definitions';
import { createGate, type Gate, type GateAsk } from '../../shared/src/limits/gate';
import { releases } from '../../shared/src/limits/reservation';
import { routeCapKeys } from '../../shared/src/limits/route-caps';
import { addToCounters } from '../../shared/src/limits/sliding-window';
import { createScriptRunner } from '../../shared/src/runtime/script-pipeline';
import {
  createVersionBoard,
  readVersionsWith,
  type VersionBoard,
} from '../../shared/src/runtime/version-board';
import { directScripts } from '../../shared/src/stores/lua-script';
import { createRawUpstash, createUpstash } from '../../shared/src/stores/upstash';

const T = Date.parse('2026-11-18T10:00:00.000Z');
let redis: Redis;

/** The hot path's client, its pipelines counted (each exec is one round trip). */
function countedClient(timeoutMs = 5000) {
  const env = inject('sidecarEnv');
  const client = createRawUpstash({
    url: env.UPSTASH_REDIS_REST_URL,
    token: env.UPSTASH_REDIS_REST_TOKEN,
    timeoutMs,
  });
  const counted = { trips: 0, calls: 0 };
  const pipeline = client.pipeline.bind(client);
  client.pipeline = (() => {
    const p = pipeline();
    const exec = p.exec.bind(p);
    p.exec = ((options?: { keepErrors: true }) => {
      counted.trips += 1;
      counted.calls += p.length();
      return exec(options as { keepErrors: true });
    }) as typeof p.exec;
    return p;
  }) as typeof client.pipeline;
  return { client, counted };
}

interface Fixture {
  gate: Gate;
  board: VersionBoard;
  counted: { trips: number; calls: number };
  versionKey: string;
  warnings: string[];
  refusals: string[];
}

async function fixture(limits: SubjectLimits, options: { timeoutMs?: number } = {}): Promise<Fixture> {
  const { client, counted } = countedClient(options.timeoutMs);
  const versionKey = `it:adm:version:${randomUUID()}`;
  const board = createVersionBoard({
    parts: [{ name: 'limits', key: versionKey }],
    read: readVersionsWith(client),
    timeoutMs: 2000,
  });
  await board.ready();
  const runner = createScriptRunner(client, { timeoutMs: options.timeoutMs ?? 5000 });
  const warnings: string[] = [];
  const refusals: string[] = [];
  const gate = createGate({
    run: (call) => runner.run(call),
    board,
    limitsOf: async () => limits,
    onRefusal: (label) => refusals.push(label),
    warn: (message) => warnings.push(message),
  });
  counted.trips = 0;
  counted.calls = 0;
  return { gate, board, counted, versionKey, warnings, refusals };
}

function ask(subject: LimitSubject, extra: Partial<GateAsk> = {}): GateAsk {
  return {
    subject,
    route: null,
    cacheKey: null,
    failClosed: false,
    checkVersions: true,
    nowMs: T,
    background: () => undefined,
    ...extra,
  };
}

const subject = (): LimitSubject => ({ keyId: randomUUID(), userId: randomUUID(), rateLimitRpm: null });
const perMinute = (limit: number): SubjectLimits => ({
  key: { rules: [{ kind: 'requests', window: '1m', limit }], budgets: [] },
  user: { rules: [{ kind: 'requests', window: '1h', limit: 100 }], budgets: [] },
});

beforeAll(async () => {
  const env = inject('sidecarEnv');
  redis = createUpstash({
    url: env.UPSTASH_REDIS_REST_URL,
    token: env.UPSTASH_REDIS_REST_TOKEN,
    timeoutMs: 5000,
  });
  // As on a warm Redis: the round-trip counts below are about admissions, not the one-time
  // NOSCRIPT fallback a fresh Redis (or the embedded store) answers the first EVALSHA with.
  expect(await redis.scriptLoad(ADMIT_SCRIPT.source)).toBe(ADMIT_SCRIPT.sha1);
});

describe('the gate on Redis (real, and the embedded stand-in)', () => {
  it('admits in one round trip, with the rate-limit headers of the tightest limit', async () => {
    const f = await fixture(perMinute(2));
    const who = subject();
    const decision = await f.gate.admit(ask(who));
    expect(decision).toMatchObject({
      kind: 'admitted',
      firstRoute: 'unchecked',
      cached: null,
      headers: { 'x-ratelimit-limit-requests': '2', 'x-ratelimit-remaining-requests': '1' },
    });
    expect(f.counted).toEqual({ trips: 1, calls: 1 });
  });

  it('shares round trips between concurrent admissions, and counts each exactly', async () => {
    const f = await fixture(perMinute(30));
    const who = subject();
    const decisions = await Promise.all(Array.from({ length: 40 }, () => f.gate.admit(ask(who))));
    expect(decisions.filter((d) => d.kind === 'admitted')).toHaveLength(30);
    expect(decisions.filter((d) => d.kind === 'refused')).toHaveLength(10);
    expect(f.counted.calls).toBe(40);
    expect(f.counted.trips).toBeLessThan(40);
    expect(f.counted.trips).toBeLessThanOrEqual(2);
  });

  it('answers stale without counting anything when a version moved, and drops the part', async () => {
    const f = await fixture(perMinute(1));
    const who = subject();
    let dropped = 0;
    f.board.part('limits').onChange(() => {
      dropped += 1;
    });
    await redis.incr(f.versionKey);
    expect(await f.gate.admit(ask(who))).toEqual({ kind: 'stale', moved: ['limits'] });
    expect(dropped).toBe(1);
    // Nothing was counted: the one request the limit allows is still there.
    expect(await f.gate.admit(ask(who))).toMatchObject({ kind: 'admitted' });
    expect(await f.gate.admit(ask(who))).toMatchObject({ kind: 'refused', label: 'key:requests/1m' });
    expect(f.refusals).toEqual(['key:requests/1m']);
  });

  it('refuses a repeat offender from memory until the limit frees', async () => {
    const f = await fixture(perMinute(1));
    const who = subject();
    await f.gate.admit(ask(who));
    const refused = await f.gate.admit(ask(who, { nowMs: T + 10_000 }));
    expect(refused).toEqual({ kind: 'refused', label: 'key:requests/1m', retryAfterSeconds: 50 });
    const trips = f.counted.trips;
    expect(await f.gate.admit(ask(who, { nowMs: T + 20_000 }))).toMatchObject({ retryAfterSeconds: 40 });
    expect(f.counted.trips).toBe(trips);
  });

  it('reads the cache entry in the same round trip, and a hit skips the route caps', async () => {
    const f = await fixture(perMinute(10));
    const cacheKey = `it:adm:cache:${randomUUID()}`;
    const routeId = randomUUID();
    await redis.set(cacheKey, '{"body":"cached"}', { ex: 60 });
    const route = { routeId, rpmCap: 1, tpmCap: null };
    const hit = await f.gate.admit(ask(subject(), { cacheKey, route }));
    expect(hit).toMatchObject({ kind: 'admitted', cached: '{"body":"cached"}', firstRoute: 'unchecked' });
    expect(await redis.exists(routeCapKeys(routeId).req)).toBe(0);
    expect(f.counted.trips).toBe(1);
  });

  it('checks and counts the first route’s caps; a capped route still counts the limits', async () => {
    const f = await fixture(perMinute(10));
    const who = subject();
    const route = { routeId: randomUUID(), rpmCap: 1, tpmCap: null };
    expect(await f.gate.admit(ask(who, { route }))).toMatchObject({ firstRoute: { ok: true } });
    const capped = await f.gate.admit(ask(who, { route, nowMs: T + 1_000 }));
    expect(capped).toMatchObject({
      kind: 'admitted',
      firstRoute: { ok: false, label: 'route:requests/1m', retryAfterSeconds: 59 },
      headers: { 'x-ratelimit-remaining-requests': '8' },
    });
  });

  it('fails open, or closed for a limited caller, when Redis cannot be reached', async () => {
    const limits = perMinute(5);
    const unreachable = await fixture(limits, { timeoutMs: 300 });
    // A client pointed at a port nobody listens on.
    const dead = createRawUpstash({ url: 'http://127.0.0.1:9', token: 'x', timeoutMs: 300 });
    const runner = createScriptRunner(dead, { timeoutMs: 300 });
    const gate = createGate({
      run: (call) => runner.run(call),
      board: unreachable.board,
      limitsOf: async () => limits,
      onRefusal: () => undefined,
      warn: (message) => unreachable.warnings.push(message),
    });
    const route = { routeId: randomUUID(), rpmCap: 1, tpmCap: null };
    expect(await gate.admit(ask(subject(), { route }))).toEqual({
      kind: 'admitted',
      headers: {},
      firstRoute: { ok: true },
      cached: null,
      budget: null,
      reserved: [],
    });
    expect(await gate.admit(ask(subject(), { failClosed: true }))).toEqual({
      kind: 'refused',
      label: 'rate_limiter_unavailable',
      retryAfterSeconds: 30,
    });
    expect(unreachable.warnings).toContain('limit counters unavailable');
  });
});

describe('reservations: limits that never overshoot (limits/reservation.ts)', () => {
  /** A daily budget of 1,000 weighted tokens and a token rule of 5,000 an hour, on the key. */
  const budgeted: SubjectLimits = {
    key: {
      rules: [{ kind: 'tokens', window: '1h', limit: 5_000 }],
      budgets: [{ period: 'daily', limitTokens: 1_000 }],
    },
    user: { rules: [], budgets: [] },
  };

  it('100 concurrent admissions across two gateways against a budget that fits 10 admit exactly 10', async () => {
    const [one, two] = [await fixture(budgeted), await fixture(budgeted)];
    const who = subject();
    const decisions = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (i % 2 === 0 ? one : two).gate.admit(ask(who, { reserveTokens: 100 })),
      ),
    );
    const admitted = decisions.filter((d) => d.kind === 'admitted');
    expect(admitted).toHaveLength(10);
    expect(decisions.filter((d) => d.kind === 'refused').map((d) => d.kind === 'refused' && d.label)).toEqual(
      Array(90).fill('key:budget/daily'),
    );
    // Each admitted request holds its reservation on the budget and on the token rule.
    for (const d of admitted) {
      expect(d.kind === 'admitted' && d.reserved.map((r) => r.amount)).toEqual([100, 100]);
    }
  });

  it('a settlement that gives the reservation back and counts the real tokens frees the rest', async () => {
    const f = await fixture(budgeted);
    const who = subject();
    const first = await Promise.all(
      Array.from({ length: 12 }, () => f.gate.admit(ask(who, { reserveTokens: 100 }))),
    );
    const admitted = first.flatMap((d) => (d.kind === 'admitted' ? [d] : []));
    expect(admitted).toHaveLength(10);
    // Each used 40 of the 100 it reserved.
    const run = directScripts(redis);
    for (const d of admitted) {
      const actual = d.reserved.map((r) => ({ ...r, amount: 40 }));
      await addToCounters(run, [...actual, ...releases(d.reserved)]);
    }
    // The two refused found the budget full (of reservations): that is remembered for two
    // seconds only, as reservations come back. Then, 400 used: two reservations of 250 fit; the
    // rest are told to retry in 2 s, when what is in flight may have come back.
    // Full as counted: told when the day ends, the same from memory as from Redis.
    expect(await f.gate.admit(ask(who, { reserveTokens: 100, nowMs: T + 1_000 }))).toEqual({
      kind: 'refused',
      label: 'key:budget/daily',
      retryAfterSeconds: 14 * 3600 - 1,
    });
    const later = await Promise.all(
      Array.from({ length: 7 }, () => f.gate.admit(ask(who, { reserveTokens: 250, nowMs: T + 2_500 }))),
    );
    expect(later.filter((d) => d.kind === 'admitted')).toHaveLength(2);
    expect(later.filter((d) => d.kind === 'refused')).toHaveLength(5);
    expect(later.find((d) => d.kind === 'refused')).toEqual({
      kind: 'refused',
      label: 'key:budget/daily',
      retryAfterSeconds: 2,
    });
  });

  it('a reservation larger than the whole budget passes an unused budget only', async () => {
    const f = await fixture(budgeted);
    const who = subject();
    const big = await f.gate.admit(ask(who, { reserveTokens: 50_000 }));
    expect(big).toMatchObject({ kind: 'admitted' });
    expect(big.kind === 'admitted' && big.reserved.map((r) => r.amount)).toEqual([5_000, 1_000]);
    expect(await f.gate.admit(ask(who, { reserveTokens: 1 }))).toMatchObject({
      kind: 'refused',
      label: 'key:budget/daily',
    });
  });
});
