import { describe, expect, it } from 'vitest';
import { createSampler } from './sampler';
import { newTraceId } from './trace-context';

const parent = (sampled: boolean) => ({
  traceId: 'a'.repeat(32),
  spanId: 'b'.repeat(16),
  flags: sampled ? 1 : 0,
  traceState: '',
});

describe('samplers as OTEL_TRACES_SAMPLER names them', () => {
  it('always_on and always_off ignore the parent', () => {
    expect(createSampler('always_on', undefined)(newTraceId(), parent(false))).toBe(true);
    expect(createSampler('always_off', undefined)(newTraceId(), parent(true))).toBe(false);
  });

  it('parent-based samplers follow a remote parent and decide roots themselves', () => {
    const sampler = createSampler('parentbased_always_off', undefined);
    expect(sampler(newTraceId(), parent(true))).toBe(true);
    expect(sampler(newTraceId(), parent(false))).toBe(false);
    expect(sampler(newTraceId(), null)).toBe(false);
    expect(createSampler('parentbased_always_on', undefined)(newTraceId(), null)).toBe(true);
  });

  it('traceidratio keeps about the ratio, the same way for the same trace id', () => {
    const sampler = createSampler('traceidratio', 0.25);
    let kept = 0;
    for (let i = 0; i < 4000; i++) if (sampler(newTraceId(), null)) kept++;
    expect(kept / 4000).toBeGreaterThan(0.2);
    expect(kept / 4000).toBeLessThan(0.3);
    const id = newTraceId();
    expect(sampler(id, null)).toBe(sampler(id, null));
    expect(createSampler('traceidratio', 0)(newTraceId(), null)).toBe(false);
    expect(createSampler('traceidratio', 1)(newTraceId(), null)).toBe(true);
  });
});
