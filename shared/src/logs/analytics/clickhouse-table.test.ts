import { describe, expect, it } from 'vitest';
import { executionSeconds } from './clickhouse-table';

describe('max_execution_time for a deadline', () => {
  it('is whole seconds, rounded up, never 0 (no limit)', () => {
    expect(executionSeconds(2_000)).toBe(2);
    expect(executionSeconds(2_001)).toBe(3);
    expect(executionSeconds(50)).toBe(1);
    expect(executionSeconds(0)).toBe(1);
  });
});
