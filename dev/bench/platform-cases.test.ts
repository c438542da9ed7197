import { describe, expect, it } from 'vitest';
import { spreadIndices } from './platform-cases';

describe('spreadIndices', () => {
  it('takes every slot but the first once, spread apart, then refuses', () => {
    const next = spreadIndices(10, 3);
    const taken = Array.from({ length: 9 }, () => next());
    expect(taken.slice(0, 3)).toEqual([3, 6, 9]);
    expect(new Set(taken).size).toBe(9);
    expect(taken).not.toContain(0);
    expect(() => next()).toThrow(/only 9 unused slots/);
  });

  it('moves to a stride coprime with the size, so no slot comes twice', () => {
    const next = spreadIndices(2018, 1009);
    const taken = Array.from({ length: 2017 }, () => next());
    expect(new Set(taken).size).toBe(2017);
    expect(taken).not.toContain(0);
  });
});
