import { describe, expect, it } from 'vitest';
import type { ResolvedModel } from './resolve';
import { createCachedResolver, ROUTING_VERSION_KEY } from './route-cache';

function setup(options: { redisFails?: boolean } = {}) {
  let clock = 0;
  let loads = 0;
  let fail = false;
  const redisValues = new Map<string, string>();
  const resolve = async (name: string) => {
    loads++;
    if (fail) throw new Error('db down');
    return { name } as ResolvedModel;
  };
  const redis = {
    get: async <T>(key: string) => {
      if (options.redisFails) throw new Error('redis down');
      return (redisValues.get(key) ?? null) as T | null;
    },
  };
  const resolver = createCachedResolver({
    resolve,
    redis: redis as never,
    ttlMs: 5000,
    versionCheckMs: 1000,
    now: () => clock,
  });
  return {
    resolver,
    loads: () => loads,
    tick: (ms: number) => {
      clock += ms;
    },
    bump: () =>
      redisValues.set(ROUTING_VERSION_KEY, String(Number(redisValues.get(ROUTING_VERSION_KEY) ?? 0) + 1)),
    failLoads: (value: boolean) => {
      fail = value;
    },
  };
}

describe('createCachedResolver', () => {
  it('serves a resolution from the isolate until the TTL runs out', async () => {
    const s = setup();
    await s.resolver('m');
    s.tick(4_999);
    await s.resolver('m');
    expect(s.loads()).toBe(1);
    s.tick(1);
    await s.resolver('m');
    expect(s.loads()).toBe(2);
  });

  it('drops everything at the first version check after a bump', async () => {
    const s = setup();
    await s.resolver('m');
    s.bump();
    s.tick(999);
    await s.resolver('m');
    expect(s.loads()).toBe(1);
    s.tick(1);
    await s.resolver('m');
    expect(s.loads()).toBe(2);
  });

  it('does not keep a failed load, and falls back to the TTL when Redis is down', async () => {
    const s = setup({ redisFails: true });
    s.failLoads(true);
    await expect(s.resolver('m')).rejects.toThrow('db down');
    s.failLoads(false);
    expect(await s.resolver('m')).toEqual({ name: 'm' });
    expect(s.loads()).toBe(2);
  });
});
