/**
 * The gateway's Prometheus metrics. Samples are accumulated per isolate and added to one Redis
 * hash in batches (see store.ts), so a scrape of any instance sees the whole deployment.
 */
export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface MetricDef {
  name: string;
  type: MetricType;
  help: string;
  /** A histogram's bucket bounds (default DURATION_BUCKETS, seconds). */
  buckets?: readonly number[];
}

export const METRICS = {
  httpRequests: {
    name: 'http_requests_total',
    type: 'counter',
    help: 'HTTP requests by method, route pattern and status',
  },
  httpDuration: {
    name: 'http_request_duration_seconds',
    type: 'histogram',
    help: 'Time to the response headers, by method and route pattern',
  },
  errors: { name: 'sluice_errors_total', type: 'counter', help: 'Error responses by error type' },
  tokens: {
    name: 'sluice_tokens_total',
    type: 'counter',
    help: 'Tokens by model and kind (prompt, completion), as upstreams reported them',
  },
  cacheHits: {
    name: 'sluice_cache_hits_total',
    type: 'counter',
    help: 'Model requests answered from the response cache',
  },
  limitRefusals: {
    name: 'sluice_rate_limited_total',
    type: 'counter',
    help: 'Requests refused by a limit, by the limit that refused (e.g. user:requests/1m)',
  },
  guardrailBlocks: {
    name: 'sluice_guardrail_blocks_total',
    type: 'counter',
    help: 'Requests, MCP tool calls and tool calls in model answers refused by a guardrail rule, by guardrail (content, inspect_tools) and rule',
  },
  guardrailFlags: {
    name: 'sluice_guardrail_flags_total',
    type: 'counter',
    help: 'Model requests a guardrail flag rule let pass and marked, by guardrail and rule',
  },
  upstreamDuration: {
    name: 'sluice_upstream_duration_seconds',
    type: 'histogram',
    help: 'Time to the upstream response headers, by provider',
  },
  analyticsDropped: {
    name: 'sluice_analytics_dropped_records_total',
    type: 'counter',
    help: 'Log records given up because the analytics store kept failing, by log (request, mcp, …)',
  },
  spansDropped: {
    name: 'sluice_otel_spans_dropped_total',
    type: 'counter',
    help: 'Trace spans given up, by reason: queue_full (the exporter fell behind) or export_failed (the collector refused, failed or timed out)',
  },
  activeRequests: {
    name: 'sluice_active_requests',
    type: 'gauge',
    help: 'Requests in flight across live gateway isolates (scrapes excluded), streams until their end',
  },
  activeStreams: {
    name: 'sluice_active_streams',
    type: 'gauge',
    help: 'Streamed (SSE) responses still open across live gateway isolates',
  },
  genAiTokenUsage: {
    name: 'gen_ai_client_token_usage',
    type: 'histogram',
    help: 'OpenTelemetry GenAI gen_ai.client.token.usage: tokens per request, by gen_ai_token_type (input, output), operation, provider and model',
    buckets: [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864],
  },
  genAiOperationDuration: {
    name: 'gen_ai_client_operation_duration_seconds',
    type: 'histogram',
    help: 'OpenTelemetry GenAI gen_ai.client.operation.duration: seconds per model request answered by an upstream, by operation, provider and model (error_type on failures)',
  },
  routeState: {
    name: 'sluice_route_state',
    type: 'gauge',
    help: 'Routes that failed lately: 0 failing (not benched), 1 benched, 2 on probation; healthy routes are absent',
  },
} as const satisfies Record<string, MetricDef>;

/** Seconds; the last bucket (+Inf) is implied. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export type Labels = Record<string, string>;

/** One increment of one series: `field` is the sample name with its label set, as exposed. */
export interface MetricSample {
  field: string;
  value: number;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function buildField(sampleName: string, labels: Labels): string {
  const names = Object.keys(labels).sort();
  if (names.length === 0) return sampleName;
  return `${sampleName}{${names.map((n) => `${n}="${escapeLabel(labels[n] ?? '')}"`).join(',')}}`;
}

/**
 * Every request records a few dozen samples over a handful of label sets, so the exposition
 * names are built once per label set and kept (bounded) instead of sorted and escaped each
 * time: on the gateway's hot path that was a measurable share of a request's CPU.
 */
const MAX_MEMO = 10_000;
const fieldMemo = new Map<string, string>();
const histogramMemo = new Map<string, HistogramFields>();

interface HistogramFields {
  /** Per bucket, the samples a value in it adds: that bucket's and every later one's, +Inf, count. */
  onesFrom: ReadonlyArray<readonly MetricSample[]>;
  /** What a value above every bucket adds: +Inf and the count. */
  onesAbove: readonly MetricSample[];
  sum: string;
}

function memoKey(name: string, labels: Labels): string {
  let key = name;
  for (const label in labels) key += `\u0001${label}\u0002${labels[label]}`;
  return key;
}

function remember<V>(memo: Map<string, V>, key: string, build: () => V): V {
  let value = memo.get(key);
  if (value === undefined) {
    value = build();
    if (memo.size >= MAX_MEMO) memo.clear();
    memo.set(key, value);
  }
  return value;
}

export function seriesField(sampleName: string, labels: Labels): string {
  return remember(fieldMemo, memoKey(sampleName, labels), () => buildField(sampleName, labels));
}

/** Appends the increment to `out` (a new list when none is given) and returns it. */
export function counter(def: MetricDef, labels: Labels, value = 1, out: MetricSample[] = []): MetricSample[] {
  if (value > 0) out.push({ field: seriesField(def.name, labels), value });
  return out;
}

const one = (field: string): MetricSample => Object.freeze({ field, value: 1 });

/**
 * The increments of value 1 an observation adds are the same every time for a bucket, so they
 * are built once per label set and shared (frozen): an observation allocates only its sum.
 */
function histogramFields(name: string, labels: Labels, bounds: readonly number[]): HistogramFields {
  return remember(histogramMemo, memoKey(name, labels), () => {
    const buckets = bounds.map((le) => one(buildField(`${name}_bucket`, { ...labels, le: String(le) })));
    const onesAbove = [
      one(buildField(`${name}_bucket`, { ...labels, le: '+Inf' })),
      one(buildField(`${name}_count`, labels)),
    ];
    return {
      onesFrom: buckets.map((_, i) => [...buckets.slice(i), ...onesAbove]),
      onesAbove,
      sum: buildField(`${name}_sum`, labels),
    };
  });
}

/** Cumulative buckets (every le ≥ the value, and +Inf), the sum and the count, appended to `out`. */
export function observe(
  def: MetricDef,
  labels: Labels,
  seconds: number,
  out: MetricSample[] = [],
): MetricSample[] {
  const bounds = def.buckets ?? DURATION_BUCKETS;
  const fields = histogramFields(def.name, labels, bounds);
  let first = 0;
  while (first < bounds.length && seconds > (bounds[first] as number)) first++;
  for (const sample of fields.onesFrom[first] ?? fields.onesAbove) out.push(sample);
  out.push({ field: fields.sum, value: seconds });
  return out;
}
