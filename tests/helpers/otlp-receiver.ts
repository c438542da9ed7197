import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gunzipSync, inflateSync } from 'node:zlib';
import type { IConversionOptions, Root, Type } from 'protobufjs';
import protobuf from 'protobufjs';

/**
 * An OTLP/HTTP receiver for the test suite: what an OpenTelemetry exporter posts to
 * `url + '/v1/traces'` or `url + '/v1/metrics'` is decoded with the official OTLP protobuf
 * definitions (the opentelemetry-proto .proto files, loaded from node_modules by path), in both
 * encodings: `application/x-protobuf` and `application/json` (OTLP/JSON: hex trace and span ids,
 * enums as integers, 64-bit integers as strings or numbers). Both are turned into the same
 * normalized ReceivedSpan / ReceivedMetric records, so a test asserts on one shape whatever the
 * exporter sent.
 *
 * Not a conformance checker for everything: unknown fields are ignored as OTLP requires, but ids
 * of the wrong length and JSON ids that are not hex are refused (400), since those are exporter
 * bugs the suite wants to see.
 */

/**
 * The npm package that ships the opentelemetry-proto files (v1.4.0, with Span.flags), under
 * `opentelemetry/proto/...` in the package folder. Only its .proto files are used here.
 */
const PROTO_PACKAGE = '@elastic/mockotlpserver';
const PROTO_FILES = [
  'opentelemetry/proto/collector/trace/v1/trace_service.proto',
  'opentelemetry/proto/collector/metrics/v1/metrics_service.proto',
];

export type SpanKindName = 'INTERNAL' | 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER' | 'UNSPECIFIED';
export type StatusCodeName = 'UNSET' | 'OK' | 'ERROR';
export type OtlpEncoding = 'protobuf' | 'json';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Hex, '' when the span has no parent. */
  parentSpanId: string;
  traceState: string;
  flags: number;
  name: string;
  kind: SpanKindName;
  startNs: bigint;
  endNs: bigint;
  /**
   * AnyValue → JS: string, boolean, number (int64 → number; a bigint only past
   * Number.MAX_SAFE_INTEGER), arrays, nested objects (kvlist), Uint8Array (bytes), null (empty).
   */
  attributes: Record<string, unknown>;
  events: { name: string; timeNs: bigint; attributes: Record<string, unknown> }[];
  status: { code: StatusCodeName; message: string };
  resource: Record<string, unknown>;
  scope: { name: string; version: string };
  encoding: OtlpEncoding;
}

export interface ReceivedMetricPoint {
  attributes: Record<string, unknown>;
  /** Sum and gauge points: asDouble or asInt. */
  value?: number;
  /** Histogram, exponential histogram and summary points. */
  count?: number;
  sum?: number;
  /** Histogram points. */
  bucketCounts?: number[];
  explicitBounds?: number[];
}

export interface ReceivedMetric {
  name: string;
  unit: string;
  description: string;
  kind: 'sum' | 'gauge' | 'histogram' | 'exponentialHistogram' | 'summary';
  points: ReceivedMetricPoint[];
  resource: Record<string, unknown>;
  scope: { name: string; version: string };
  /** Sum, histogram and exponential histogram only. */
  temporality?: 'UNSPECIFIED' | 'DELTA' | 'CUMULATIVE';
  /** Sum only. */
  monotonic?: boolean;
  encoding: OtlpEncoding;
}

export interface ReceivedRequest {
  path: string;
  /** The content-type header as sent ('' when absent). */
  contentType: string;
  /** Lower-case header names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** Body size on the wire (before any gunzip). */
  bytes: number;
  /** The status answered; undefined while unanswered ('slow' before its answer, 'hang' forever). */
  status?: number;
  /** Why the request was refused (400/404/405/413/415). */
  error?: string;
}

export type OtlpReceiverMode = 'ok' | 'slow' | 'error' | 'hang';

export interface OtlpReceiver {
  /** Base URL, e.g. http://127.0.0.1:PORT; exporters post to url + '/v1/traces' and '/v1/metrics'. */
  url: string;
  /** Every span accepted so far ('ok' and 'slow' requests; not 'error' nor 'hang' ones), in arrival order. */
  spans(): ReceivedSpan[];
  metrics(): ReceivedMetric[];
  /** Every request that reached the receiver, refused ones included. */
  requests(): ReceivedRequest[];
  /** Polls until predicate(spans()) holds; on timeout rejects with the names of the spans received. */
  waitForSpans(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  /** An indented text rendering of one trace's span tree, children sorted by start time. */
  tree(traceId: string): string;
  /**
   * ok: 200 with an empty Export*ServiceResponse in the request's encoding; slow: the same after
   * 5 s (the data is kept on arrival); error: 503 with a google.rpc.Status body (data not kept);
   * hang: never answers and keeps the socket open (data not kept). Applies to requests arriving
   * after the call.
   */
  setMode(mode: OtlpReceiverMode): void;
  /** Stops listening, drops pending 'slow' answers and closes every connection (hung ones too). */
  close(): Promise<void>;
}

export interface OtlpReceiverOptions {
  /** How long 'slow' waits before answering; 5000 ms unless set. */
  slowMs?: number;
}

// ---------------------------------------------------------------------------------------------
// The official definitions

interface OtlpTypes {
  traceRequest: Type;
  traceResponse: Type;
  metricsRequest: Type;
  metricsResponse: Type;
  rpcStatus: Type;
  spanKinds: Record<number, string>;
  statusCodes: Record<number, string>;
  temporalities: Record<number, string>;
}

let loaded: OtlpTypes | undefined;

/** The folder holding `opentelemetry/proto/...` inside the npm package that ships the .proto files. */
export function otlpProtoDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve(`${PROTO_PACKAGE}/package.json`));
}

function otlpTypes(): OtlpTypes {
  if (loaded) return loaded;
  const dir = otlpProtoDir();
  const root: Root = new protobuf.Root();
  // The files import each other by their path from the proto root ("opentelemetry/proto/..."),
  // where protobufjs would look beside the importing file.
  root.resolvePath = (_origin, target) => (path.isAbsolute(target) ? target : path.join(dir, target));
  root.loadSync(PROTO_FILES.map((file) => path.join(dir, file)));
  root.resolveAll();
  // google.rpc.Status, the body OTLP/HTTP asks for on 4xx/5xx answers (not among the OTLP files).
  const rpcStatus = new protobuf.Type('Status')
    .add(new protobuf.Field('code', 1, 'int32'))
    .add(new protobuf.Field('message', 2, 'string'));
  root.define('google.rpc').add(rpcStatus);
  const names = (enumName: string, prefix: string): Record<number, string> => {
    const out: Record<number, string> = {};
    for (const [id, name] of Object.entries(root.lookupEnum(enumName).valuesById)) {
      out[Number(id)] = name.startsWith(prefix) ? name.slice(prefix.length) : name;
    }
    return out;
  };
  loaded = {
    traceRequest: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest'),
    traceResponse: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse'),
    metricsRequest: root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest'),
    metricsResponse: root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse'),
    rpcStatus,
    spanKinds: names('opentelemetry.proto.trace.v1.Span.SpanKind', 'SPAN_KIND_'),
    statusCodes: names('opentelemetry.proto.trace.v1.Status.StatusCode', 'STATUS_CODE_'),
    temporalities: names('opentelemetry.proto.metrics.v1.AggregationTemporality', 'AGGREGATION_TEMPORALITY_'),
  };
  return loaded;
}

// ---------------------------------------------------------------------------------------------
// Decoding

class BadRequest extends Error {}

/** Both encodings end up as this plain-object form of the decoded message. */
const TO_OBJECT: IConversionOptions = {
  longs: String,
  enums: Number,
  bytes: String,
  defaults: true,
  arrays: true,
};

/** OTLP/JSON carries these bytes fields as hex (every other bytes field is base64, as in proto3 JSON). */
const HEX_ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

const camel = (key: string): string => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * OTLP/JSON → the object form protobufjs's fromObject takes: hex ids to bytes, and (as proto3
 * JSON parsers do) original snake_case field names accepted beside lowerCamelCase ones.
 * OTLP has no map fields, so every object key here is a field name.
 */
function fromOtlpJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromOtlpJson);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [rawKey, field] of Object.entries(value)) {
    const key = camel(rawKey);
    if (HEX_ID_FIELDS.has(key) && typeof field === 'string') {
      if (!/^(?:[0-9a-fA-F]{2})*$/.test(field))
        throw new BadRequest(`${key} ${JSON.stringify(field)} is not hex`);
      out[key] = Buffer.from(field, 'hex');
    } else {
      out[key] = fromOtlpJson(field);
    }
  }
  return out;
}

function decode(type: Type, body: Buffer, encoding: OtlpEncoding): Record<string, unknown> {
  try {
    if (encoding === 'protobuf') return type.toObject(type.decode(body), TO_OBJECT);
    const json: unknown = JSON.parse(body.toString('utf8'));
    if (json === null || typeof json !== 'object' || Array.isArray(json)) {
      throw new BadRequest('an OTLP/JSON body is a JSON object');
    }
    const message = type.fromObject(fromOtlpJson(json) as Record<string, unknown>);
    return type.toObject(message, TO_OBJECT);
  } catch (e) {
    if (e instanceof BadRequest) throw e;
    throw new BadRequest(`cannot decode ${type.name} (${encoding}): ${(e as Error).message}`);
  }
}

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});
const asObjs = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(asObj) : []);
const asStr = (v: unknown): string => (typeof v === 'string' ? v : '');
const asBig = (v: unknown): bigint => (typeof v === 'string' || typeof v === 'number' ? BigInt(v) : 0n);
const asNum = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : 0);
const has = (o: Obj, key: string): boolean => Object.hasOwn(o, key) && o[key] !== undefined;
const hexOf = (base64: unknown): string => Buffer.from(asStr(base64), 'base64').toString('hex');

function int64(v: unknown): number | bigint {
  const big = asBig(v);
  const n = Number(big);
  return Number.isSafeInteger(n) ? n : big;
}

function anyValue(v: unknown): unknown {
  const o = asObj(v);
  if (has(o, 'stringValue')) return o.stringValue;
  if (has(o, 'boolValue')) return o.boolValue;
  if (has(o, 'intValue')) return int64(o.intValue);
  if (has(o, 'doubleValue')) return o.doubleValue;
  if (has(o, 'arrayValue')) return asObjs(asObj(o.arrayValue).values).map(anyValue);
  if (has(o, 'kvlistValue')) return keyValues(asObj(o.kvlistValue).values);
  if (has(o, 'bytesValue')) return new Uint8Array(Buffer.from(asStr(o.bytesValue), 'base64'));
  return null;
}

function keyValues(list: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of asObjs(list)) out[asStr(kv.key)] = anyValue(kv.value);
  return out;
}

function scopeOf(scope: unknown): { name: string; version: string } {
  const o = asObj(scope);
  return { name: asStr(o.name), version: asStr(o.version) };
}

function checkId(spanName: string, field: string, hex: string, bytes: number, optional = false): void {
  if (optional && hex === '') return;
  if (hex.length !== bytes * 2) {
    throw new BadRequest(
      `span ${JSON.stringify(spanName)}: ${field} is ${hex.length / 2} bytes, not ${bytes}`,
    );
  }
}

function normalizeSpans(request: Obj, types: OtlpTypes, encoding: OtlpEncoding): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of asObjs(request.resourceSpans)) {
    const resource = keyValues(asObj(rs.resource).attributes);
    for (const ss of asObjs(rs.scopeSpans)) {
      const scope = scopeOf(ss.scope);
      for (const s of asObjs(ss.spans)) {
        const name = asStr(s.name);
        const traceId = hexOf(s.traceId);
        const spanId = hexOf(s.spanId);
        const parentSpanId = hexOf(s.parentSpanId);
        checkId(name, 'traceId', traceId, 16);
        checkId(name, 'spanId', spanId, 8);
        checkId(name, 'parentSpanId', parentSpanId, 8, true);
        const status = asObj(s.status);
        out.push({
          traceId,
          spanId,
          parentSpanId,
          traceState: asStr(s.traceState),
          flags: asNum(s.flags),
          name,
          kind: (types.spanKinds[asNum(s.kind)] ?? 'UNSPECIFIED') as SpanKindName,
          startNs: asBig(s.startTimeUnixNano),
          endNs: asBig(s.endTimeUnixNano),
          attributes: keyValues(s.attributes),
          events: asObjs(s.events).map((e) => ({
            name: asStr(e.name),
            timeNs: asBig(e.timeUnixNano),
            attributes: keyValues(e.attributes),
          })),
          status: {
            code: (types.statusCodes[asNum(status.code)] ?? 'UNSET') as StatusCodeName,
            message: asStr(status.message),
          },
          resource,
          scope,
          encoding,
        });
      }
    }
  }
  return out;
}

const METRIC_KINDS = ['sum', 'gauge', 'histogram', 'exponentialHistogram', 'summary'] as const;

function normalizeMetrics(request: Obj, types: OtlpTypes, encoding: OtlpEncoding): ReceivedMetric[] {
  const out: ReceivedMetric[] = [];
  for (const rm of asObjs(request.resourceMetrics)) {
    const resource = keyValues(asObj(rm.resource).attributes);
    for (const sm of asObjs(rm.scopeMetrics)) {
      const scope = scopeOf(sm.scope);
      for (const m of asObjs(sm.metrics)) {
        const kind = METRIC_KINDS.find((k) => has(m, k) && m[k] !== null);
        if (!kind) throw new BadRequest(`metric ${JSON.stringify(m.name)} has no data`);
        const data = asObj(m[kind]);
        const points = asObjs(data.dataPoints).map((p): ReceivedMetricPoint => {
          const point: ReceivedMetricPoint = { attributes: keyValues(p.attributes) };
          if (kind === 'sum' || kind === 'gauge') {
            if (has(p, 'asDouble')) point.value = asNum(p.asDouble);
            else if (has(p, 'asInt')) point.value = asNum(p.asInt);
            return point;
          }
          point.count = asNum(p.count);
          if (has(p, 'sum')) point.sum = asNum(p.sum);
          if (kind === 'histogram') {
            point.bucketCounts = (Array.isArray(p.bucketCounts) ? p.bucketCounts : []).map(asNum);
            point.explicitBounds = (Array.isArray(p.explicitBounds) ? p.explicitBounds : []).map(asNum);
          }
          return point;
        });
        const metric: ReceivedMetric = {
          name: asStr(m.name),
          unit: asStr(m.unit),
          description: asStr(m.description),
          kind,
          points,
          resource,
          scope,
          encoding,
        };
        if (kind !== 'gauge' && kind !== 'summary') {
          metric.temporality = (types.temporalities[asNum(data.aggregationTemporality)] ??
            'UNSPECIFIED') as ReceivedMetric['temporality'];
        }
        if (kind === 'sum') metric.monotonic = data.isMonotonic === true;
        out.push(metric);
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The tree rendering

function formatValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 80 ? `${v.slice(0, 79)}…` : v);
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array) return `0x${Buffer.from(v).toString('hex')}`;
  if (Array.isArray(v)) return `[${v.map(formatValue).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}=${formatValue(x)}`)
      .join(', ')}}`;
  }
  return String(v);
}

const formatAttributes = (attributes: Record<string, unknown>): string =>
  Object.keys(attributes)
    .sort()
    .map((k) => ` ${k}=${formatValue(attributes[k])}`)
    .join('');

const ms = (ns: bigint): string => (Number(ns) / 1e6).toFixed(2);

function renderTree(all: readonly ReceivedSpan[], traceId: string): string {
  const id = traceId.toLowerCase();
  const spans = all.filter((s) => s.traceId === id);
  if (spans.length === 0) return `trace ${id}: no spans received`;
  const byStart = (a: ReceivedSpan, b: ReceivedSpan) =>
    a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0;
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string, ReceivedSpan[]>();
  const roots: ReceivedSpan[] = [];
  for (const span of spans) {
    if (span.parentSpanId && span.parentSpanId !== span.spanId && ids.has(span.parentSpanId)) {
      const list = children.get(span.parentSpanId) ?? [];
      list.push(span);
      children.set(span.parentSpanId, list);
    } else {
      roots.push(span);
    }
  }
  const lines = [`trace ${id} (${spans.length} span${spans.length === 1 ? '' : 's'})`];
  const shown = new Set<ReceivedSpan>();
  const render = (span: ReceivedSpan, depth: number) => {
    if (shown.has(span)) return;
    shown.add(span);
    const pad = '  '.repeat(depth);
    let line = `${pad}${span.name} ${span.kind} ${ms(span.endNs - span.startNs)} ms`;
    if (span.status.code !== 'UNSET') {
      line += ` status=${span.status.code}${span.status.message ? ` ${JSON.stringify(span.status.message)}` : ''}`;
    }
    line += formatAttributes(span.attributes);
    if (depth === 0 && span.parentSpanId && !ids.has(span.parentSpanId))
      line += ` (parent ${span.parentSpanId} not received)`;
    lines.push(line);
    for (const event of span.events) {
      lines.push(
        `${pad}  · ${event.name} +${ms(event.timeNs - span.startNs)} ms${formatAttributes(event.attributes)}`,
      );
    }
    for (const child of (children.get(span.spanId) ?? []).sort(byStart)) render(child, depth + 1);
  };
  for (const root of roots.sort(byStart)) render(root, 0);
  // Spans whose parent chain loops never hang from a root: show them rather than drop them.
  const rest = spans.filter((s) => !shown.has(s)).sort(byStart);
  if (rest.length > 0) {
    lines.push('(spans in a parent cycle)');
    for (const span of rest) render(span, 0);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// The server

const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Starts a receiver on 127.0.0.1 at a free port. */
export async function startOtlpReceiver(options: OtlpReceiverOptions = {}): Promise<OtlpReceiver> {
  const types = otlpTypes();
  const slowMs = options.slowMs ?? 5000;
  const spans: ReceivedSpan[] = [];
  /** Who waits for spans (waitForSpans): told of each arrival. */
  const waiting = new Set<() => void>();
  const metrics: ReceivedMetric[] = [];
  const requests: ReceivedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let mode: OtlpReceiverMode = 'ok';

  /** Each route checks a decoded export in full (BadRequest when malformed) and keeps it when asked. */
  const routes: Record<
    string,
    { request: Type; response: Type; accept: (o: Obj, e: OtlpEncoding, keep: boolean) => void }
  > = {
    '/v1/traces': {
      request: types.traceRequest,
      response: types.traceResponse,
      accept: (o, e, keep) => {
        const received = normalizeSpans(o, types, e);
        if (keep) spans.push(...received);
        for (const told of [...waiting]) told();
      },
    },
    '/v1/metrics': {
      request: types.metricsRequest,
      response: types.metricsResponse,
      accept: (o, e, keep) => {
        const received = normalizeMetrics(o, types, e);
        if (keep) metrics.push(...received);
      },
    },
  };

  const answer = (
    res: ServerResponse,
    entry: ReceivedRequest,
    status: number,
    contentType: string,
    body: Uint8Array | string,
  ) => {
    entry.status = status;
    if (res.destroyed || res.headersSent) return;
    res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

  /** A refusal: google.rpc.Status in the request's encoding when it has one, else plain text. */
  const refuse = (
    res: ServerResponse,
    entry: ReceivedRequest,
    status: number,
    rpcCode: number,
    message: string,
    encoding?: OtlpEncoding,
  ) => {
    if (status !== 503) entry.error = message;
    if (encoding === 'protobuf') {
      const body = types.rpcStatus.encode(types.rpcStatus.create({ code: rpcCode, message })).finish();
      answer(res, entry, status, 'application/x-protobuf', body);
    } else if (encoding === 'json') {
      answer(res, entry, status, 'application/json', JSON.stringify({ code: rpcCode, message }));
    } else {
      answer(res, entry, status, 'text/plain; charset=utf-8', message);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const requestMode = mode;
    const urlPath = new URL(req.url ?? '/', 'http://receiver').pathname;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const contentType = headers['content-type'] ?? '';
    const entry: ReceivedRequest = { path: urlPath, contentType, headers, bytes: 0 };
    requests.push(entry);

    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).byteLength;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
    }
    entry.bytes = size;

    const route = routes[urlPath];
    if (!route) return refuse(res, entry, 404, 5, `no OTLP route ${urlPath} (only /v1/traces, /v1/metrics)`);
    if (req.method !== 'POST') return refuse(res, entry, 405, 12, `${req.method} ${urlPath}: only POST`);
    const mediaType = contentType.split(';')[0]?.trim().toLowerCase();
    const encoding: OtlpEncoding | undefined =
      mediaType === 'application/x-protobuf'
        ? 'protobuf'
        : mediaType === 'application/json'
          ? 'json'
          : undefined;
    if (!encoding) {
      return refuse(res, entry, 415, 3, `unsupported content-type ${JSON.stringify(contentType)}`);
    }
    if (size > MAX_BODY_BYTES)
      return refuse(res, entry, 413, 8, `body over ${MAX_BODY_BYTES} bytes`, encoding);
    const contentEncoding = (headers['content-encoding'] ?? '').trim().toLowerCase();
    let body = Buffer.concat(chunks);
    try {
      if (contentEncoding === 'gzip' || contentEncoding === 'x-gzip') body = gunzipSync(body);
      else if (contentEncoding === 'deflate') body = inflateSync(body);
      else if (contentEncoding !== '' && contentEncoding !== 'identity') {
        return refuse(
          res,
          entry,
          415,
          3,
          `unsupported content-encoding ${JSON.stringify(contentEncoding)}`,
          encoding,
        );
      }
    } catch (e) {
      return refuse(res, entry, 400, 3, `bad ${contentEncoding} body: ${(e as Error).message}`, encoding);
    }

    try {
      // Checked in full before any answer, in every mode: a malformed export is a 400, never a
      // half-kept batch. Kept only when the answer will be a success ('ok', 'slow').
      route.accept(
        decode(route.request, body, encoding),
        encoding,
        requestMode === 'ok' || requestMode === 'slow',
      );
    } catch (e) {
      if (e instanceof BadRequest) return refuse(res, entry, 400, 3, e.message, encoding);
      throw e;
    }

    if (requestMode === 'hang') return;
    if (requestMode === 'error') return refuse(res, entry, 503, 14, 'receiver set to error mode', encoding);
    const ok = () => {
      if (encoding === 'protobuf') {
        answer(
          res,
          entry,
          200,
          'application/x-protobuf',
          route.response.encode(route.response.create({})).finish(),
        );
      } else {
        answer(
          res,
          entry,
          200,
          'application/json',
          JSON.stringify(route.response.toObject(route.response.create({}))),
        );
      }
    };
    if (requestMode === 'ok') return ok();
    const timer = setTimeout(() => {
      timers.delete(timer);
      ok();
    }, slowMs);
    timers.add(timer);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`otlp-receiver: ${(e as Error).stack ?? String(e)}`);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...spans],
    metrics: () => [...metrics],
    requests: () => requests.map((r) => ({ ...r, headers: { ...r.headers } })),
    waitForSpans(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        // Looked at as each export arrives, not on a timer of its own.
        const look = () => {
          const snapshot = [...spans];
          if (!predicate(snapshot)) return;
          done();
          resolve(snapshot);
        };
        const timer = setTimeout(() => {
          done();
          const names = spans.map((s) => `${s.name} (${s.kind})`);
          reject(
            new Error(
              `waitForSpans: no match after ${timeoutMs} ms; ${spans.length} span(s) received` +
                (names.length > 0 ? `: ${names.join(', ')}` : ''),
            ),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiting.delete(look);
        };
        waiting.add(look);
        look();
      });
    },
    tree: (traceId) => renderTree(spans, traceId),
    setMode(next) {
      mode = next;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
