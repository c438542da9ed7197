import { hexBytes, ProtoWriter } from './protobuf-writer';
import type { AttributeValue, SpanData, SpanKind } from './span';

/**
 * ExportTraceServiceRequest (opentelemetry-proto, collector/trace/v1) in both OTLP/HTTP
 * encodings. Field numbers are the .proto's; the test receiver decodes with the official
 * definitions.
 */
export interface ExportBatch {
  resource: Record<string, AttributeValue>;
  scope: { name: string; version: string };
  spans: readonly SpanData[];
}

const KIND: Record<SpanKind, number> = { internal: 1, server: 2, client: 3 };
const STATUS = { unset: 0, ok: 1, error: 2 } as const;

const nanos = (ms: number): bigint => BigInt(Math.round(ms * 1000)) * 1000n;

function writeAnyValue(w: ProtoWriter, value: AttributeValue): void {
  if (typeof value === 'string') w.string(1, value);
  else if (typeof value === 'boolean') w.bool(2, value);
  else if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) w.uint(3, value);
    else w.double(4, value);
  } else {
    // ArrayValue { repeated AnyValue values = 1 }
    w.message(5, (array) => {
      for (const item of value) array.message(1, (inner) => writeAnyValue(inner, item));
    });
  }
}

function writeAttributes(w: ProtoWriter, field: number, attributes: Record<string, AttributeValue>): void {
  for (const key in attributes) {
    const value = attributes[key] as AttributeValue;
    w.message(field, (kv) => kv.string(1, key).message(2, (any) => writeAnyValue(any, value)));
  }
}

function writeSpan(w: ProtoWriter, span: SpanData): void {
  w.bytes(1, hexBytes(span.traceId)).bytes(2, hexBytes(span.spanId));
  if (span.traceState) w.string(3, span.traceState);
  if (span.parentSpanId) w.bytes(4, hexBytes(span.parentSpanId));
  w.string(5, span.name).uint(6, KIND[span.kind]);
  w.fixed64(7, nanos(span.startMs)).fixed64(8, nanos(span.endMs));
  writeAttributes(w, 9, span.attributes);
  for (const event of span.events) {
    w.message(11, (e) => {
      e.fixed64(1, nanos(event.atMs)).string(2, event.name);
      writeAttributes(e, 3, event.attributes);
    });
  }
  if (span.status.code !== 'unset') {
    w.message(15, (s) => {
      if (span.status.message) s.string(2, span.status.message);
      s.uint(3, STATUS[span.status.code]);
    });
  }
  w.fixed32(16, span.flags & 0xff);
}

export function encodeTracesProtobuf(batch: ExportBatch): Uint8Array {
  return new ProtoWriter()
    .message(1, (resourceSpans) => {
      resourceSpans.message(1, (resource) => writeAttributes(resource, 1, batch.resource));
      resourceSpans.message(2, (scopeSpans) => {
        scopeSpans.message(1, (scope) => scope.string(1, batch.scope.name).string(2, batch.scope.version));
        for (const span of batch.spans) scopeSpans.message(2, (s) => writeSpan(s, span));
      });
    })
    .finish();
}

type JsonAnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: JsonAnyValue[] } };

function jsonAnyValue(value: AttributeValue): JsonAnyValue {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  }
  return { arrayValue: { values: value.map((item) => jsonAnyValue(item)) } };
}

const jsonAttributes = (attributes: Record<string, AttributeValue>) =>
  Object.entries(attributes).map(([key, value]) => ({ key, value: jsonAnyValue(value) }));

/** OTLP/JSON: ids as hex, enums as numbers, 64-bit integers as decimal strings. */
export function encodeTracesJson(batch: ExportBatch): string {
  const spans = batch.spans.map((span) => ({
    traceId: span.traceId,
    spanId: span.spanId,
    ...(span.traceState ? { traceState: span.traceState } : {}),
    ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
    flags: span.flags & 0xff,
    name: span.name,
    kind: KIND[span.kind],
    startTimeUnixNano: String(nanos(span.startMs)),
    endTimeUnixNano: String(nanos(span.endMs)),
    attributes: jsonAttributes(span.attributes),
    events: span.events.map((event) => ({
      timeUnixNano: String(nanos(event.atMs)),
      name: event.name,
      attributes: jsonAttributes(event.attributes),
    })),
    status:
      span.status.code === 'unset'
        ? {}
        : {
            code: STATUS[span.status.code],
            ...(span.status.message ? { message: span.status.message } : {}),
          },
  }));
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: jsonAttributes(batch.resource) },
        scopeSpans: [{ scope: batch.scope, spans }],
      },
    ],
  });
}
