import { describe, expect, it } from 'vitest';
import { createResponseCache, MAX_CACHED_BODY_CHARS, stableJson } from './response-cache';

/** The two commands the cache uses, over a Map, with the expiry it was given. */
function memoryRedis() {
  const values = new Map<string, { value: unknown; ex?: number }>();
  return {
    values,
    get: async <T>(key: string) => (values.get(key)?.value ?? null) as T | null,
    set: async (key: string, value: unknown, options?: { ex?: number }) => {
      values.set(key, { value, ex: options?.ex });
      return 'OK' as const;
    },
  };
}

describe('stableJson', () => {
  it('sorts keys at every level and keeps array order', () => {
    expect(stableJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(stableJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
  });
});

describe('response cache keys', () => {
  const cache = createResponseCache(memoryRedis() as never);
  const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

  it('match for equal bodies whatever the key order', async () => {
    const reordered = { messages: [{ content: 'hi', role: 'user' }], model: 'm' };
    expect(await cache.keyFor('key:1', 'openai-chat', body)).toBe(
      await cache.keyFor('key:1', 'openai-chat', reordered),
    );
  });

  it('differ by scope, format, streaming and any parameter', async () => {
    const base = await cache.keyFor('key:1', 'openai-chat', body);
    const others = await Promise.all([
      cache.keyFor('key:2', 'openai-chat', body),
      cache.keyFor('key:1', 'anthropic-messages', body),
      cache.keyFor('key:1', 'openai-chat', { ...body, stream: true }),
      cache.keyFor('key:1', 'openai-chat', { ...body, temperature: 0.5 }),
    ]);
    expect(new Set([base, ...others]).size).toBe(5);
  });
});

describe('response cache entries', () => {
  it('store with the TTL and read back; skip zero TTL and oversized bodies', async () => {
    const redis = memoryRedis();
    const cache = createResponseCache(redis as never);
    const answer = { contentType: 'application/json', body: '{}', usage: null, provider: 'p' };
    await cache.set('k1', answer, 30);
    expect(redis.values.get('k1')?.ex).toBe(30);
    expect(await cache.get('k1')).toEqual(answer);
    await cache.set('k2', answer, 0);
    await cache.set('k3', { ...answer, body: 'x'.repeat(MAX_CACHED_BODY_CHARS + 1) }, 30);
    expect(await cache.get('k2')).toBeNull();
    expect(await cache.get('k3')).toBeNull();
  });

  it('ignores a value that is not a cached answer', async () => {
    const redis = memoryRedis();
    redis.values.set('k', { value: { unexpected: true } });
    expect(await createResponseCache(redis as never).get('k')).toBeNull();
  });
});
