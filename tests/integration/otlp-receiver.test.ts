import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type OtlpReceiver,
  type ReceivedMetric,
  type ReceivedSpan,
  startOtlpReceiver,
} from '../helpers/otlp-receiver';

/**
 * The OTLP test receiver (tests/helpers/otlp-receiver.ts) against payloads made without it: binary
 * ExportTraceServiceRequest / ExportMetricsServiceRequest encoded here with protobufjs from the
 * official opentelemetry-proto files, and OTLP/JSON documents written out by hand after the spec
 * (hex ids, enums as integers, 64-bit integers as strings or numbers, bytes as base64).
 */

// The official definitions, loaded here on their own (not through the receiver).
const protoRoot = (() => {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('@elastic/mockotlpserver/package.json'));
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (path.isAbsolute(target) ? target : path.join(dir, target));
  root.loadSync([
    path.join(dir, 'opentelemetry/proto/collector/trace/v1/trace_service.proto'),
    path.join(dir, 'opentelemetry/proto/collector/metrics/v1/metrics_service.proto'),
  ]);
  return root;
})();
const TraceRequest = protoRoot.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
const TraceResponse = protoRoot.lookupType(
  'opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse',
);
const MetricsRequest = protoRoot.lookupType(
  'opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest',
);

const TRACE = '5b8efff798038103d269b633813fc60c';
const TRACE2 = '0af7651916cd43dd8448eb211c80319c';
const ROOT = 'eee19b7ec3c1b174';
const CALL = 'eee19b7ec3c1b173';
const AUTH = 'eee19b7ec3c1b172';
const PUBLISH = '0123456789abcdef';
const CONSUME = 'fedcba9876543210';
const CRON = '00f067aa0ba902b7';
const MISSING_PARENT = 'aaaaaaaaaaaaaaaa';
const BASE = 1_700_000_000_000_000_000n;
const at = (offsetNs: number): string => (BASE + BigInt(offsetNs)).toString();
const id = (hex: string) => Buffer.from(hex, 'hex');

/** ExportTraceServiceRequest in protobufjs's object form (SpanKind: 1 INTERNAL … 5 CONSUMER). */
function traceRequestObject() {
  const str = (v: string) => ({ stringValue: v });
  return {
    resourceSpans: [
      {
        resource: {
          attributes: [
            { key: 'service.name', value: str('sluice-gateway') },
            { key: 'service.version', value: str('0.1.0') },
            { key: 'process.pid', value: { intValue: 1234 } },
          ],
        },
        scopeSpans: [
          {
            scope: { name: 'sluice.gateway', version: '0.1.0' },
            spans: [
              {
                traceId: id(TRACE),
                spanId: id(ROOT),
                traceState: 'vendor=abc,other=1',
                flags: 0x301,
                name: 'gateway.request',
                kind: 2,
                startTimeUnixNano: at(0),
                endTimeUnixNano: at(12_500_000),
                attributes: [
                  { key: 'http.request.method', value: str('POST') },
                  { key: 'http.response.status_code', value: { intValue: 200 } },
                  { key: 'sluice.cached', value: { boolValue: false } },
                  { key: 'sluice.cost_usd', value: { doubleValue: 0.0125 } },
                  {
                    key: 'sluice.tags',
                    value: { arrayValue: { values: [str('a'), { intValue: 2 }, { boolValue: true }] } },
                  },
                  {
                    key: 'sluice.limits',
                    value: {
                      kvlistValue: {
                        values: [
                          { key: 'rpm', value: { intValue: 60 } },
                          { key: 'scope', value: str('key') },
                        ],
                      },
                    },
                  },
                  { key: 'sluice.digest', value: { bytesValue: Buffer.from([0xde, 0xad, 0xbe, 0xef]) } },
                  { key: 'sluice.big', value: { intValue: '9007199254740993' } },
                  { key: 'sluice.negative', value: { intValue: -42 } },
                  { key: 'sluice.empty', value: {} },
                ],
                status: { code: 2, message: 'upstream 502' },
              },
              {
                traceId: id(TRACE),
                spanId: id(AUTH),
                parentSpanId: id(CALL),
                name: 'auth.check',
                kind: 1,
                startTimeUnixNano: at(2_000_000),
                endTimeUnixNano: at(2_250_000),
              },
              {
                traceId: id(TRACE),
                spanId: id(CALL),
                parentSpanId: id(ROOT),
                flags: 1,
                name: 'provider.call',
                kind: 3,
                startTimeUnixNano: at(1_000_000),
                endTimeUnixNano: at(11_000_000),
                attributes: [{ key: 'gen_ai.system', value: str('openai') }],
                events: [
                  {
                    name: 'retry',
                    timeUnixNano: at(3_000_000),
                    attributes: [{ key: 'attempt', value: { intValue: 2 } }],
                  },
                  { name: 'first_token', timeUnixNano: at(5_000_000) },
                ],
                status: { code: 1 },
              },
            ],
          },
          {
            scope: { name: 'sluice.queue' },
            spans: [
              {
                traceId: id(TRACE),
                spanId: id(PUBLISH),
                parentSpanId: id(ROOT),
                name: 'queue.publish',
                kind: 4,
                startTimeUnixNano: at(200_000),
                endTimeUnixNano: at(700_000),
              },
            ],
          },
        ],
      },
      {
        resource: { attributes: [{ key: 'service.name', value: str('worker') }] },
        scopeSpans: [
          {
            scope: { name: 'sluice.worker', version: '2' },
            spans: [
              {
                traceId: id(TRACE),
                spanId: id(CONSUME),
                parentSpanId: id(PUBLISH),
                name: 'queue.consume',
                kind: 5,
                startTimeUnixNano: at(12_100_000),
                endTimeUnixNano: at(13_000_000),
                attributes: [{ key: 'messaging.system', value: str('redis') }],
              },
              {
                traceId: id(TRACE2),
                spanId: id(CRON),
                parentSpanId: id(MISSING_PARENT),
                name: 'cron.tick',
                kind: 0,
                startTimeUnixNano: at(0),
                endTimeUnixNano: at(1_024_000),
              },
            ],
          },
        ],
      },
    ],
  };
}

const traceProtobuf = (): Uint8Array =>
  TraceRequest.encode(TraceRequest.fromObject(traceRequestObject())).finish();

/** The same export as OTLP/JSON, written out by hand. */
const TRACE_JSON = `{
  "resourceSpans": [
    {
      "resource": {
        "attributes": [
          { "key": "service.name", "value": { "stringValue": "sluice-gateway" } },
          { "key": "service.version", "value": { "stringValue": "0.1.0" } },
          { "key": "process.pid", "value": { "intValue": "1234" } }
        ]
      },
      "scopeSpans": [
        {
          "scope": { "name": "sluice.gateway", "version": "0.1.0" },
          "spans": [
            {
              "traceId": "5B8EFFF798038103D269B633813FC60C",
              "spanId": "eee19b7ec3c1b174",
              "parentSpanId": "",
              "traceState": "vendor=abc,other=1",
              "flags": 769,
              "name": "gateway.request",
              "kind": 2,
              "startTimeUnixNano": "1700000000000000000",
              "endTimeUnixNano": "1700000000012500000",
              "attributes": [
                { "key": "http.request.method", "value": { "stringValue": "POST" } },
                { "key": "http.response.status_code", "value": { "intValue": 200 } },
                { "key": "sluice.cached", "value": { "boolValue": false } },
                { "key": "sluice.cost_usd", "value": { "doubleValue": 0.0125 } },
                { "key": "sluice.tags", "value": { "arrayValue": { "values": [
                  { "stringValue": "a" }, { "intValue": "2" }, { "boolValue": true }
                ] } } },
                { "key": "sluice.limits", "value": { "kvlistValue": { "values": [
                  { "key": "rpm", "value": { "intValue": 60 } },
                  { "key": "scope", "value": { "stringValue": "key" } }
                ] } } },
                { "key": "sluice.digest", "value": { "bytesValue": "3q2+7w==" } },
                { "key": "sluice.big", "value": { "intValue": "9007199254740993" } },
                { "key": "sluice.negative", "value": { "intValue": "-42" } },
                { "key": "sluice.empty", "value": {} }
              ],
              "events": [],
              "status": { "code": 2, "message": "upstream 502" }
            },
            {
              "traceId": "5b8efff798038103d269b633813fc60c",
              "spanId": "eee19b7ec3c1b172",
              "parentSpanId": "eee19b7ec3c1b173",
              "name": "auth.check",
              "kind": 1,
              "startTimeUnixNano": "1700000000002000000",
              "endTimeUnixNano": "1700000000002250000",
              "status": {}
            },
            {
              "traceId": "5b8efff798038103d269b633813fc60c",
              "spanId": "eee19b7ec3c1b173",
              "parentSpanId": "eee19b7ec3c1b174",
              "flags": 1,
              "name": "provider.call",
              "kind": 3,
              "startTimeUnixNano": "1700000000001000000",
              "endTimeUnixNano": "1700000000011000000",
              "attributes": [{ "key": "gen_ai.system", "value": { "stringValue": "openai" } }],
              "events": [
                {
                  "timeUnixNano": "1700000000003000000",
                  "name": "retry",
                  "attributes": [{ "key": "attempt", "value": { "intValue": "2" } }]
                },
                { "timeUnixNano": "1700000000005000000", "name": "first_token" }
              ],
              "status": { "code": 1 }
            }
          ]
        },
        {
          "scope": { "name": "sluice.queue" },
          "spans": [
            {
              "traceId": "5b8efff798038103d269b633813fc60c",
              "spanId": "0123456789abcdef",
              "parent_span_id": "eee19b7ec3c1b174",
              "name": "queue.publish",
              "kind": 4,
              "start_time_unix_nano": "1700000000000200000",
              "end_time_unix_nano": "1700000000000700000"
            }
          ]
        }
      ]
    },
    {
      "resource": { "attributes": [{ "key": "service.name", "value": { "stringValue": "worker" } }] },
      "scopeSpans": [
        {
          "scope": { "name": "sluice.worker", "version": "2" },
          "spans": [
            {
              "traceId": "5b8efff798038103d269b633813fc60c",
              "spanId": "fedcba9876543210",
              "parentSpanId": "0123456789abcdef",
              "name": "queue.consume",
              "kind": 5,
              "startTimeUnixNano": "1700000000012100000",
              "endTimeUnixNano": "1700000000013000000",
              "attributes": [{ "key": "messaging.system", "value": { "stringValue": "redis" } }]
            },
            {
              "traceId": "0af7651916cd43dd8448eb211c80319c",
              "spanId": "00f067aa0ba902b7",
              "parentSpanId": "aaaaaaaaaaaaaaaa",
              "name": "cron.tick",
              "kind": 0,
              "startTimeUnixNano": "1700000000000000000",
              "endTimeUnixNano": 1700000000001024000
            }
          ]
        }
      ]
    }
  ]
}`;

/**
 * What the receiver must make of either document, field by field, in document order.
 * (The last endTimeUnixNano above is a JSON number: 1700000000001024000 is a multiple of 256, so
 * exactly representable as a double, and survives JSON.parse.)
 */
function expectedSpans(encoding: 'protobuf' | 'json'): ReceivedSpan[] {
  const gateway = { 'service.name': 'sluice-gateway', 'service.version': '0.1.0', 'process.pid': 1234 };
  const worker = { 'service.name': 'worker' };
  const span = (fields: Partial<ReceivedSpan>): ReceivedSpan => ({
    traceId: TRACE,
    spanId: '',
    parentSpanId: '',
    traceState: '',
    flags: 0,
    name: '',
    kind: 'UNSPECIFIED',
    startNs: 0n,
    endNs: 0n,
    attributes: {},
    events: [],
    status: { code: 'UNSET', message: '' },
    resource: gateway,
    scope: { name: 'sluice.gateway', version: '0.1.0' },
    encoding,
    ...fields,
  });
  return [
    span({
      spanId: ROOT,
      traceState: 'vendor=abc,other=1',
      flags: 0x301,
      name: 'gateway.request',
      kind: 'SERVER',
      startNs: BASE,
      endNs: BASE + 12_500_000n,
      attributes: {
        'http.request.method': 'POST',
        'http.response.status_code': 200,
        'sluice.cached': false,
        'sluice.cost_usd': 0.0125,
        'sluice.tags': ['a', 2, true],
        'sluice.limits': { rpm: 60, scope: 'key' },
        'sluice.digest': new Uint8Array([0xde, 0xad, 0xbe, 0xef]),
        'sluice.big': 9007199254740993n,
        'sluice.negative': -42,
        'sluice.empty': null,
      },
      status: { code: 'ERROR', message: 'upstream 502' },
    }),
    span({
      spanId: AUTH,
      parentSpanId: CALL,
      name: 'auth.check',
      kind: 'INTERNAL',
      startNs: BASE + 2_000_000n,
      endNs: BASE + 2_250_000n,
    }),
    span({
      spanId: CALL,
      parentSpanId: ROOT,
      flags: 1,
      name: 'provider.call',
      kind: 'CLIENT',
      startNs: BASE + 1_000_000n,
      endNs: BASE + 11_000_000n,
      attributes: { 'gen_ai.system': 'openai' },
      events: [
        { name: 'retry', timeNs: BASE + 3_000_000n, attributes: { attempt: 2 } },
        { name: 'first_token', timeNs: BASE + 5_000_000n, attributes: {} },
      ],
      status: { code: 'OK', message: '' },
    }),
    span({
      spanId: PUBLISH,
      parentSpanId: ROOT,
      name: 'queue.publish',
      kind: 'PRODUCER',
      startNs: BASE + 200_000n,
      endNs: BASE + 700_000n,
      scope: { name: 'sluice.queue', version: '' },
    }),
    span({
      spanId: CONSUME,
      parentSpanId: PUBLISH,
      name: 'queue.consume',
      kind: 'CONSUMER',
      startNs: BASE + 12_100_000n,
      endNs: BASE + 13_000_000n,
      attributes: { 'messaging.system': 'redis' },
      resource: worker,
      scope: { name: 'sluice.worker', version: '2' },
    }),
    span({
      traceId: TRACE2,
      spanId: CRON,
      parentSpanId: MISSING_PARENT,
      name: 'cron.tick',
      kind: 'UNSPECIFIED',
      startNs: BASE,
      endNs: BASE + 1_024_000n,
      resource: worker,
      scope: { name: 'sluice.worker', version: '2' },
    }),
  ];
}

const EXPECTED_TREE = [
  `trace ${TRACE} (5 spans)`,
  'gateway.request SERVER 12.50 ms status=ERROR "upstream 502" http.request.method="POST"' +
    ' http.response.status_code=200 sluice.big=9007199254740993 sluice.cached=false sluice.cost_usd=0.0125' +
    ' sluice.digest=0xdeadbeef sluice.empty=null sluice.limits={rpm=60, scope="key"} sluice.negative=-42' +
    ' sluice.tags=["a", 2, true]',
  '  queue.publish PRODUCER 0.50 ms',
  '    queue.consume CONSUMER 0.90 ms messaging.system="redis"',
  '  provider.call CLIENT 10.00 ms status=OK gen_ai.system="openai"',
  '    · retry +2.00 ms attempt=2',
  '    · first_token +4.00 ms',
  '    auth.check INTERNAL 0.25 ms',
].join('\n');

/** ExportMetricsServiceRequest, object form (AggregationTemporality: 1 DELTA, 2 CUMULATIVE). */
function metricsRequestObject() {
  return {
    resourceMetrics: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'sluice-gateway' } }] },
        scopeMetrics: [
          {
            scope: { name: 'sluice.gateway', version: '0.1.0' },
            metrics: [
              {
                name: 'sluice.requests',
                unit: '{request}',
                description: 'Requests handled',
                sum: {
                  aggregationTemporality: 2,
                  isMonotonic: true,
                  dataPoints: [
                    {
                      attributes: [{ key: 'route', value: { stringValue: '/v1/chat' } }],
                      timeUnixNano: at(0),
                      asInt: 7,
                    },
                    {
                      attributes: [{ key: 'route', value: { stringValue: '/v1/embeddings' } }],
                      timeUnixNano: at(0),
                      asInt: '3',
                    },
                  ],
                },
              },
              {
                name: 'sluice.active',
                unit: '1',
                gauge: { dataPoints: [{ timeUnixNano: at(0), asDouble: 2.5 }] },
              },
              {
                name: 'sluice.latency',
                unit: 'ms',
                histogram: {
                  aggregationTemporality: 1,
                  dataPoints: [
                    {
                      attributes: [{ key: 'provider', value: { stringValue: 'openai' } }],
                      count: 4,
                      sum: 30.5,
                      bucketCounts: [1, 2, 1],
                      explicitBounds: [5, 10],
                    },
                    { count: 0, bucketCounts: [0, 0, 0], explicitBounds: [5, 10] },
                  ],
                },
              },
              {
                name: 'sluice.size',
                unit: 'By',
                exponentialHistogram: {
                  aggregationTemporality: 2,
                  dataPoints: [
                    { count: 3, sum: 12, scale: 1, positive: { offset: 0, bucketCounts: [1, 2] } },
                  ],
                },
              },
              {
                name: 'sluice.summary',
                unit: 's',
                summary: {
                  dataPoints: [
                    {
                      count: 2,
                      sum: 9,
                      quantileValues: [
                        { quantile: 0, value: 4 },
                        { quantile: 1, value: 5 },
                      ],
                    },
                  ],
                },
              },
            ],
          },
        ],
      },
    ],
  };
}

const METRICS_JSON = `{
  "resourceMetrics": [{
    "resource": { "attributes": [{ "key": "service.name", "value": { "stringValue": "sluice-gateway" } }] },
    "scopeMetrics": [{
      "scope": { "name": "sluice.gateway", "version": "0.1.0" },
      "metrics": [
        {
          "name": "sluice.requests", "unit": "{request}", "description": "Requests handled",
          "sum": {
            "aggregationTemporality": 2, "isMonotonic": true,
            "dataPoints": [
              { "attributes": [{ "key": "route", "value": { "stringValue": "/v1/chat" } }],
                "timeUnixNano": "1700000000000000000", "asInt": "7" },
              { "attributes": [{ "key": "route", "value": { "stringValue": "/v1/embeddings" } }],
                "timeUnixNano": "1700000000000000000", "asInt": 3 }
            ]
          }
        },
        { "name": "sluice.active", "unit": "1",
          "gauge": { "dataPoints": [{ "timeUnixNano": "1700000000000000000", "asDouble": 2.5 }] } },
        {
          "name": "sluice.latency", "unit": "ms",
          "histogram": {
            "aggregationTemporality": 1,
            "dataPoints": [
              { "attributes": [{ "key": "provider", "value": { "stringValue": "openai" } }],
                "count": "4", "sum": 30.5, "bucketCounts": ["1", "2", "1"], "explicitBounds": [5, 10] },
              { "count": "0", "bucketCounts": ["0", "0", "0"], "explicitBounds": [5, 10] }
            ]
          }
        },
        {
          "name": "sluice.size", "unit": "By",
          "exponentialHistogram": {
            "aggregationTemporality": 2,
            "dataPoints": [{ "count": "3", "sum": 12, "scale": 1,
              "positive": { "offset": 0, "bucketCounts": ["1", "2"] } }]
          }
        },
        {
          "name": "sluice.summary", "unit": "s",
          "summary": { "dataPoints": [{ "count": "2", "sum": 9,
            "quantileValues": [{ "quantile": 0, "value": 4 }, { "quantile": 1, "value": 5 }] }] }
        }
      ]
    }]
  }]
}`;

function expectedMetrics(encoding: 'protobuf' | 'json'): ReceivedMetric[] {
  const common = {
    description: '',
    resource: { 'service.name': 'sluice-gateway' },
    scope: { name: 'sluice.gateway', version: '0.1.0' },
    encoding,
  };
  return [
    {
      ...common,
      name: 'sluice.requests',
      unit: '{request}',
      description: 'Requests handled',
      kind: 'sum',
      temporality: 'CUMULATIVE',
      monotonic: true,
      points: [
        { attributes: { route: '/v1/chat' }, value: 7 },
        { attributes: { route: '/v1/embeddings' }, value: 3 },
      ],
    },
    { ...common, name: 'sluice.active', unit: '1', kind: 'gauge', points: [{ attributes: {}, value: 2.5 }] },
    {
      ...common,
      name: 'sluice.latency',
      unit: 'ms',
      kind: 'histogram',
      temporality: 'DELTA',
      points: [
        {
          attributes: { provider: 'openai' },
          count: 4,
          sum: 30.5,
          bucketCounts: [1, 2, 1],
          explicitBounds: [5, 10],
        },
        { attributes: {}, count: 0, bucketCounts: [0, 0, 0], explicitBounds: [5, 10] },
      ],
    },
    {
      ...common,
      name: 'sluice.size',
      unit: 'By',
      kind: 'exponentialHistogram',
      temporality: 'CUMULATIVE',
      points: [{ attributes: {}, count: 3, sum: 12 }],
    },
    {
      ...common,
      name: 'sluice.summary',
      unit: 's',
      kind: 'summary',
      points: [{ attributes: {}, count: 2, sum: 9 }],
    },
  ];
}

const PROTOBUF = 'application/x-protobuf';
const JSON_TYPE = 'application/json';

async function post(
  receiver: OtlpReceiver,
  route: string,
  body: Uint8Array | string,
  headers: Record<string, string>,
): Promise<{ status: number; contentType: string | null; body: Uint8Array; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${receiver.url}${route}`, {
    method: 'POST',
    headers,
    // A copy over a plain ArrayBuffer, the BodyInit the DOM typings take.
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  const answer = new Uint8Array(await res.arrayBuffer());
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    body: answer,
    ms: performance.now() - started,
  };
}

describe('OTLP test receiver', () => {
  let receiver: OtlpReceiver;
  beforeEach(async () => {
    receiver = await startOtlpReceiver();
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('listens on 127.0.0.1 at a port of its own', () => {
    expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('decodes a binary ExportTraceServiceRequest into every ReceivedSpan field', async () => {
    const body = traceProtobuf();
    const res = await post(receiver, '/v1/traces', body, {
      'content-type': PROTOBUF,
      'x-test-header': 'yes',
    });
    expect(res.status).toBe(200);
    expect(res.contentType).toBe(PROTOBUF);
    // An empty ExportTraceServiceResponse: no partial_success, zero bytes on the wire.
    expect(res.body.byteLength).toBe(0);
    expect(TraceResponse.toObject(TraceResponse.decode(res.body))).toEqual({});
    expect(receiver.spans()).toEqual(expectedSpans('protobuf'));
    const [request] = receiver.requests();
    expect(request).toMatchObject({
      path: '/v1/traces',
      contentType: PROTOBUF,
      bytes: body.byteLength,
      status: 200,
    });
    expect(request?.headers['x-test-header']).toBe('yes');
  });

  it('decodes a hand-written OTLP/JSON export into the same spans', async () => {
    const res = await post(receiver, '/v1/traces', TRACE_JSON, {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(res.status).toBe(200);
    expect(res.contentType).toBe(JSON_TYPE);
    expect(JSON.parse(new TextDecoder().decode(res.body))).toEqual({});
    expect(receiver.spans()).toEqual(expectedSpans('json'));
  });

  it('renders a trace as an indented tree, children by start time', async () => {
    await post(receiver, '/v1/traces', traceProtobuf(), { 'content-type': PROTOBUF });
    expect(receiver.tree(TRACE)).toBe(EXPECTED_TREE);
    expect(receiver.tree(TRACE.toUpperCase())).toBe(EXPECTED_TREE);
    expect(receiver.tree(TRACE2)).toBe(
      [
        `trace ${TRACE2} (1 span)`,
        `cron.tick UNSPECIFIED 1.02 ms (parent ${MISSING_PARENT} not received)`,
      ].join('\n'),
    );
    expect(receiver.tree('f'.repeat(32))).toBe(`trace ${'f'.repeat(32)}: no spans received`);
  });

  it('gunzips content-encoding: gzip in both encodings', async () => {
    const gzProto = gzipSync(traceProtobuf());
    const gzJson = gzipSync(TRACE_JSON);
    expect(
      (await post(receiver, '/v1/traces', gzProto, { 'content-type': PROTOBUF, 'content-encoding': 'gzip' }))
        .status,
    ).toBe(200);
    expect(
      (await post(receiver, '/v1/traces', gzJson, { 'content-type': JSON_TYPE, 'content-encoding': 'gzip' }))
        .status,
    ).toBe(200);
    expect(receiver.spans()).toEqual([...expectedSpans('protobuf'), ...expectedSpans('json')]);
    expect(receiver.requests().map((r) => r.bytes)).toEqual([gzProto.byteLength, gzJson.byteLength]);
    // A body that says gzip and is not: 400, nothing kept.
    const bad = await post(receiver, '/v1/traces', traceProtobuf(), {
      'content-type': PROTOBUF,
      'content-encoding': 'gzip',
    });
    expect(bad.status).toBe(400);
    expect(receiver.spans()).toHaveLength(12);
  });

  it('decodes metrics of every kind, binary and JSON alike', async () => {
    const body = MetricsRequest.encode(MetricsRequest.fromObject(metricsRequestObject())).finish();
    expect((await post(receiver, '/v1/metrics', body, { 'content-type': PROTOBUF })).status).toBe(200);
    expect((await post(receiver, '/v1/metrics', METRICS_JSON, { 'content-type': JSON_TYPE })).status).toBe(
      200,
    );
    expect(receiver.metrics()).toEqual([...expectedMetrics('protobuf'), ...expectedMetrics('json')]);
    expect(receiver.spans()).toEqual([]);
  });

  it('refuses other content types with 415, unknown paths with 404, malformed exports with 400', async () => {
    expect((await post(receiver, '/v1/traces', TRACE_JSON, { 'content-type': 'text/plain' })).status).toBe(
      415,
    );
    expect(
      (await post(receiver, '/v1/traces', traceProtobuf(), { 'content-type': 'application/protobuf' }))
        .status,
    ).toBe(415);
    expect((await post(receiver, '/v1/traces', traceProtobuf(), {})).status).toBe(415);
    expect((await post(receiver, '/v1/logs', traceProtobuf(), { 'content-type': PROTOBUF })).status).toBe(
      404,
    );
    // JSON ids are hex, not base64.
    const base64Id = TRACE_JSON.replace(
      '"spanId": "eee19b7ec3c1b174"',
      `"spanId": "${id(ROOT).toString('base64')}"`,
    );
    const badJson = await post(receiver, '/v1/traces', base64Id, { 'content-type': JSON_TYPE });
    expect(badJson.status).toBe(400);
    expect(JSON.parse(new TextDecoder().decode(badJson.body))).toMatchObject({
      code: 3,
      message: expect.stringMatching(/not hex/),
    });
    // A trace id of 8 bytes.
    const short = traceRequestObject();
    const firstSpan = short.resourceSpans[0]?.scopeSpans[0]?.spans[0];
    if (firstSpan) firstSpan.traceId = id(ROOT);
    const shortId = TraceRequest.encode(TraceRequest.fromObject(short)).finish();
    expect((await post(receiver, '/v1/traces', shortId, { 'content-type': PROTOBUF })).status).toBe(400);
    // Not protobuf at all.
    expect(
      (await post(receiver, '/v1/traces', new Uint8Array([0xff, 0xff, 0xff]), { 'content-type': PROTOBUF }))
        .status,
    ).toBe(400);
    expect(
      (await post(receiver, '/v1/traces', '{"resourceSpans": 1}', { 'content-type': JSON_TYPE })).status,
    ).toBe(400);
    expect(receiver.spans()).toEqual([]);
    expect(receiver.requests().map((r) => r.status)).toEqual([415, 415, 415, 404, 400, 400, 400, 400]);
    expect(receiver.requests()[0]?.error).toMatch(/unsupported content-type "text\/plain"/);
  });

  it('error mode answers 503 and keeps nothing; ok mode again keeps', async () => {
    receiver.setMode('error');
    const failed = await post(receiver, '/v1/traces', traceProtobuf(), { 'content-type': PROTOBUF });
    expect(failed.status).toBe(503);
    expect(failed.contentType).toBe(PROTOBUF);
    const json = await post(receiver, '/v1/traces', TRACE_JSON, { 'content-type': JSON_TYPE });
    expect(json.status).toBe(503);
    expect(JSON.parse(new TextDecoder().decode(json.body))).toMatchObject({ code: 14 });
    expect(receiver.spans()).toEqual([]);
    receiver.setMode('ok');
    expect((await post(receiver, '/v1/traces', traceProtobuf(), { 'content-type': PROTOBUF })).status).toBe(
      200,
    );
    expect(receiver.spans()).toHaveLength(6);
    expect(receiver.requests().map((r) => r.status)).toEqual([503, 503, 200]);
  });

  it('slow mode answers 200 after 5 s, the spans kept on arrival', async () => {
    receiver.setMode('slow');
    const pending = post(receiver, '/v1/traces', traceProtobuf(), { 'content-type': PROTOBUF });
    await receiver.waitForSpans((spans) => spans.length === 6, 2000);
    expect(receiver.requests()[0]?.status).toBeUndefined();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.ms).toBeGreaterThanOrEqual(4900);
    expect(res.ms).toBeLessThan(7000);
    expect(receiver.requests()[0]?.status).toBe(200);
  }, 15_000);

  it('hang mode never answers and keeps the socket open until close()', async () => {
    receiver.setMode('hang');
    const body = traceProtobuf();
    const { port } = new URL(receiver.url);
    const events: string[] = [];
    const req = httpRequest({
      host: '127.0.0.1',
      port: Number(port),
      method: 'POST',
      path: '/v1/traces',
      headers: { 'content-type': PROTOBUF, 'content-length': body.byteLength },
    });
    req.on('response', (res) => events.push(`response ${res.statusCode}`));
    const ended = new Promise<void>((resolve) => {
      req.on('error', (e: NodeJS.ErrnoException) => {
        events.push(`error ${e.code ?? e.message}`);
        resolve();
      });
      req.on('close', () => resolve());
    });
    req.end(body);
    // The receiver has read the whole export and its handler has returned, without an answer.
    await vi.waitFor(() =>
      expect(receiver.requests()).toMatchObject([{ path: '/v1/traces', bytes: body.byteLength }]),
    );
    expect(events).toEqual([]);
    expect(req.socket?.destroyed).toBe(false);
    expect(receiver.requests()).toMatchObject([{ path: '/v1/traces', bytes: body.byteLength }]);
    expect(receiver.requests()[0]?.status).toBeUndefined();
    expect(receiver.spans()).toEqual([]);
    const closing = performance.now();
    await receiver.close();
    await ended;
    expect(performance.now() - closing).toBeLessThan(1000);
    expect(events).toEqual(['error ECONNRESET']);
    // afterEach closes it again: a second close resolves too.
    await expect(receiver.close()).resolves.toBeUndefined();
  });

  it('waitForSpans resolves once the predicate holds and names what came on timeout', async () => {
    setTimeout(() => void post(receiver, '/v1/traces', traceProtobuf(), { 'content-type': PROTOBUF }), 200);
    const spans = await receiver.waitForSpans((all) => all.some((s) => s.name === 'cron.tick'), 5000);
    expect(spans.map((s) => s.name)).toContain('cron.tick');
    await expect(receiver.waitForSpans((all) => all.some((s) => s.name === 'never'), 100)).rejects.toThrow(
      /waitForSpans: no match after 100 ms; 6 span\(s\) received: gateway\.request \(SERVER\), auth\.check \(INTERNAL\), .*cron\.tick \(UNSPECIFIED\)/,
    );
  });
});
