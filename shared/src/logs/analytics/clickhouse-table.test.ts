import { describe, expect, it } from 'vitest';
import {
  chCreatedBefore,
  chCreatedBetween,
  chCreatedFrom,
  chCreatedUntil,
  executionSeconds,
} from './clickhouse-table';

const sql = (fragment: { sql: string } | null) => fragment?.sql ?? null;

describe('bounds on a log table instant', () => {
  it('bound the key column created_at to whole seconds and created_at_ms to the millisecond', () => {
    const from = new Date('2025-03-04T10:00:00.250Z');
    const to = new Date('2025-03-04T11:00:00.999Z');
    expect(chCreatedBetween(from, to).map(sql)).toEqual([
      'created_at >= 1741082400 AND created_at_ms >= 1741082400250',
      'created_at <= 1741086000 AND created_at_ms <= 1741086000999',
    ]);
    expect(chCreatedBetween(undefined, undefined)).toEqual([null, null]);
  });

  it('take instants before 1970 as no lower bound and as matching nothing above', () => {
    expect(chCreatedFrom(new Date(-5_000)).sql).toBe('created_at >= 0 AND created_at_ms >= 0');
    expect(chCreatedUntil(new Date(-1)).sql).toBe('0');
    expect(chCreatedBefore(new Date(0)).sql).toBe('0');
  });

  it('end an exclusive bound on a whole second with the second before it', () => {
    expect(chCreatedBefore(new Date(1_741_082_400_000)).sql).toBe(
      'created_at <= 1741082399 AND created_at_ms < 1741082400000',
    );
    expect(chCreatedBefore(new Date(1_741_082_400_001)).sql).toBe(
      'created_at <= 1741082400 AND created_at_ms < 1741082400001',
    );
  });
});

describe('max_execution_time for a deadline', () => {
  it('is whole seconds, rounded up, never 0 (no limit)', () => {
    expect(executionSeconds(2_000)).toBe(2);
    expect(executionSeconds(2_001)).toBe(3);
    expect(executionSeconds(50)).toBe(1);
    expect(executionSeconds(0)).toBe(1);
  });
});
