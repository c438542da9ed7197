import { describe, expect, it } from 'vitest';
import { createRouteCaps, routeCapKeys, routeCapLimits } from './route-caps';
import type {
  SlidingWindowEntry,
  SlidingWindowLimit,
  SlidingWindowLimiter,
  SlidingWindowResult,
} from './sliding-window';

function fakeLimiter(result: SlidingWindowResult = { allowed: true, states: [] }) {
  const checks: SlidingWindowLimit[][] = [];
  const adds: SlidingWindowEntry[][] = [];
  const limiter: SlidingWindowLimiter = {
    async check(limits) {
      checks.push([...limits]);
      return result;
    },
    async add(entries) {
      adds.push([...entries]);
    },
  };
  return { limiter, checks, adds };
}

describe('route cap keys and limits', () => {
  it('builds sluice:rl:route:<id>:req / :tok, or under another prefix', () => {
    expect(routeCapKeys('r1')).toEqual({ req: 'sluice:rl:route:r1:req', tok: 'sluice:rl:route:r1:tok' });
    expect(routeCapKeys('r1', 'p')).toEqual({ req: 'p:route:r1:req', tok: 'p:route:r1:tok' });
  });

  it('RPM counts a request; TPM is checked only; both over a 1-minute window of 1-second buckets', () => {
    expect(routeCapLimits({ routeId: 'r', rpmCap: 10, tpmCap: 5000 })).toEqual([
      {
        label: 'route:requests/1m',
        key: 'sluice:rl:route:r:req',
        windowMs: 60_000,
        bucketMs: 1000,
        limit: 10,
        cost: 1,
      },
      {
        label: 'route:tokens/1m',
        key: 'sluice:rl:route:r:tok',
        windowMs: 60_000,
        bucketMs: 1000,
        limit: 5000,
        cost: 0,
      },
    ]);
    expect(routeCapLimits({ routeId: 'r', rpmCap: null, tpmCap: 7 }).map((l) => l.label)).toEqual([
      'route:tokens/1m',
    ]);
    expect(routeCapLimits({ routeId: 'r', rpmCap: 0, tpmCap: null }).map((l) => l.limit)).toEqual([0]);
    expect(routeCapLimits({ routeId: 'r', rpmCap: null, tpmCap: null })).toEqual([]);
  });
});

describe('createRouteCaps', () => {
  it('does not call the limiter for an uncapped route', async () => {
    const { limiter, checks, adds } = fakeLimiter();
    const caps = createRouteCaps(limiter);
    expect(await caps.admit({ routeId: 'r', rpmCap: null, tpmCap: null }, 0)).toEqual({ ok: true });
    await caps.addTokens('r', 0, 0);
    expect(checks).toEqual([]);
    expect(adds).toEqual([]);
  });

  it('maps a refusal to its label and Retry-After', async () => {
    const { limiter } = fakeLimiter({
      allowed: false,
      refusedBy: 'route:tokens/1m',
      retryAfterSeconds: 12,
      states: [],
    });
    const caps = createRouteCaps(limiter, { keyPrefix: 'x' });
    expect(await caps.admit({ routeId: 'r', rpmCap: 5, tpmCap: 10 }, 0)).toEqual({
      ok: false,
      label: 'route:tokens/1m',
      retryAfterSeconds: 12,
    });
  });

  it('adds tokens to the :tok counter', async () => {
    const { limiter, adds } = fakeLimiter();
    await createRouteCaps(limiter, { keyPrefix: 'x' }).addTokens('r', 42.5, 1234);
    expect(adds).toEqual([[{ key: 'x:route:r:tok', windowMs: 60_000, bucketMs: 1000, amount: 42.5 }]]);
  });
});
