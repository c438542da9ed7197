import { describe, expect, it } from 'vitest';
import {
  chCreatedBefore,
  chCreatedBetween,
  chCreatedFrom,
  chCreatedSpans,
  chCreatedUntil,
} from './clickhouse-created';

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

describe('the spans of a range of instants', () => {
  const texts = (spans: ReturnType<typeof chCreatedSpans>) => ({
    inner: spans.inner.map(sql),
    edges: spans.edges?.map(sql) ?? null,
  });

  it('keep the whole seconds inside on created_at alone and check the cut seconds to the millisecond', () => {
    const from = new Date('2025-03-04T10:00:00.250Z');
    const to = new Date('2025-03-04T11:00:00.500Z');
    expect(texts(chCreatedSpans(from, to))).toEqual({
      inner: ['created_at > 1741082400', 'created_at < 1741086000'],
      edges: [
        'created_at IN (1741082400, 1741086000)',
        'created_at >= 1741082400 AND created_at_ms >= 1741082400250',
        'created_at <= 1741086000 AND created_at_ms <= 1741086000500',
      ],
    });
  });

  it('cut nothing on whole seconds (from at .000, to at .999), nor without bounds', () => {
    const from = new Date('2025-03-04T10:00:00.000Z');
    const to = new Date('2025-03-04T11:00:00.999Z');
    expect(texts(chCreatedSpans(from, to))).toEqual({
      inner: ['created_at >= 1741082400', 'created_at <= 1741086000'],
      edges: null,
    });
    expect(texts(chCreatedSpans(undefined, undefined))).toEqual({ inner: [], edges: null });
  });

  it('name a second both bounds cut once, and match nothing before 1970', () => {
    const from = new Date('2025-03-04T10:00:00.001Z');
    const to = new Date('2025-03-04T10:00:00.998Z');
    expect(texts(chCreatedSpans(from, to)).edges?.[0]).toBe('created_at IN (1741082400)');
    expect(texts(chCreatedSpans(undefined, new Date(-1)))).toEqual({ inner: ['0'], edges: null });
    expect(texts(chCreatedSpans(new Date(-5_000), undefined))).toEqual({
      inner: ['created_at >= 0'],
      edges: null,
    });
  });
});
