import { type GuardrailMark, type MarkedGuardrail, parseMarks } from '../guardrails/marks';
import type { RequestLogRecord } from '../logs/requests/record';
import type { ModelEndpoint } from '../proxy/types';
import { operationOf, providerNameOf } from '../telemetry/gen-ai';
import { counter, type Labels, METRICS, type MetricSample, observe } from './definitions';

/** Error types as the gateway's envelope names them, by status. */
const ERROR_TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  499: 'client_closed_request',
  502: 'upstream_error',
  503: 'service_unavailable',
};

/** One HTTP exchange: the request counter, its duration, and an error counter for 4xx/5xx. */
export function httpSamples(
  method: string,
  endpoint: string,
  status: number,
  seconds: number,
): MetricSample[] {
  const samples = counter(METRICS.httpRequests, { method, endpoint, status: String(status) });
  observe(METRICS.httpDuration, { method, endpoint }, seconds, samples);
  if (status >= 400) {
    const type = ERROR_TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'client_error');
    counter(METRICS.errors, { type }, 1, samples);
  }
  return samples;
}

/** A model request as its request-log row tells it: tokens, cache hit, upstream latency. */
export function exchangeSamples(record: RequestLogRecord): MetricSample[] {
  const model = record.model;
  const samples = counter(METRICS.tokens, { model, kind: 'prompt' }, record.promptTokens);
  counter(METRICS.tokens, { model, kind: 'completion' }, record.completionTokens, samples);
  if (record.cacheHit) counter(METRICS.cacheHits, { model }, 1, samples);
  if (record.upstreamLatencyMs !== null && record.provider) {
    observe(
      METRICS.upstreamDuration,
      { provider: record.provider },
      record.upstreamLatencyMs / 1000,
      samples,
    );
  }
  const routeCap =
    record.statusCode === 429 ? /Rate limited: (route:\S+)/.exec(record.errorMessage ?? '')?.[1] : undefined;
  if (routeCap) counter(METRICS.limitRefusals, { limit: routeCap }, 1, samples);
  for (const mark of parseMarks(record.guardrail)) {
    samples.push(...guardrailSamples(mark.guardrail, mark.rule, mark.action));
  }
  if (record.providerType && !record.cacheHit) genAiSamples(record, record.providerType, samples);
  return samples;
}

/**
 * The OpenTelemetry GenAI client metrics (gen_ai.client.token.usage and
 * gen_ai.client.operation.duration) for a request an upstream was called for, with their
 * attributes as Prometheus labels.
 */
function genAiSamples(record: RequestLogRecord, providerType: string, out: MetricSample[]): void {
  const labels = {
    gen_ai_operation_name: operationOf(record.endpoint as ModelEndpoint) ?? 'chat',
    gen_ai_provider_name: providerNameOf(providerType),
    gen_ai_request_model: record.model,
  };
  if (record.promptTokens > 0 || record.completionTokens > 0) {
    observe(METRICS.genAiTokenUsage, { ...labels, gen_ai_token_type: 'input' }, record.promptTokens, out);
    observe(
      METRICS.genAiTokenUsage,
      { ...labels, gen_ai_token_type: 'output' },
      record.completionTokens,
      out,
    );
  }
  const durationLabels: Labels = record.errorType ? { ...labels, error_type: record.errorType } : labels;
  observe(METRICS.genAiOperationDuration, durationLabels, record.latencyMs / 1000, out);
}

/** A request or tool call a guardrail rule refused (or, for flag rules, let pass marked). */
export function guardrailSamples(
  guardrail: MarkedGuardrail,
  rule: string,
  action: GuardrailMark['action'] = 'block',
): MetricSample[] {
  return counter(action === 'block' ? METRICS.guardrailBlocks : METRICS.guardrailFlags, { guardrail, rule });
}

/** A request refused at admission by the limit named `label`. */
export function refusalSamples(label: string): MetricSample[] {
  return counter(METRICS.limitRefusals, { limit: label });
}

/** Records of one log (request, mcp, access, app) the analytics store never got. */
export function droppedSamples(log: string, count: number): MetricSample[] {
  return counter(METRICS.analyticsDropped, { log }, count);
}

/** Spans the trace exporter gave up (telemetry/exporter.ts). */
export function droppedSpanSamples(reason: string, count: number): MetricSample[] {
  return counter(METRICS.spansDropped, { reason }, count);
}
