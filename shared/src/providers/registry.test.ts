import { describe, expect, it } from 'vitest';
import { PROVIDER_TYPES } from '../db/schema/providers';
import { providerAdapters } from './registry';

describe('providerAdapters', () => {
  it('has one adapter for every provider type, keyed by its own type', () => {
    expect(Object.keys(providerAdapters).sort()).toEqual([...PROVIDER_TYPES].sort());
    for (const [type, adapter] of Object.entries(providerAdapters)) expect(adapter.type).toBe(type);
  });
});
