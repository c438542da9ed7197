import { describe, expect, it } from 'vitest';
import { createUpstreamListCache, type ListCacheStore, type ListRequest } from './list-cache';

/** Redis as the cache uses it (MGET, SET … PX), expiring on the test's clock. */
function memoryStore(clock: () => number) {
  const values = new Map<string, { value: string; until: number }>();
  const calls = { mget: 0, set: 0 };
  const store: ListCacheStore = {
    async mget(keys) {
      calls.mget += 1;
      return keys.map((key) => {
        const entry = values.get(key);
        return entry && entry.until > clock() ? entry.value : null;
      });
    },
    async set(key, value, ttlMs) {
      calls.set += 1;
      values.set(key, { value, until: clock() + ttlMs });
    },
  };
  return { store, calls, keys: () => [...values.keys()] };
}

function setup(options: { maxEntries?: number } = {}) {
  let now = 1_000_000;
  let version: string | null = '7';
  const listeners: Array<() => void> = [];
  const redis = memoryStore(() => now);
  const isolate = () =>
    createUpstreamListCache({
      store: redis.store,
      version: () => version,
      onVersionChange: (listener) => void listeners.push(listener),
      now: () => now,
      ...options,
    });
  return {
    redis,
    isolate,
    advance: (ms: number) => {
      now += ms;
    },
    moveVersion: (next: string | null) => {
      version = next;
      for (const listener of listeners) listener();
    },
  };
}

const request = (over: Partial<ListRequest> = {}): ListRequest => ({
  serverId: 'srv',
  method: 'prompts/list',
  cursor: null,
  userId: 'alice',
  credential: 'shared-secret',
  ...over,
});
const list = (ttlMs: unknown, cacheScope: unknown = 'public') => ({
  resultType: 'complete',
  prompts: [{ name: 'p' }],
  ttlMs,
  cacheScope,
});

describe('the upstream list cache', () => {
  it('serves a public result to every user and isolate for its ttlMs, saying what is left of it', async () => {
    const t = setup();
    const first = t.isolate();
    const miss = await first.lookup(request());
    expect(miss.cached).toBeNull();
    expect(await miss.keep(list(1_000))).toEqual({ ttlMs: 1_000, cacheScope: 'public' });
    t.advance(400);
    const bob = await first.lookup(request({ userId: 'bob', credential: 'other' }));
    expect(bob.cached).toEqual({ result: { ...list(600) }, ttlMs: 600, cacheScope: 'public' });
    // Another isolate (or gateway process) finds it in Redis.
    t.advance(350);
    const elsewhere = await t.isolate().lookup(request({ userId: 'carol' }));
    expect(elsewhere.cached?.ttlMs).toBe(250);
    t.advance(250);
    expect((await first.lookup(request())).cached).toBeNull();
    expect((await t.isolate().lookup(request())).cached).toBeNull();
  });

  it('keeps a private result for its user and credential alone', async () => {
    const t = setup();
    const cache = t.isolate();
    await (await cache.lookup(request())).keep(list(5_000, 'private'));
    expect((await cache.lookup(request())).cached?.cacheScope).toBe('private');
    expect((await t.isolate().lookup(request())).cached?.ttlMs).toBe(5_000);
    expect((await cache.lookup(request({ userId: 'bob' }))).cached).toBeNull();
    expect((await cache.lookup(request({ credential: 'a new token' }))).cached).toBeNull();
    // A scope the server did not say is private.
    await (await cache.lookup(request({ serverId: 'other' }))).keep({ prompts: [], ttlMs: 5_000 });
    expect((await cache.lookup(request({ serverId: 'other', userId: 'bob' }))).cached).toBeNull();
  });

  it('keeps nothing for ttlMs 0, absent or negative, nor an input-required round', async () => {
    const t = setup();
    const cache = t.isolate();
    for (const ttl of [0, undefined, -5, 'soon']) {
      expect(await (await cache.lookup(request())).keep(list(ttl))).toEqual({
        ttlMs: 0,
        cacheScope: 'public',
      });
    }
    const round = { resultType: 'input_required', ttlMs: 1_000, cacheScope: 'public' };
    expect((await (await cache.lookup(request())).keep(round)).ttlMs).toBe(0);
    expect(t.redis.calls.set).toBe(0);
    expect((await cache.lookup(request())).cached).toBeNull();
  });

  it('asks Redis nothing for a server and method whose last result was not reusable', async () => {
    const t = setup();
    const cache = t.isolate();
    await (await cache.lookup(request())).keep(list(0));
    const before = t.redis.calls.mget;
    const again = await cache.lookup(request({ userId: 'bob' }));
    expect(t.redis.calls.mget).toBe(before);
    // Until one is: the next answer is looked at anyway.
    await again.keep(list(1_000));
    expect((await t.isolate().lookup(request())).cached?.ttlMs).toBe(1_000);
    expect((await cache.lookup(request({ method: 'resources/list' }))).cached).toBeNull();
    expect(t.redis.calls.mget).toBe(before + 2);
  });

  it('keys by method and page, and by the registry version: a console change is fetched afresh', async () => {
    const t = setup();
    const cache = t.isolate();
    await (await cache.lookup(request({ cursor: 'page-2' }))).keep(list(10_000));
    expect((await cache.lookup(request())).cached).toBeNull();
    expect((await cache.lookup(request({ method: 'resources/list', cursor: 'page-2' }))).cached).toBeNull();
    expect((await cache.lookup(request({ cursor: 'page-2' }))).cached).not.toBeNull();
    expect(t.redis.keys()).toEqual([
      expect.stringMatching(/^sluice:mcp:list:7:srv:prompts\/list:[0-9a-f]{32}:public$/),
    ]);
    t.moveVersion('8');
    expect((await cache.lookup(request({ cursor: 'page-2' }))).cached).toBeNull();
    // A result fetched across a move is not kept anywhere: it may predate the change.
    const before = await cache.lookup(request({ cursor: 'page-3' }));
    const sets = t.redis.calls.set;
    t.moveVersion('9');
    await before.keep(list(10_000));
    expect(t.redis.calls.set).toBe(sets);
    t.moveVersion(null);
    const unknown = await cache.lookup(request());
    await unknown.keep(list(10_000));
    expect(t.redis.calls.set).toBe(1);
  });

  it('holds a bounded number of entries in the isolate', async () => {
    const t = setup({ maxEntries: 2 });
    const cache = t.isolate();
    for (const serverId of ['a', 'b', 'c'])
      await (await cache.lookup(request({ serverId }))).keep(list(10_000));
    const before = t.redis.calls.mget;
    expect((await cache.lookup(request({ serverId: 'c' }))).cached).not.toBeNull();
    expect(t.redis.calls.mget).toBe(before);
    // The oldest left the isolate; Redis still has it.
    expect((await cache.lookup(request({ serverId: 'a' }))).cached).not.toBeNull();
    expect(t.redis.calls.mget).toBe(before + 1);
  });

  it('is a miss, not a failure, when Redis is down', async () => {
    const errors: unknown[] = [];
    const down: ListCacheStore = {
      mget: () => Promise.reject(new Error('down')),
      set: () => Promise.reject(new Error('down')),
    };
    const cache = createUpstreamListCache({
      store: down,
      version: () => '1',
      onVersionChange: () => {},
      onError: (error) => errors.push(error),
    });
    const lookup = await cache.lookup(request());
    expect(lookup.cached).toBeNull();
    expect(await lookup.keep(list(1_000))).toEqual({ ttlMs: 1_000, cacheScope: 'public' });
    expect(errors).toHaveLength(2);
    // The isolate kept it all the same.
    expect((await cache.lookup(request())).cached).not.toBeNull();
  });
});
