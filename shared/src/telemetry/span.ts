import { newSpanId, SAMPLED, type SpanContext, traceHeaders } from './trace-context';

export type AttributeValue = string | number | boolean | readonly string[] | readonly number[];
export type Attributes = Record<string, AttributeValue | null | undefined>;

export type SpanKind = 'internal' | 'server' | 'client';

/** A finished span as the exporter encodes it. Times are Unix epoch milliseconds (fractional). */
export interface SpanData {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  traceState: string;
  flags: number;
  name: string;
  kind: SpanKind;
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeValue>;
  events: { name: string; atMs: number; attributes: Record<string, AttributeValue> }[];
  status: { code: 'unset' | 'ok' | 'error'; message: string };
}

/**
 * One operation of a trace. Spans that are not recorded (tracing off, or not sampled) cost
 * nothing but still say what an outgoing call's `traceparent` is, so the trace the client
 * started goes on upstream either way.
 */
export interface Span {
  readonly recording: boolean;
  /** Null when no trace context exists (tracing off and none came in). */
  readonly context: SpanContext | null;
  set(key: string, value: AttributeValue | null | undefined): Span;
  setAll(attributes: Attributes): Span;
  event(name: string, attributes?: Attributes): Span;
  /** Marks the span failed (status ERROR) with the reason. */
  fail(message: string): Span;
  child(name: string, kind?: SpanKind, attributes?: Attributes): Span;
  /** `traceparent` (and `tracestate`) for a call made within this span; empty without a context. */
  headers(): Record<string, string>;
  /** Ends the span (only the first call counts); `atMs` defaults to now. */
  end(atMs?: number): void;
}

/** Where recorded spans go when they end. */
export type SpanSink = (span: SpanData) => void;

export interface Clock {
  /** Unix epoch milliseconds, with sub-millisecond precision where the runtime has it. */
  now(): number;
}

/** A span that records nothing but carries a context on (itself for every child). */
export function contextOnlySpan(context: SpanContext | null): Span {
  const headers = context ? traceHeaders(context) : {};
  const span: Span = {
    recording: false,
    context,
    set: () => span,
    setAll: () => span,
    event: () => span,
    fail: () => span,
    child: () => span,
    headers: () => headers,
    end: () => {},
  };
  return span;
}

export const NO_SPAN: Span = contextOnlySpan(null);

function copyAttributes(into: Record<string, AttributeValue>, attributes: Attributes | undefined): void {
  if (!attributes) return;
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== null && value !== undefined) into[key] = value;
  }
}

/** A span that is recorded and handed to `sink` when it ends. */
export function recordingSpan(
  init: {
    context: SpanContext;
    parentSpanId: string | null;
    name: string;
    kind: SpanKind;
    attributes?: Attributes;
  },
  sink: SpanSink,
  clock: Clock,
): Span {
  const data: SpanData = {
    traceId: init.context.traceId,
    spanId: init.context.spanId,
    parentSpanId: init.parentSpanId,
    traceState: init.context.traceState,
    flags: init.context.flags | SAMPLED,
    name: init.name,
    kind: init.kind,
    startMs: clock.now(),
    endMs: 0,
    attributes: {},
    events: [],
    status: { code: 'unset', message: '' },
  };
  copyAttributes(data.attributes, init.attributes);
  let ended = false;
  const span: Span = {
    recording: true,
    context: init.context,
    set(key, value) {
      if (!ended && value !== null && value !== undefined) data.attributes[key] = value;
      return span;
    },
    setAll(attributes) {
      if (!ended) copyAttributes(data.attributes, attributes);
      return span;
    },
    event(name, attributes) {
      if (ended) return span;
      const entry = { name, atMs: clock.now(), attributes: {} };
      copyAttributes(entry.attributes, attributes);
      data.events.push(entry);
      return span;
    },
    fail(message) {
      if (!ended) data.status = { code: 'error', message };
      return span;
    },
    child(name, kind = 'internal', attributes) {
      const context = { ...init.context, spanId: newSpanId() };
      return recordingSpan(
        { context, parentSpanId: init.context.spanId, name, kind, attributes },
        sink,
        clock,
      );
    },
    headers: () => traceHeaders(init.context),
    end(atMs) {
      if (ended) return;
      ended = true;
      data.endMs = Math.max(atMs ?? clock.now(), data.startMs);
      sink(data);
    },
  };
  return span;
}
