import type { StreamEvent } from '../../canonical/types';
import type { SseEvent } from '../../sse/decoder';
import { streamError } from '../common/errors';
import { randomId } from '../common/ids';
import { parseJsonObject } from '../common/json';
import { createSseStreamDecoder, type SseEventMapper } from '../common/sse-stream';
import { geminiErrorType, readGeminiError } from './errors';
import {
  firstCandidate,
  type GeminiDecodeOptions,
  geminiFinishReason,
  geminiPartContent,
  geminiUsage,
  partsOf,
} from './response';
import type { GeminiResponse, GeminiUsageMetadata } from './types';

/**
 * `streamGenerateContent?alt=sse` → canonical events. Every SSE `data:` is a complete
 * GenerateContentResponse: text parts continue the open text block, a function call arrives
 * whole (start + one delta with all arguments + stop). Usage is cumulative per chunk, so
 * the last one seen is reported once, after finish.
 */
export class GeminiStreamMapper implements SseEventMapper {
  private readonly newId: (prefix: string) => string;
  private started = false;
  private finished = false;
  private failed = false;
  private nextIndex = 0;
  private openText: number | undefined;
  private sawToolCall = false;
  private usage: GeminiUsageMetadata | undefined;

  constructor(private readonly options: GeminiDecodeOptions = {}) {
    this.newId = options.newId ?? randomId;
  }

  onEvent(event: SseEvent): StreamEvent[] {
    if (this.failed) return [];
    const chunk = parseJsonObject(event.data);
    if (!chunk) return this.fail('upstream_error', 'Gemini sent an unreadable stream chunk');
    const error = readGeminiError(chunk);
    // An error inside a 200 stream has no HTTP status of its own: count it a server fault.
    if (error) return this.fail(geminiErrorType(error, 500), error.message ?? 'Gemini stream error');
    // Vendor JSON at the trust boundary: read through optional chaining and array checks.
    const response = chunk as GeminiResponse;
    const out: StreamEvent[] = [];
    this.ensureStarted(response, out);
    if (response.usageMetadata) this.usage = response.usageMetadata;
    if (this.finished) return out;
    const candidate = firstCandidate(response);
    for (const part of partsOf(candidate)) this.part(geminiPartContent(part, this.newId), out);
    const blocked = candidate === undefined && response.promptFeedback?.blockReason !== undefined;
    if (candidate?.finishReason || blocked) {
      this.closeText(out);
      const reason = blocked
        ? 'content_filter'
        : geminiFinishReason(candidate?.finishReason, this.sawToolCall);
      out.push({ type: 'finish', finishReason: reason });
      this.finished = true;
    }
    return out;
  }

  /** End of the byte stream: close what is open and report usage. */
  onEnd(): StreamEvent[] {
    const out: StreamEvent[] = [];
    this.closeText(out);
    if (!this.finished) {
      this.finished = true;
      out.push(streamError('upstream_error', 'Gemini stream ended before a finish reason'));
    }
    if (this.usage) out.push({ type: 'usage', usage: geminiUsage(this.usage) });
    return out;
  }

  private part(item: ReturnType<typeof geminiPartContent>, out: StreamEvent[]): void {
    if (item?.type === 'text') {
      if (this.openText === undefined) {
        this.openText = this.nextIndex++;
        out.push({ type: 'text_start', index: this.openText });
      }
      out.push({ type: 'text_delta', index: this.openText, text: item.text });
    } else if (item?.type === 'tool_call') {
      this.closeText(out);
      const index = this.nextIndex++;
      this.sawToolCall = true;
      out.push({ type: 'tool_call_start', index, id: item.id, name: item.name });
      out.push({ type: 'tool_call_delta', index, argumentsDelta: item.arguments });
      out.push({ type: 'block_stop', index });
    }
  }

  private ensureStarted(response: GeminiResponse, out: StreamEvent[]): void {
    if (this.started) return;
    this.started = true;
    out.push({
      type: 'start',
      id: response.responseId || this.newId('gen_'),
      model: response.modelVersion || this.options.model || '',
    });
  }

  private closeText(out: StreamEvent[]): void {
    if (this.openText === undefined) return;
    out.push({ type: 'block_stop', index: this.openText });
    this.openText = undefined;
  }

  private fail(errorType: string, message: string): StreamEvent[] {
    const out: StreamEvent[] = [];
    this.closeText(out);
    this.finished = true;
    this.failed = true;
    out.push(streamError(errorType, message));
    return out;
  }
}

export function createGeminiStreamDecoder(
  options: GeminiDecodeOptions = {},
): TransformStream<Uint8Array, StreamEvent> {
  return createSseStreamDecoder(new GeminiStreamMapper(options));
}
