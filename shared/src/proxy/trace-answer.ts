import type { WireFormatName } from '../canonical/ports';
import type { CanonicalRequest } from '../canonical/types';
import type { Redactor } from '../guardrails/redact-text';
import type { Span } from '../telemetry/span';
import { answerFactsIn } from '../wire/common/answer-facts';
import type { Exchange } from './accounting';
import type { Finished } from './respond';
import type { ProxyCall, ProxyDeps } from './types';

/** What a traced answer's span reads of the body the client got. */
export interface TracedAnswer {
  format: WireFormatName;
  /** The admin opted in to message content in spans (otel_capture_content). */
  content: boolean;
}

export function tracedAnswer(call: ProxyCall, deps: ProxyDeps): TracedAnswer {
  return { format: call.format, content: deps.traceContent?.() === true };
}

/**
 * The answering attempt's span, closed once the answer is whole (or cut): usage, timing, why
 * the model stopped and, when the admin opted in, the answer as the client got it (redacted as
 * the logs are). The request's span gets the finish reasons and the first chunk's time too.
 */
export function traceAnswer(span: Span, exchange: Exchange, finished: Finished, traced: TracedAnswer): void {
  const usage = finished.usage;
  span.setAll({
    'gen_ai.usage.input_tokens': usage?.inputTokens,
    'gen_ai.usage.output_tokens': usage?.outputTokens,
    'gen_ai.usage.cache_read.input_tokens': usage?.cachedInputTokens,
    'gen_ai.usage.cache_creation.input_tokens': usage?.cacheWriteTokens,
    'gen_ai.usage.reasoning.output_tokens': usage?.reasoningTokens,
  });
  if (finished.firstChunkAt !== null) {
    const seconds = (finished.firstChunkAt - exchange.startedAt) / 1000;
    span.set('gen_ai.response.time_to_first_chunk', seconds);
    exchange.span?.set('gen_ai.response.time_to_first_chunk', seconds);
  }
  if (finished.bytes) traceBody(span, exchange, new TextDecoder().decode(finished.bytes), traced);
  if (finished.failure !== null) span.fail(finished.failure);
  else if (finished.stalled !== null) span.fail(finished.stalled);
  span.end();
}

function traceBody(span: Span, exchange: Exchange, body: string, traced: TracedAnswer): void {
  const facts = answerFactsIn(traced.format, body, exchange.request.stream);
  const attributes = {
    'gen_ai.response.finish_reasons': facts.finishReasons.length > 0 ? facts.finishReasons : undefined,
    'gen_ai.response.id': facts.id,
  };
  span.setAll(attributes);
  exchange.span?.setAll(attributes);
  if (!traced.content) return;
  const output = exchange.logRedactor ? exchange.logRedactor.redact(body) : body;
  span.set('gen_ai.output.messages', output);
  exchange.span?.set('gen_ai.output.messages', output);
}

/** The request's messages for a span, as the logs would show them (security.redact for logs). */
export function contentForTrace(request: CanonicalRequest, redactor: Redactor | null | undefined): string {
  const text = JSON.stringify({ system: request.system, messages: request.messages });
  return redactor ? redactor.redact(text) : text;
}
