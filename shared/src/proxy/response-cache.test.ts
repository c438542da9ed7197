import { describe, expect, it } from 'vitest';
import { expectSha1OfSource } from '../../test/stores/lua-sha1';
import type { PendingWrite, WriteBehind, WriteBehindSource } from '../runtime/write-behind';
import { CACHE_SET_SCRIPT, createResponseCache, MAX_CACHED_BODY_CHARS, stableJson } from './response-cache';

/** A write-behind that records what each flush would send, and flushes on demand. */
function recordingWriteBehind() {
  const sources: WriteBehindSource[] = [];
  const sent: PendingWrite[] = [];
  const writeBehind: WriteBehind = {
    register: (source) => void sources.push(source),
    schedule: async () => {
      for (const source of sources) sent.push(...source.drain());
    },
  };
  return { writeBehind, sent };
}

describe('stableJson', () => {
  it('sorts keys at every level and keeps array order', () => {
    expect(stableJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(stableJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
  });
});

describe('response cache keys', () => {
  const cache = createResponseCache(recordingWriteBehind().writeBehind, () => undefined);
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
  it('are written in the write-behind flush with the TTL; zero TTL and oversized bodies are skipped', async () => {
    const { writeBehind, sent } = recordingWriteBehind();
    const cache = createResponseCache(writeBehind, () => undefined);
    const answer = { contentType: 'application/json', body: '{}', usage: null, provider: 'p' };
    await cache.set('k1', answer, 30);
    await cache.set('k2', answer, 0);
    await cache.set('k3', { ...answer, body: 'x'.repeat(MAX_CACHED_BODY_CHARS + 1) }, 30);
    expect(sent.map((w) => w.call)).toEqual([
      { script: CACHE_SET_SCRIPT, keys: ['k1'], args: [JSON.stringify(answer), 30] },
    ]);
    expectSha1OfSource(CACHE_SET_SCRIPT);
  });

  it('read back as stored; anything that is not a cached answer is a miss', () => {
    const cache = createResponseCache(recordingWriteBehind().writeBehind, () => undefined);
    const answer = { contentType: 'application/json', body: '{}', usage: null, provider: 'p' };
    expect(cache.parse(JSON.stringify(answer))).toEqual(answer);
    expect(cache.parse(JSON.stringify({ unexpected: true }))).toBeNull();
    expect(cache.parse('not json')).toBeNull();
  });
});
