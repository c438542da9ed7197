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
  /** The exact body the client got, for the response cache; null unless completed. */
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

/** Turns the upstream's successful answer into the client's, in the client's format. */
export async function answerClient(
  attempt: Attempt,
  format: WireFormatWithUsageTap,
  request: CanonicalRequest,
): Promise<ClientAnswer> {
  if (request.stream) return streamAnswer(attempt, format, request);
  const text = await attempt.upstream.text();
  const json = parseUpstreamJson(text, attempt);
  if (attempt.mode === 'native') {
    const usage = format.usageFromResponse(json);
    return jsonAnswer(text, usage);
  }
  const canonical = attempt.adapter.parseResponse(json);
  const body = JSON.stringify(format.renderResponse(canonical, request.model));
  return jsonAnswer(body, canonical.usage);
}

function jsonAnswer(body: string, usage: Usage | null): ClientAnswer {
  const bytes = new TextEncoder().encode(body);
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
): ClientAnswer {
  const source = attempt.upstream.body;
  if (!source) throw new AppError(502, `Upstream ${attempt.route.providerName} answered without a body`);
  const collector = createByteCollector();
  let body: ReadableStream<Uint8Array>;
  let usage: Promise<{ usage: Usage | null; completed: boolean }>;
  if (attempt.mode === 'native') {
    // Usage is read before the format's own transform, which may drop the usage event.
    const reader = format.createNativeUsageReader();
    const piped = source.pipeThrough(reader.transform);
    body = attempt.streamTransform ? piped.pipeThrough(attempt.streamTransform()) : piped;
    usage = reader.usage.then((u) => ({ usage: u, completed: true }));
  } else {
    const tap = createUsageTap();
    body = source
      .pipeThrough(attempt.adapter.createStreamDecoder())
      .pipeThrough(tap.transform)
      .pipeThrough(format.createStreamEncoder(request.model, request));
    usage = tap.result;
  }
  const finished = Promise.all([usage, collector.result]).then(([u, bytes]) => ({
    usage: u.usage,
    completed: u.completed && bytes !== null,
    bytes,
  }));
  return { status: 200, headers: SSE_HEADERS, body: body.pipeThrough(collector.transform), finished };
}
