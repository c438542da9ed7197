import { describe, expect, it } from 'vitest';
import { type UsageBucketRow, usageAggregateQuery, usageBucketStart } from '../requests/aggregate-query';
import { costSeries, costStats, usagePeriods, usageSeries, usageStats, utcDaysIn } from './usage-report';

const at = (iso: string) => new Date(iso);

function row(bucket: string, model: string, over: Partial<UsageBucketRow> = {}): UsageBucketRow {
  return {
    bucketStart: at(bucket),
    model,
    endpoint: '/v1/chat/completions',
    requests: 1,
    promptTokens: 10,
    completionTokens: 5,
    totalTokens: 15,
    cacheReadTokens: 4,
    cacheWriteTokens: 2,
    reasoningTokens: 1,
    costUsd: 0.5,
    unpricedRequests: 0,
    latencyMsSum: 100,
    ...over,
  };
}

describe('usage buckets', () => {
  it('starts an hour at the top of the hour, a day at 00:00 UTC, a week on Monday 00:00 UTC', () => {
    expect(usageBucketStart(at('2025-04-02T10:59:59.999Z'), 'hour').toISOString()).toBe(
      '2025-04-02T10:00:00.000Z',
    );
    expect(usageBucketStart(at('2025-04-02T23:59:59.999Z'), 'day').toISOString()).toBe(
      '2025-04-02T00:00:00.000Z',
    );
    // 2025-04-06 is a Sunday: its week began on Monday 2025-03-31.
    expect(usageBucketStart(at('2025-04-06T23:59:59Z'), 'week').toISOString()).toBe(
      '2025-03-31T00:00:00.000Z',
    );
    expect(usageBucketStart(at('2025-04-07T00:00:00Z'), 'week').toISOString()).toBe(
      '2025-04-07T00:00:00.000Z',
    );
    expect(usageBucketStart(at('2025-04-07T00:00:00+02:00'), 'week').toISOString()).toBe(
      '2025-03-31T00:00:00.000Z',
    );
  });

  it('lists every period from the one holding from to the one holding to', () => {
    const hours = usagePeriods({ from: at('2025-04-01T10:30:00Z'), to: at('2025-04-01T12:00:00Z') }, 'hour');
    expect(hours.map((d) => d.toISOString())).toEqual([
      '2025-04-01T10:00:00.000Z',
      '2025-04-01T11:00:00.000Z',
      '2025-04-01T12:00:00.000Z',
    ]);
    const days = usagePeriods({ from: at('2025-02-27T23:00:00Z'), to: at('2025-03-01T00:00:00Z') }, 'day');
    expect(days.map((d) => d.toISOString().slice(0, 10))).toEqual(['2025-02-27', '2025-02-28', '2025-03-01']);
    const weeks = usagePeriods({ from: at('2025-04-06T12:00:00Z'), to: at('2025-04-14T00:00:00Z') }, 'week');
    expect(weeks.map((d) => d.toISOString().slice(0, 10))).toEqual([
      '2025-03-31',
      '2025-04-07',
      '2025-04-14',
    ]);
    const one = usagePeriods({ from: at('2025-04-01T10:00:00Z'), to: at('2025-04-01T10:00:00Z') }, 'day');
    expect(one).toHaveLength(1);
  });
});

describe('usageAggregateQuery', () => {
  const from = at('2025-01-01T00:00:00Z');
  const DAY = 86_400_000;
  it('caps the range per bucket size and refuses from after to', () => {
    expect(() =>
      usageAggregateQuery({ from, to: new Date(from.getTime() + 31 * DAY), groupBy: 'hour' }),
    ).not.toThrow();
    expect(() =>
      usageAggregateQuery({ from, to: new Date(from.getTime() + 31 * DAY + 1), groupBy: 'hour' }),
    ).toThrow(RangeError);
    expect(() =>
      usageAggregateQuery({ from, to: new Date(from.getTime() + 367 * DAY), groupBy: 'day' }),
    ).toThrow(RangeError);
    expect(() =>
      usageAggregateQuery({ from, to: new Date(from.getTime() + 1827 * DAY), groupBy: 'week' }),
    ).not.toThrow();
    expect(() =>
      usageAggregateQuery({ from, to: new Date(from.getTime() + 1828 * DAY), groupBy: 'week' }),
    ).toThrow(RangeError);
    expect(() => usageAggregateQuery({ from, to: new Date(from.getTime() - 1), groupBy: 'day' })).toThrow(
      RangeError,
    );
    expect(() => usageAggregateQuery({ from: new Date(Number.NaN), to: from, groupBy: 'day' })).toThrow(
      RangeError,
    );
    expect(() => usageAggregateQuery({ from, to: from, groupBy: 'month' as 'day' })).toThrow(RangeError);
    expect(() => usageAggregateQuery({ from, to: from, groupBy: 'day', userId: 'nope' })).toThrow(RangeError);
    expect(
      usageAggregateQuery({ from, to: from, groupBy: 'day', userId: 'AA000000-0000-4000-8000-000000000001' })
        .userId,
    ).toBe('aa000000-0000-4000-8000-000000000001');
  });
});

describe('usage report', () => {
  const range = { from: at('2025-04-01T00:00:00Z'), to: at('2025-04-03T12:00:00Z') };
  const rows = [
    row('2025-04-01T00:00:00Z', 'a'),
    row('2025-04-01T00:00:00Z', 'b', {
      endpoint: '/v1/embeddings',
      requests: 2,
      totalTokens: 40,
      promptTokens: 30,
      completionTokens: 10,
      costUsd: 0.25,
      latencyMsSum: 50,
    }),
    row('2025-04-03T00:00:00Z', 'a', { requests: 3, costUsd: 0, unpricedRequests: 3, latencyMsSum: 600 }),
  ];

  it('zero-fills usage periods and sums per period', () => {
    expect(usageSeries(rows, range, 'day')).toEqual({
      data: [
        {
          period: '2025-04-01T00:00:00.000Z',
          request_count: 3,
          prompt_tokens: 40,
          completion_tokens: 15,
          total_tokens: 55,
        },
        {
          period: '2025-04-02T00:00:00.000Z',
          request_count: 0,
          prompt_tokens: 0,
          completion_tokens: 0,
          total_tokens: 0,
        },
        {
          period: '2025-04-03T00:00:00.000Z',
          request_count: 3,
          prompt_tokens: 10,
          completion_tokens: 5,
          total_tokens: 15,
        },
      ],
    });
  });

  it('totals usage per model with the average latency (null without requests)', () => {
    expect(usageStats(rows)).toEqual({
      total_requests: 6,
      total_tokens: 70,
      avg_latency_ms: 750 / 6,
      cache_read_tokens: 12,
      cache_write_tokens: 6,
      reasoning_tokens: 3,
      models: { a: { requests: 4, tokens: 30 }, b: { requests: 2, tokens: 40 } },
      endpoints: {
        '/v1/chat/completions': { requests: 4, tokens: 30 },
        '/v1/embeddings': { requests: 2, tokens: 40 },
      },
    });
    expect(Object.keys(usageStats([row('2025-04-01T00:00:00Z', '__proto__')]).models)).toEqual(['__proto__']);
    expect(usageStats([])).toEqual({
      total_requests: 0,
      total_tokens: 0,
      avg_latency_ms: null,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      models: {},
      endpoints: {},
    });
  });

  it('zero-fills cost periods; unpriced requests add 0 and are counted', () => {
    const { data } = costSeries(rows, range, 'day');
    expect(data).toEqual([
      {
        period: '2025-04-01T00:00:00.000Z',
        total_cost_usd: 0.75,
        by_model: { a: 0.5, b: 0.25 },
        unpriced_requests: 0,
      },
      { period: '2025-04-02T00:00:00.000Z', total_cost_usd: 0, by_model: {}, unpriced_requests: 0 },
      // Only unpriced requests of `a`: no $0 entry for it, the count says why.
      { period: '2025-04-03T00:00:00.000Z', total_cost_usd: 0, by_model: {}, unpriced_requests: 3 },
    ]);
  });

  it('averages cost over the UTC days of the range, at least one', () => {
    expect(utcDaysIn(range)).toBe(3);
    expect(utcDaysIn({ from: at('2025-04-01T10:00:00Z'), to: at('2025-04-01T10:00:00Z') })).toBe(1);
    expect(utcDaysIn({ from: at('2025-04-01T23:59:59Z'), to: at('2025-04-02T00:00:00Z') })).toBe(2);
    expect(costStats(rows, range)).toEqual({
      total_cost_usd: 0.75,
      avg_daily_cost_usd: 0.25,
      by_model: { a: 0.5, b: 0.25 },
      by_endpoint: { '/v1/chat/completions': 0.5, '/v1/embeddings': 0.25 },
      unpriced_requests: 3,
      // Which models to price to see those 3: `a` had priced requests too, and still shows.
      unpriced_models: { a: 3 },
      cache_read_tokens: 12,
      cache_write_tokens: 6,
      reasoning_tokens: 3,
    });
  });

  it('shows sums to the nano-dollar, as costs are stored, without float noise', () => {
    // 0.1 + 0.2 is 0.30000000000000004 in binary floating point; ClickHouse sums Float64 the same way.
    const noisy = [
      row('2025-04-01T00:00:00Z', 'a', { costUsd: 0.1 }),
      row('2025-04-01T00:00:00Z', 'b', { costUsd: 0.2 }),
      row('2025-04-02T00:00:00Z', 'a', { costUsd: 0.000903 * 3 }),
    ];
    const stats = costStats(noisy, range);
    expect(stats.total_cost_usd).toBe(0.302709);
    expect(stats.by_model).toEqual({ a: 0.102709, b: 0.2 });
    expect(stats.avg_daily_cost_usd).toBe(0.100903);
    expect(costSeries(noisy, range, 'day').data[0]?.total_cost_usd).toBe(0.3);
  });
});
