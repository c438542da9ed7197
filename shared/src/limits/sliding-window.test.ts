import { describe, expect, it } from 'vitest';
import { expectSha1OfSource } from '../../test/stores/lua-sha1';
import { directScripts } from '../stores/lua-script';
import type { RedisPort } from '../stores/redis-port';
import { COUNTING_SINCE_KEY } from './counting-since';
import {
  bucketLeavesAtMs,
  createSlidingWindowLimiter,
  fits,
  resetMsFor,
  retryAfterMs,
  type SlidingWindowLimit,
  toRetryAfterSeconds,
  windowGeometry,
} from './sliding-window';
import { ADD_SCRIPT, CHECK_SCRIPT } from './sliding-window-scripts';

const MINUTE = { bucketMs: 1000, bucketsInWindow: 60 };
const T0 = 1_700_000_000_000; // a bucket boundary for 1 s buckets

/** A RedisPort that records script calls and answers from a queue. */
function fakeRedis(replies: unknown[] = []) {
  const calls: Array<{ sha: string; keys: string[]; args: string[] }> = [];
  const redis = {
    async evalsha(sha: string, keys: string[], args: string[]) {
      calls.push({ sha, keys, args });
      return replies.shift();
    },
    async eval() {
      throw new Error('unexpected EVAL');
    },
  } as unknown as RedisPort;
  return { redis, calls };
}

describe('sliding-window scripts', () => {
  it.each([CHECK_SCRIPT, ADD_SCRIPT])('$name carries the SHA-1 of its source', (script) => {
    expectSha1OfSource(script);
  });
});

describe('window geometry', () => {
  it('indexes buckets by floor(now / bucket) and counts buckets per window', () => {
    expect(windowGeometry(60_000, 1000, T0 + 999)).toEqual({
      bucketMs: 1000,
      bucketsInWindow: 60,
      current: T0 / 1000,
    });
    expect(windowGeometry(60_000, 1000, T0 + 1000).current).toBe(T0 / 1000 + 1);
    expect(windowGeometry(7 * 86_400_000, (7 * 86_400_000) / 60, T0).bucketsInWindow).toBe(60);
  });

  it('rejects windows that are not whole multiples of the bucket, and bad times', () => {
    expect(() => windowGeometry(60_000, 7000, T0)).toThrow(RangeError);
    expect(() => windowGeometry(500, 1000, T0)).toThrow(RangeError);
    expect(() => windowGeometry(60_000, 0, T0)).toThrow(RangeError);
    expect(() => windowGeometry(60_000, 1.5, T0)).toThrow(RangeError);
    expect(() => windowGeometry(60_000, 1000, Number.NaN)).toThrow(RangeError);
  });

  it('a bucket leaves the window at the start of bucket index + N', () => {
    expect(bucketLeavesAtMs(T0 / 1000, MINUTE)).toBe(T0 + 60_000);
  });
});

describe('fits', () => {
  it('request limits need room for the cost; checked-only limits need used < limit', () => {
    expect(fits(2, 3, 1)).toBe(true);
    expect(fits(3, 3, 1)).toBe(false);
    expect(fits(2, 3, 0)).toBe(true);
    expect(fits(3, 3, 0)).toBe(false);
    expect(fits(0, 0, 0)).toBe(false);
  });
});

describe('retryAfterMs', () => {
  const b0 = T0 / 1000;

  it('is 0 when the request already fits', () => {
    expect(retryAfterMs([[b0, 2]], MINUTE, 3, 1, T0)).toBe(0);
  });

  it('waits for the oldest bucket to leave the window (limit 3/min, all 3 in the first bucket)', () => {
    expect(retryAfterMs([[b0, 3]], MINUTE, 3, 1, T0 + 500)).toBe(59_500);
    expect(toRetryAfterSeconds(59_500)).toBe(60);
    expect(retryAfterMs([[b0, 3]], MINUTE, 3, 1, T0 + 30_000)).toBe(30_000);
  });

  it('frees just enough, oldest first, whatever order the buckets come in', () => {
    const buckets: Array<[number, number]> = [
      [b0 + 20, 1],
      [b0, 1],
      [b0 + 10, 1],
    ];
    // limit 3, cost 1: dropping bucket b0 is enough.
    expect(retryAfterMs(buckets, MINUTE, 3, 1, T0 + 25_000)).toBe(35_000);
    // limit 3, cost 2: b0 and b0+10 must go.
    expect(retryAfterMs(buckets, MINUTE, 3, 2, T0 + 25_000)).toBe(45_000);
  });

  it('for a checked-only token limit, waits until used < limit', () => {
    const buckets: Array<[number, number]> = [
      [b0, 600],
      [b0 + 5, 500],
    ];
    expect(retryAfterMs(buckets, MINUTE, 1000, 0, T0 + 10_000)).toBe(50_000); // 500 < 1000
    expect(retryAfterMs(buckets, MINUTE, 500, 0, T0 + 10_000)).toBe(55_000); // only 0 < 500
  });

  it('is null when the request can never fit', () => {
    expect(retryAfterMs([[b0, 1]], MINUTE, 3, 4, T0)).toBeNull();
    expect(retryAfterMs([], MINUTE, 0, 0, T0)).toBeNull();
  });
});

describe('toRetryAfterSeconds and resetMsFor', () => {
  it('rounds up to whole seconds, at least 1', () => {
    expect(toRetryAfterSeconds(0)).toBe(1);
    expect(toRetryAfterSeconds(1)).toBe(1);
    expect(toRetryAfterSeconds(1000)).toBe(1);
    expect(toRetryAfterSeconds(1001)).toBe(2);
  });

  it('reset is when the newest bucket leaves, 0 with nothing used', () => {
    expect(resetMsFor(-1, MINUTE, T0)).toBe(0);
    expect(resetMsFor(T0 / 1000 + 2, MINUTE, T0 + 2500)).toBe(59_500);
  });
});

describe('createSlidingWindowLimiter (script arguments and reply decoding)', () => {
  const limits: SlidingWindowLimit[] = [
    { label: 'user:requests/1m', key: 'k:a', windowMs: 60_000, bucketMs: 1000, limit: 10, cost: 1 },
    { label: 'user:tokens/1h', key: 'k:b', windowMs: 3_600_000, bucketMs: 60_000, limit: 1000, cost: 0 },
  ];

  it('allows with no limits without calling Redis', async () => {
    const { redis, calls } = fakeRedis();
    expect(await createSlidingWindowLimiter(directScripts(redis)).check([], T0)).toEqual({
      allowed: true,
      states: [],
    });
    expect(calls).toEqual([]);
  });

  it('sends integers only: count, then current bucket, N, limit, cost, expiry per limit, then the time', async () => {
    const { redis, calls } = fakeRedis([[1, [4, T0 / 1000, []], [0, -1, []]]]);
    const result = await createSlidingWindowLimiter(directScripts(redis)).check(limits, T0 + 250);
    expect(calls).toEqual([
      {
        sha: CHECK_SCRIPT.sha1,
        keys: ['k:a', 'k:b', COUNTING_SINCE_KEY],
        args: [
          '2',
          String(T0 / 1000),
          '60',
          '10',
          '1',
          '61000',
          String(Math.floor(T0 / 60_000)),
          '60',
          '1000',
          '0',
          '3660000',
          String(T0 + 250),
        ],
      },
    ]);
    expect(result).toEqual({
      allowed: true,
      states: [
        { label: 'user:requests/1m', used: 4, limit: 10, resetMs: 59_750 },
        { label: 'user:tokens/1h', used: 0, limit: 1000, resetMs: 0 },
      ],
    });
  });

  it('decodes a refusal, naming the refusing limit with the longest wait', async () => {
    const b = T0 / 1000;
    const h = Math.floor(T0 / 60_000); // this hour-window bucket began 20 s before T0
    const { redis } = fakeRedis([[0, [10, b + 5, [b, 4, b + 5, 6]], [1500, h, [h, 1500]]]]);
    const result = await createSlidingWindowLimiter(directScripts(redis)).check(limits, T0 + 10_000);
    expect(result).toMatchObject({ allowed: false, refusedBy: 'user:tokens/1h', retryAfterSeconds: 3570 });
    const { redis: r2 } = fakeRedis([[0, [10, b + 5, [b, 4, b + 5, 6]], [10, h, []]]]);
    expect(await createSlidingWindowLimiter(directScripts(r2)).check(limits, T0 + 10_000)).toMatchObject({
      allowed: false,
      refusedBy: 'user:requests/1m',
      retryAfterSeconds: 50,
    });
  });

  it('refuses a key listed twice in one check', async () => {
    const { redis } = fakeRedis();
    await expect(
      createSlidingWindowLimiter(directScripts(redis)).check([limits[0]!, limits[0]!], T0),
    ).rejects.toThrow(/twice/);
  });

  it('add rounds amounts up, skips zero amounts, refuses non-numbers and does not call Redis for nothing', async () => {
    const { redis, calls } = fakeRedis([1]);
    const limiter = createSlidingWindowLimiter(directScripts(redis));
    await limiter.add([{ key: 'k:z', windowMs: 60_000, bucketMs: 1000, amount: 0 }], T0);
    expect(calls).toEqual([]);
    await limiter.add(
      [
        { key: 'k:z', windowMs: 60_000, bucketMs: 1000, amount: 0 },
        { key: 'k:t', windowMs: 60_000, bucketMs: 1000, amount: 12.2 },
      ],
      T0,
    );
    expect(calls).toEqual([
      {
        sha: ADD_SCRIPT.sha1,
        keys: ['k:t', COUNTING_SINCE_KEY],
        args: ['1', String(T0 / 1000), '60', '13', '61000', String(T0)],
      },
    ]);
    await expect(
      limiter.add([{ key: 'k', windowMs: 60_000, bucketMs: 1000, amount: Number.NaN }], T0),
    ).rejects.toThrow(RangeError);
  });

  it('add passes a give-back (negative amount) rounded up, so no more than reserved goes back', async () => {
    const { redis, calls } = fakeRedis([1]);
    const limiter = createSlidingWindowLimiter(directScripts(redis));
    await limiter.add([{ key: 'k:r', windowMs: 60_000, bucketMs: 1000, amount: -12.7 }], T0);
    expect(calls).toEqual([
      {
        sha: ADD_SCRIPT.sha1,
        keys: ['k:r', COUNTING_SINCE_KEY],
        args: ['1', String(T0 / 1000), '60', '-12', '61000', String(T0)],
      },
    ]);
  });
});
