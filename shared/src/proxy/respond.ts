import type { CanonicalRequest, Usage } from '../canonical/types';
import { AppError } from '../http/app-error';
import type { WireFormatWithUsageTap } from '../wire/common/wire-format';
import { createByteCollector, createUsageTap } from './taps';
import type { Attempt } from './types';

/** How the exchange ended, known once the client has everything (or has left). */
export interface Finished {
  usage: Usage | null;
  /** False when the client left (or the upstream broke off) before the end. */
  completed: boolean;
  /** The exact body the client got, for the response cache; null unless completed and kept. */
  bytes: Uint8Array | null;
}

export interface ClientAnswer {
  status: number;
  headers: Record<string, string>;
  body: ReadableStream<Uint8Array> | string;
  finished: Promise<Finished>;
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
};
export const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * Turns the upstream's successful answer into the client's, in the client's format. `keep`:
 * the exact bytes the client gets are wanted (for the response cache); otherwise nothing is
 * copied.
 */
export async function answerClient(
  attempt: Attempt,
  format: WireFormatWithUsageTap,
  request: CanonicalRequest,
  keep: boolean,
): Promise<ClientAnswer> {
  if (request.stream) return streamAnswer(attempt, format, request, keep);
  const text = await attempt.upstream.text();
  const json = parseUpstreamJson(text, attempt);
  if (attempt.mode === 'native') {
    const usage = format.usageFromResponse(json);
    return jsonAnswer(text, usage, keep);
  }
  const canonical = attempt.adapter.parseResponse(json);
  const body = JSON.stringify(format.renderResponse(canonical, request.model));
  return jsonAnswer(body, canonical.usage, keep);
}

function jsonAnswer(body: string, usage: Usage | null, keep: boolean): ClientAnswer {
  const bytes = keep ? new TextEncoder().encode(body) : null;
  return {
    status: 200,
    headers: JSON_HEADERS,
    body,
    finished: Promise.resolve({ usage, completed: true, bytes }),
  };
}

function parseUpstreamJson(text: string, attempt: Attempt): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError(502, `Upstream ${attempt.route.providerName} answered with a body that is not JSON`);
  }
}

function streamAnswer(
  attempt: Attempt,
  format: WireFormatWithUsageTap,
  request: CanonicalRequest,
  keep: boolean,
): ClientAnswer {
  const source = attempt.upstream.body;
  if (!source) throw new AppError(502, `Upstream ${attempt.route.providerName} answered without a body`);
  let body: ReadableStream<Uint8Array>;
  let ended: Promise<{ usage: Usage | null; completed: boolean }>;
  if (attempt.mode === 'native' && !attempt.plan?.dropEvent) {
    // The client's bytes go out as the upstream sent them, without passing through
    // JavaScript (a stream stage costs a measurable share of a request on workerd); usage is
    // read from the other branch of a tee. A client that leaves aborts the upstream call
    // (proxy/upstream-fetch.ts), which ends that branch too, as not completed.
    const [toClient, copy] = source.tee();
    body = toClient;
    ended = format.watchNativeUsage(copy);
  } else if (attempt.mode === 'native') {
    // Events to drop: one stage, the bytes pass (less those events) while usage is read.
    const reader = format.createNativeUsageReader(attempt.plan);
    body = source.pipeThrough(reader.transform);
    ended = Promise.all([reader.usage, reader.completed]).then(([usage, completed]) => ({
      usage,
      completed,
    }));
  } else {
    const tap = createUsageTap();
    body = source
      .pipeThrough(attempt.adapter.createStreamDecoder())
      .pipeThrough(tap.transform)
      .pipeThrough(format.createStreamEncoder(request.model, request));
    ended = tap.result;
  }
  if (!keep) {
    const finished = ended.then((e) => ({ ...e, bytes: null }));
    return { status: 200, headers: SSE_HEADERS, body, finished };
  }
  const collector = createByteCollector();
  const finished = Promise.all([ended, collector.result]).then(([e, bytes]) => ({
    usage: e.usage,
    completed: e.completed && bytes !== null,
    bytes,
  }));
  return { status: 200, headers: SSE_HEADERS, body: body.pipeThrough(collector.transform), finished };
}
