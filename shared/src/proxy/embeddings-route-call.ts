import {
  type EmbeddingRequest,
  type EmbeddingResult,
  embeddingInputCount,
  type VendorAnswer,
} from '../canonical/embeddings';
import type { ProviderAdapter, UpstreamCall } from '../canonical/ports';
import type { UpstreamError } from '../canonical/types';
import { AppError } from '../http/app-error';
import type { Span } from '../telemetry/span';
import { readUpstreamTextInTime } from './idle-guard';
import { type RouteCaller, targetFor } from './route-attempts';
import type { ProxyCall, ProxyDeps, ProxySettings, ResolvedRoute } from './types';
import { type FetchFailure, fetchUpstream } from './upstream-fetch';

/**
 * Calls of one request in flight at a time, for vendors that take one input per call (Titan):
 * a Worker may hold six connections open, and a batch of 2,048 inputs should not be 2,048
 * simultaneous calls to the vendor.
 */
export const MAX_CALLS_IN_FLIGHT = 6;

export interface EmbeddingsAnswer {
  result: EmbeddingResult;
  upstreamLatencyMs: number;
}

type CallOutcome =
  | { kind: 'answered'; answer: VendorAnswer; latencyMs: number }
  | { kind: 'failed'; failed: FetchFailure }
  | { kind: 'refused'; refused: UpstreamError };

/** Whether a provider can embed this request (it has an embeddings API that takes the input). */
export function embedsRequest(request: EmbeddingRequest): (adapter: ProviderAdapter) => boolean {
  return (adapter) => adapter.embeddings?.accepts(request) === true;
}

/**
 * How POST /v1/embeddings calls a route: the vendor's embeddings calls (several for a vendor
 * that takes one input per call), all of which must succeed; the first that fails stops the
 * rest and decides, as for chat, whether the next route is tried.
 */
export function embeddingsRouteCaller(
  request: EmbeddingRequest,
  call: ProxyCall,
  deps: ProxyDeps,
  settings: ProxySettings,
): RouteCaller<EmbeddingsAnswer> {
  const callOnce = async (
    upstream: UpstreamCall,
    route: ResolvedRoute,
    adapter: ProviderAdapter,
    span: Span,
  ): Promise<CallOutcome> => {
    const idleMs = settings.upstreamIdleTimeoutMs;
    const result = await fetchUpstream(deps.fetch, upstream, {
      timeoutMs: settings.upstreamTimeoutMs,
      bodyTimeoutMs: idleMs,
      clientSignal: call.signal,
      now: deps.now,
      traceHeaders: span.context ? span.headers() : undefined,
    });
    if (!result.ok) return { kind: 'failed', failed: result };
    const { response } = result;
    // Read at once: a body left unread holds its connection, and later calls would wait for it.
    const text = await readUpstreamTextInTime(response, idleMs, result.abort, result.deadline);
    if (!response.ok) return { kind: 'refused', refused: adapter.mapError(response.status, text ?? '') };
    if (text === null) {
      throw new AppError(504, `Upstream ${route.providerName} sent no complete body within ${idleMs} ms`);
    }
    return {
      kind: 'answered',
      answer: { body: parseJson(text, route), headers: response.headers },
      latencyMs: result.latencyMs,
    };
  };

  return {
    serves: embedsRequest(request),
    async call(route, adapter, span) {
      const embeddings = adapter.embeddings;
      if (!embeddings) throw new AppError(502, `${route.providerName} has no embeddings API`);
      const calls = await embeddings.buildCalls(request, await targetFor(route, deps));
      const outcomes = await untilOneFails(calls, (upstream) => callOnce(upstream, route, adapter, span));
      const answers: VendorAnswer[] = [];
      let upstreamLatencyMs = 0;
      for (const outcome of outcomes) {
        if (outcome.kind === 'failed') return { ok: false, failed: outcome.failed };
        if (outcome.kind === 'refused') return { ok: false, refused: outcome.refused };
        answers.push(outcome.answer);
        upstreamLatencyMs = Math.max(upstreamLatencyMs, outcome.latencyMs);
      }
      const result = embeddings.parseAnswers(answers, request);
      const expected = embeddingInputCount(request.input);
      if (result.vectors.length !== expected) {
        throw new AppError(
          502,
          `Upstream ${route.providerName} answered ${result.vectors.length} embeddings for ${expected} inputs`,
        );
      }
      return { ok: true, value: { result, upstreamLatencyMs } };
    },
  };
}

/**
 * Runs the calls, at most MAX_CALLS_IN_FLIGHT at a time, in order, and gives their outcomes in
 * order; once one has not answered, no more start and only that outcome is given.
 */
async function untilOneFails(
  calls: readonly UpstreamCall[],
  callOnce: (upstream: UpstreamCall) => Promise<CallOutcome>,
): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  let next = 0;
  let failure: CallOutcome | null = null;
  const work = async (): Promise<void> => {
    while (failure === null && next < calls.length) {
      const index = next++;
      const outcome = await callOnce(calls[index] as UpstreamCall);
      if (outcome.kind !== 'answered') failure ??= outcome;
      outcomes[index] = outcome;
    }
  };
  await Promise.all(Array.from({ length: Math.min(MAX_CALLS_IN_FLIGHT, calls.length) }, work));
  return failure ? [failure] : outcomes;
}

function parseJson(text: string, route: ResolvedRoute): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError(502, `Upstream ${route.providerName} answered with a body that is not JSON`);
  }
}
