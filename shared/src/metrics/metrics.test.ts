import { describe, expect, it } from 'vitest';
import { expectSha1OfSource } from '../../test/stores/lua-sha1';
import type { RequestLogRecord } from '../logs/requests/record';
import { counter, DURATION_BUCKETS, METRICS, observe, seriesField } from './definitions';
import { renderExposition } from './exposition';
import { exchangeSamples } from './samples';
import { FLUSH_SCRIPT, READ_ACTIVE_SCRIPT } from './store';

describe('metric samples', () => {
  it('escape label values and sort label names', () => {
    expect(seriesField('m', { b: 'x"y', a: 'back\\slash\nnew' })).toBe(
      'm{a="back\\\\slash\\nnew",b="x\\"y"}',
    );
    expect(counter(METRICS.errors, { type: 'x' }, 0)).toEqual([]);
  });

  it('observe fills every bucket at or above the value, +Inf, sum and count', () => {
    const samples = observe(METRICS.httpDuration, { endpoint: '/e' }, 0.3);
    const fields = samples.map((s) => s.field);
    expect(fields).toContain('http_request_duration_seconds_bucket{endpoint="/e",le="0.5"}');
    expect(fields).not.toContain('http_request_duration_seconds_bucket{endpoint="/e",le="0.25"}');
    expect(fields).toContain('http_request_duration_seconds_bucket{endpoint="/e",le="+Inf"}');
    expect(samples.find((s) => s.field.includes('_sum'))?.value).toBe(0.3);
  });

  it('observe counts a value on a bucket edge in it, and one above every bucket in +Inf only', () => {
    const bucket = (le: string) => `http_request_duration_seconds_bucket{endpoint="/e",le="${le}"}`;
    const count = 'http_request_duration_seconds_count{endpoint="/e"}';
    const edge = observe(METRICS.httpDuration, { endpoint: '/e' }, 0.005).map((s) => [s.field, s.value]);
    expect(edge).toHaveLength(DURATION_BUCKETS.length + 3);
    expect(edge).toContainEqual([bucket('0.005'), 1]);
    expect(edge).toContainEqual([count, 1]);
    const above = observe(METRICS.httpDuration, { endpoint: '/e' }, 500).map((s) => [s.field, s.value]);
    expect(above).toEqual([
      [bucket('+Inf'), 1],
      [count, 1],
      ['http_request_duration_seconds_sum{endpoint="/e"}', 500],
    ]);
  });

  it('record the GenAI client metrics for a request an upstream answered, not for a cache hit', () => {
    const record = {
      endpoint: '/v1/messages',
      model: 'house',
      provider: 'anthropic-main',
      providerType: 'anthropic',
      upstreamModel: 'claude-x',
      promptTokens: 300,
      completionTokens: 20,
      cacheHit: false,
      upstreamLatencyMs: 80,
      latencyMs: 1_500,
      statusCode: 200,
      errorType: null,
      errorMessage: null,
      guardrail: null,
    } as unknown as RequestLogRecord;
    const fields = exchangeSamples(record).map((s) => [s.field, s.value]);
    const labels =
      'gen_ai_operation_name="chat",gen_ai_provider_name="anthropic",gen_ai_request_model="house"';
    expect(fields).toContainEqual([
      `gen_ai_client_token_usage_bucket{${labels},gen_ai_token_type="input",le="1024"}`,
      1,
    ]);
    expect(fields).not.toContainEqual([
      `gen_ai_client_token_usage_bucket{${labels},gen_ai_token_type="input",le="256"}`,
      1,
    ]);
    expect(fields).toContainEqual([
      `gen_ai_client_token_usage_sum{${labels},gen_ai_token_type="output"}`,
      20,
    ]);
    expect(fields).toContainEqual([`gen_ai_client_operation_duration_seconds_bucket{${labels},le="2.5"}`, 1]);
    const hit = exchangeSamples({ ...record, cacheHit: true }).map((s) => s.field);
    expect(hit.some((f) => f.startsWith('gen_ai_'))).toBe(false);
  });

  it('appends to the list it is given, and keeps the shared increments unchanged', () => {
    const out = counter(METRICS.errors, { type: 'x' });
    observe(METRICS.httpDuration, { endpoint: '/f' }, 0.07, out);
    expect(out[0]).toEqual({ field: 'sluice_errors_total{type="x"}', value: 1 });
    expect(out.length).toBe(1 + 10 + 3);
    expect(Object.isFrozen(out[1])).toBe(true);
    expect(observe(METRICS.httpDuration, { endpoint: '/f' }, 0.07)[0]).toBe(out[1]);
  });
});

describe('exposition', () => {
  it('writes HELP and TYPE once per metric, histogram buckets in le order before sum and count', () => {
    const stored: Record<string, number> = {};
    for (const s of [
      ...observe(METRICS.httpDuration, { endpoint: '/e' }, 2),
      ...counter(METRICS.errors, { type: 't' }),
    ]) {
      stored[s.field] = s.value;
    }
    const text = renderExposition(stored);
    expect(text.match(/# TYPE http_request_duration_seconds histogram/g)).toHaveLength(1);
    const lines = text.split('\n').filter((l) => l.startsWith('http_request_duration_seconds'));
    expect(lines[0]).toBe('http_request_duration_seconds_bucket{endpoint="/e",le="2.5"} 1');
    expect(lines.at(-3)).toBe('http_request_duration_seconds_bucket{endpoint="/e",le="+Inf"} 1');
    expect(lines.at(-2)).toBe('http_request_duration_seconds_sum{endpoint="/e"} 2');
    expect(text).toContain('sluice_errors_total{type="t"} 1');
  });

  it('has the SHA-1 of its scripts', () => {
    for (const script of [FLUSH_SCRIPT, READ_ACTIVE_SCRIPT]) {
      expectSha1OfSource(script);
    }
  });

  it('writes a gauge as a gauge', () => {
    const text = renderExposition({ sluice_active_streams: 2 });
    expect(text).toContain('# TYPE sluice_active_streams gauge\nsluice_active_streams 2\n');
  });
});
