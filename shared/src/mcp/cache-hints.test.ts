import { describe, expect, it } from 'vitest';
import { cacheHintsOf, composedHints, MAX_LIST_TTL_MS, withoutCacheHints } from './cache-hints';

describe('caching hints of list results', () => {
  it('reads what a result allows', () => {
    expect(cacheHintsOf({ ttlMs: 60_000, cacheScope: 'public' })).toEqual({
      ttlMs: 60_000,
      cacheScope: 'public',
    });
    expect(cacheHintsOf({ ttlMs: 1500.7, cacheScope: 'private' })).toEqual({
      ttlMs: 1500,
      cacheScope: 'private',
    });
    expect(cacheHintsOf({ ttlMs: 10, cacheScope: 'shared' })).toEqual({ ttlMs: 10, cacheScope: 'private' });
    expect(cacheHintsOf({ ttlMs: -1, cacheScope: 'public' }).ttlMs).toBe(0);
    expect(cacheHintsOf({}).ttlMs).toBe(0);
    expect(cacheHintsOf({ ttlMs: 1e12, cacheScope: 'public' }).ttlMs).toBe(MAX_LIST_TTL_MS);
    expect(cacheHintsOf({ resultType: 'input_required', ttlMs: 10 }).ttlMs).toBe(0);
  });

  it('composes: the least fresh part, private when any part is or when the list depends on the caller', () => {
    const a = { items: [], ttlMs: 30_000, cacheScope: 'public' as const };
    const b = { items: [], ttlMs: 5_000, cacheScope: 'public' as const };
    expect(composedHints([a, b], false)).toEqual({ ttlMs: 5_000, cacheScope: 'public' });
    expect(composedHints([a, b], true)).toEqual({ ttlMs: 5_000, cacheScope: 'private' });
    expect(composedHints([a, { ...b, cacheScope: 'private' }], false).cacheScope).toBe('private');
    // A part without hints (a session-era server, or one left out because it failed) is 0.
    expect(composedHints([a, { items: [] }], false)).toEqual({ ttlMs: 0, cacheScope: 'private' });
    expect(composedHints([], false)).toEqual({ ttlMs: 0, cacheScope: 'private' });
  });

  it('are dropped for session-era clients', () => {
    expect(withoutCacheHints({ prompts: [], ttlMs: 5, cacheScope: 'public' })).toEqual({ prompts: [] });
    const plain = { prompts: [] };
    expect(withoutCacheHints(plain)).toBe(plain);
  });
});
