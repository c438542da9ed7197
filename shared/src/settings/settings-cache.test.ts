import { describe, expect, it } from 'vitest';
import { defaultSettings, type SettingValues } from './definitions';
import { createSettingsReader, SETTINGS_VERSION_KEY, type SettingsReaderOptions } from './settings-cache';

/** A settings source whose value and failures the test controls, counting loads. */
function fakeSource() {
  const source = {
    loads: 0,
    ttl: 900,
    fail: false,
    load: async (): Promise<SettingValues> => {
      source.loads += 1;
      if (source.fail) throw new Error('database down');
      return { ...defaultSettings(), jwt_access_ttl_seconds: source.ttl };
    },
  };
  return source;
}

/** Only `get` of the version key, as the reader uses it. */
function fakeRedis() {
  const redis = {
    version: null as number | null,
    gets: 0,
    fail: false,
    get: async <T>(key: string): Promise<T | null> => {
      redis.gets += 1;
      if (redis.fail) throw new Error('redis down');
      expect(key).toBe(SETTINGS_VERSION_KEY);
      return redis.version as T | null;
    },
  };
  return redis;
}

function setup(extra: Partial<SettingsReaderOptions> = {}) {
  const clock = { t: 1_000_000 };
  const source = fakeSource();
  const redis = fakeRedis();
  const errors: unknown[] = [];
  const reader = createSettingsReader({
    load: source.load,
    redis,
    ttlMs: 5_000,
    versionCheckMs: 1_000,
    now: () => clock.t,
    onError: (e) => errors.push(e),
    ...extra,
  });
  const ttl = async () => (await reader.get()).jwt_access_ttl_seconds;
  return { clock, source, redis, reader, errors, ttl };
}

describe('createSettingsReader', () => {
  it('loads once and serves the copy until the TTL without a version change', async () => {
    const { clock, source, ttl } = setup();
    expect(await ttl()).toBe(900);
    source.ttl = 120;
    clock.t += 4_999;
    expect(await ttl()).toBe(900);
    expect(source.loads).toBe(1);
    clock.t += 1;
    expect(await ttl()).toBe(120);
    expect(source.loads).toBe(2);
  });

  it('reloads on the next check after the version key moves', async () => {
    const { clock, source, redis, ttl } = setup();
    await ttl();
    source.ttl = 120;
    redis.version = 1;
    clock.t += 999;
    expect(await ttl()).toBe(900);
    clock.t += 1;
    expect(await ttl()).toBe(120);
    expect(source.loads).toBe(2);
  });

  it('reads the version key at most once per check interval', async () => {
    const { clock, redis, source, ttl } = setup();
    await ttl();
    const gets = redis.gets;
    for (let i = 0; i < 10; i++) await ttl();
    expect(redis.gets).toBe(gets);
    clock.t += 1_000;
    await ttl();
    await ttl();
    expect(redis.gets).toBe(gets + 1);
    expect(source.loads).toBe(1);
  });

  it('shares one load between concurrent callers', async () => {
    const { source, reader } = setup();
    await Promise.all([reader.get(), reader.get(), reader.get()]);
    expect(source.loads).toBe(1);
  });

  it('falls back to the TTL when Redis is down', async () => {
    const { clock, source, redis, errors, ttl } = setup();
    await ttl();
    redis.fail = true;
    source.ttl = 120;
    clock.t += 1_000;
    expect(await ttl()).toBe(900);
    expect(errors).toHaveLength(1);
    clock.t += 4_000;
    expect(await ttl()).toBe(120);
  });

  it('serves the last good copy while the database is down, and retries', async () => {
    const { clock, source, errors, ttl } = setup();
    await ttl();
    source.fail = true;
    clock.t += 5_000;
    expect(await ttl()).toBe(900);
    expect(errors).toHaveLength(1);
    source.fail = false;
    source.ttl = 120;
    clock.t += 999;
    expect(await ttl()).toBe(900);
    clock.t += 1;
    expect(await ttl()).toBe(120);
  });

  it('fails when there is no copy yet and the database is down', async () => {
    const { source, reader } = setup();
    source.fail = true;
    await expect(reader.get()).rejects.toThrow('database down');
  });

  it('works without Redis and reloads after invalidate()', async () => {
    const { clock, source, reader, ttl } = setup({ redis: null });
    await ttl();
    source.ttl = 120;
    clock.t += 4_000;
    expect(await ttl()).toBe(900);
    reader.invalidate();
    expect(await ttl()).toBe(120);
  });
});
