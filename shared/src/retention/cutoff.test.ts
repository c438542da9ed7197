import { describe, expect, it } from 'vitest';
import { retentionCutoff } from './cutoff';

describe('retentionCutoff', () => {
  it('is `days` whole days before now, truncated to the second', () => {
    const now = new Date('2025-06-15T12:00:00.987Z');
    expect(retentionCutoff(now, 30).toISOString()).toBe('2025-05-16T12:00:00.000Z');
    expect(retentionCutoff(now, 1).toISOString()).toBe('2025-06-14T12:00:00.000Z');
  });

  it('follows the setting: more days, an earlier cutoff', () => {
    const now = new Date('2025-06-15T00:00:00Z');
    expect(retentionCutoff(now, 365).getTime()).toBeLessThan(retentionCutoff(now, 30).getTime());
    expect(retentionCutoff(now, 365).toISOString()).toBe('2024-06-15T00:00:00.000Z');
  });

  it('refuses a retention under one day', () => {
    expect(() => retentionCutoff(new Date(), 0)).toThrow(RangeError);
    expect(() => retentionCutoff(new Date(), 1.5)).toThrow(RangeError);
  });
});
