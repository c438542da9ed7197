import type { Principal } from '../auth/gateway/principal';
import type { CanonicalRequest, Usage } from '../canonical/types';
import { formatMarks, type GuardrailMark } from '../guardrails/marks';
import type { Redactor } from '../guardrails/redact-text';
import { limitSubject } from '../limits/definitions';
import type { CounterAddition } from '../limits/sliding-window';
import { type ClientIdentity, NO_CLIENT } from '../logs/requests/client-identity';
import { costUsd, weightedTokens } from '../logs/requests/cost';
import type { RequestLogRecord } from '../logs/requests/record';
import { effectivePrice } from '../pricing/effective';
import { outcomeAttributes } from '../telemetry/gen-ai';
import { NO_SPAN, type Span } from '../telemetry/span';
import type { Background } from '../util/background';
import type { ModelEndpoint, ProxyDeps, ResolvedModel, ResolvedRoute } from './types';

/** What the proxy knows about a request once it has resolved the model. */
export interface Exchange {
  endpoint: ModelEndpoint;
  principal: Principal;
  request: CanonicalRequest;
  model: ResolvedModel;
  startedAt: number;
  /** What admission reserved on the limits; the settlement gives it back (limits/reservation.ts). */
  reserved: readonly CounterAddition[];
  /** security.redact for the logs: what the error text of the row passes through first. */
  logRedactor?: Redactor | null;
  /** What guardrails did to the request (flagged it, refused it, removed a tool call). */
  guardrails?: GuardrailMark[];
  /** Who called (User-Agent, agent session id); absent: not known. */
  client?: ClientIdentity;
  /** Refused before admission counted it on the limits (proxy/refusals.ts). */
  uncounted?: boolean;
  /** The request's server span; the outcome is told to it, the log write is a child. */
  span?: Span;
}

/** Adds to what the log row will say the guardrails did. */
export function markGuardrails(exchange: Exchange, marks: readonly GuardrailMark[]): void {
  if (marks.length > 0) exchange.guardrails = [...(exchange.guardrails ?? []), ...marks];
}

export interface ExchangeResult {
  route: ResolvedRoute | null;
  statusCode: number;
  usage: Usage | null;
  errorType?: string | null;
  errorMessage?: string | null;
  attempts: number;
  upstreamLatencyMs: number | null;
  cacheHit: boolean;
  clientAborted: boolean;
  /** The usage is the gateway's estimate: the stream reported none. */
  usageEstimated?: boolean;
}

/** A request refused with `error` after reaching `trace.attempts` routes (the last: `trace.route`). */
export function failedExchange(
  error: { status: number; type: string; message: string },
  trace: { attempts: number; route: ResolvedRoute | null },
): ExchangeResult {
  return {
    route: trace.route,
    statusCode: error.status,
    usage: null,
    errorType: error.type,
    errorMessage: error.message,
    attempts: trace.attempts,
    upstreamLatencyMs: null,
    cacheHit: false,
    clientAborted: false,
  };
}

/**
 * The request log row. Cost comes from the model's own prices, else the price-table entry of
 * the answering route's upstream model (pricing/effective.ts); an unpriced request records
 * null and the flag, never a silent 0. A request that failed before any route answered has no
 * tokens; its first route stands in, so it is priced (at 0) exactly when the model normally
 * is; one refused before any model was settled on names a model priced at 0 (refusals.ts).
 * A cache hit cost nothing upstream, so its cost is 0 while its tokens still count (they are
 * what limits and budgets see).
 */
export function buildLogRecord(exchange: Exchange, result: ExchangeResult, now: number): RequestLogRecord {
  const usage = result.usage ?? { inputTokens: 0, outputTokens: 0 };
  const { model, principal } = exchange;
  const route = result.route ?? model.routes[0] ?? null;
  const price = costUsd(usage, effectivePrice(model, route?.tablePrice ?? null));
  return {
    id: crypto.randomUUID(),
    createdAt: new Date(exchange.startedAt),
    userId: principal.userId,
    apiKeyId: principal.kind === 'api_key' ? principal.keyId : null,
    endpoint: exchange.endpoint,
    model: model.name,
    provider: result.route?.providerName ?? null,
    providerType: result.route?.providerType ?? null,
    upstreamModel: result.route?.upstreamModel ?? null,
    routeId: result.route?.routeId ?? null,
    stream: exchange.request.stream,
    statusCode: result.statusCode,
    errorType: result.errorType ?? null,
    errorMessage: redactedLogText(result.errorMessage ?? null, exchange.logRedactor),
    promptTokens: usage.inputTokens,
    completionTokens: usage.outputTokens,
    cachedTokens: usage.cachedInputTokens ?? 0,
    cacheWriteTokens: usage.cacheWriteTokens ?? 0,
    cacheWriteHourTokens: usage.cacheWrite1hTokens ?? 0,
    reasoningTokens: usage.reasoningTokens ?? 0,
    totalTokens: usage.inputTokens + usage.outputTokens,
    weightedTokens: weightedTokens(usage, model),
    costUsd: price === null ? null : result.cacheHit ? 0 : price,
    unpriced: price === null,
    latencyMs: Math.max(0, now - exchange.startedAt),
    upstreamLatencyMs: result.upstreamLatencyMs,
    cacheHit: result.cacheHit,
    attempts: result.attempts,
    clientAborted: result.clientAborted,
    usageEstimated: result.usageEstimated ?? false,
    uncounted: exchange.uncounted === true,
    guardrail: formatMarks(exchange.guardrails ?? []),
    reasoningEffort: exchange.request.reasoning?.effort ?? null,
    ...(exchange.client ?? NO_CLIENT),
  };
}

function redactedLogText(text: string | null, redactor: Redactor | null | undefined): string | null {
  return text === null || !redactor ? text : redactor.redact(text);
}

/**
 * After the response: the log row, and the weighted tokens on the limits of the key, its owner
 * and the answering route (not for a cache hit: no upstream was used), with the reservation
 * given back. Both join the isolate's next batches; a batch this request opens is handed to
 * `keepAlive`, and nothing here waits for a batch another request keeps. Never rejects.
 */
export function settleExchange(
  exchange: Exchange,
  result: ExchangeResult,
  deps: ProxyDeps,
  keepAlive: Background,
): void {
  const now = deps.now();
  const record = buildLogRecord(exchange, result, now);
  const warn = (error: unknown) =>
    deps.warn('usage accounting failed', { error: String(error), model: record.model });
  const span = exchange.span ?? NO_SPAN;
  if (span.recording) {
    span.setAll(outcomeAttributes(record));
    if (record.statusCode >= 500) span.fail(record.errorMessage ?? `status ${record.statusCode}`);
    const write = span.child('sluice.log.write');
    // Kept alive until the row is stored: on workerd the continuations of a request that has
    // ended never run, and this span would never end. Only traced requests wait so.
    keepAlive(
      deps
        .writeLog(record, keepAlive)
        .catch(warn)
        .finally(() => write.end()),
    );
  } else {
    // Not waited for, and nothing chained to it: the write never rejects (the ledger reports
    // its own failures), and on workerd a continuation made in a request that has ended, run
    // when another request's batch settles, is cancelled with a warning per request.
    void deps.writeLog(record, keepAlive);
  }
  if (record.weightedTokens > 0 || exchange.reserved.length > 0) {
    const settlement = {
      subject: limitSubject(exchange.principal),
      route: result.cacheHit ? null : result.route,
      weightedTokens: record.weightedTokens,
      nowMs: now,
      reserved: exchange.reserved,
    };
    deps.countTokens(settlement, keepAlive).catch(warn);
  }
}

/**
 * A request that ended in an unexpected error (not a refusal the client is told of): nothing
 * is logged, but what it reserved goes back.
 */
export function releaseReservation(exchange: Exchange, deps: ProxyDeps, keepAlive: Background): void {
  if (exchange.reserved.length === 0) return;
  const settlement = {
    subject: limitSubject(exchange.principal),
    route: null,
    weightedTokens: 0,
    nowMs: deps.now(),
    reserved: exchange.reserved,
  };
  deps.countTokens(settlement, keepAlive).catch((error: unknown) => {
    deps.warn('reservation not given back', { error: String(error), model: exchange.model.name });
  });
}
