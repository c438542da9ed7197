import { describe, expect, it } from 'vitest';
import { formatTraceparent, newSpanId, newTraceId, parseTraceparent, traceHeaders } from './trace-context';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('W3C traceparent', () => {
  it('reads a valid header and its tracestate', () => {
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`, 'congo=t61rcWkgMzE')).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      flags: 1,
      traceState: 'congo=t61rcWkgMzE',
    });
  });

  it('refuses what the spec calls invalid, so a new trace starts instead', () => {
    for (const bad of [
      `00-${'0'.repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `ff-${TRACE}-${SPAN}-01`,
      `00-${TRACE.toUpperCase()}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
      `00-${TRACE}-${SPAN}`,
      'garbage',
      '',
    ]) {
      expect(parseTraceparent(bad), bad).toBeNull();
    }
    expect(parseTraceparent(undefined)).toBeNull();
  });

  it('reads the first four fields of a future version', () => {
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-00-more`)?.flags).toBe(0);
  });

  it('writes what it reads', () => {
    const context = { traceId: TRACE, spanId: SPAN, flags: 1, traceState: '' };
    expect(formatTraceparent(context)).toBe(`00-${TRACE}-${SPAN}-01`);
    expect(traceHeaders(context)).toEqual({ traceparent: `00-${TRACE}-${SPAN}-01` });
    expect(traceHeaders({ ...context, traceState: 'a=b' }).tracestate).toBe('a=b');
  });

  it('makes ids of the right length that are never all zero', () => {
    expect(newTraceId()).toMatch(/^[0-9a-f]{32}$/);
    expect(newSpanId()).toMatch(/^[0-9a-f]{16}$/);
    expect(newTraceId()).not.toBe(newTraceId());
  });
});
