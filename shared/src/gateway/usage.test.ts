import { describe, expect, it } from 'vitest';
import { roundUsd } from './usage';

describe('roundUsd', () => {
  it('gives a sum of float costs to the micro-dollar', () => {
    expect(roundUsd(2.7484950000000503)).toBe(2.748495);
    expect(roundUsd(0.1 + 0.2)).toBe(0.3);
    expect(roundUsd(0.0000004)).toBe(0);
    expect(roundUsd(null)).toBeNull();
  });
});
