import type { Background } from '../util/background';
import type { SpanExporter } from './exporter';
import type { Sampler } from './sampler';
import {
  type Attributes,
  type Clock,
  contextOnlySpan,
  recordingSpan,
  type Span,
  type SpanKind,
} from './span';
import { newSpanId, newTraceId, parseTraceparent, SAMPLED, type SpanContext } from './trace-context';

export interface Tracer {
  /** False when no exporter is configured: spans only carry the incoming context on. */
  readonly enabled: boolean;
  /**
   * A root span (a request's server span, a job's internal one), continuing the trace the
   * request's headers carry. Its spans are queued for export as they end, the send kept alive
   * by `keepAlive`.
   */
  start(
    name: string,
    kind: SpanKind,
    options?: { headers?: Headers | null; attributes?: Attributes; keepAlive?: Background },
  ): Span;
}

/** The clock spans are timed by: wall time with the monotonic clock's precision. */
export const PERFORMANCE_CLOCK: Clock = {
  now: () => performance.timeOrigin + performance.now(),
};

function incoming(headers: Headers | null | undefined): SpanContext | null {
  if (!headers) return null;
  return parseTraceparent(headers.get('traceparent'), headers.get('tracestate'));
}

/** Tracing off: the context a request came with goes on upstream unchanged, nothing recorded. */
export const PASSTHROUGH_TRACER: Tracer = {
  enabled: false,
  start: (_name, _kind, options) => contextOnlySpan(incoming(options?.headers)),
};

export function createTracer(
  exporter: SpanExporter,
  sampler: Sampler,
  clock: Clock = PERFORMANCE_CLOCK,
): Tracer {
  return {
    enabled: true,
    start(name, kind, options = {}) {
      const parent = incoming(options.headers);
      const traceId = parent?.traceId ?? newTraceId();
      const sampled = sampler(traceId, parent);
      const context: SpanContext = {
        traceId,
        spanId: newSpanId(),
        flags: sampled ? (parent?.flags ?? 0) | SAMPLED : (parent?.flags ?? 0) & ~SAMPLED,
        traceState: parent?.traceState ?? '',
      };
      if (!sampled) return contextOnlySpan(context);
      const keepAlive = options.keepAlive;
      exporter.schedule(keepAlive);
      return recordingSpan(
        { context, parentSpanId: parent?.spanId ?? null, name, kind, attributes: options.attributes },
        (data) => {
          exporter.add(data);
          exporter.schedule(keepAlive);
        },
        clock,
      );
    },
  };
}
