import type { EmbeddingInput } from '../canonical/embeddings';
import type { CanonicalRequest, ContentPart, Usage } from '../canonical/types';

/**
 * The input-token estimate of /v1/messages/count_tokens when no vendor counts: about four
 * characters a token over the text a Messages body holds (system, message text, tool calls'
 * and results' content, tool definitions), three tokens of framing per message, and 1,600 per
 * image or document (a mid-sized image; their size is not read). Real tokenizers differ by
 * model and language — expect ±25 % on prose, more on code or non-Latin scripts.
 */
const CHARS_PER_TOKEN = 4;
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_ATTACHMENT = 1_600;
/** Keys whose values are structure, not text the model reads. */
const STRUCTURE_KEYS = new Set(['type', 'role', 'id', 'tool_use_id', 'cache_control', 'media_type']);
const ATTACHMENT_TYPES = new Set(['image', 'document']);

export function estimateInputTokens(body: Record<string, unknown>): number {
  const tally = { chars: 0, attachments: 0 };
  walk(body.system, tally, false);
  walk(body.messages, tally, false);
  walk(body.tools, tally, true);
  const messages = Array.isArray(body.messages) ? body.messages.length : 0;
  return (
    Math.ceil(tally.chars / CHARS_PER_TOKEN) +
    messages * TOKENS_PER_MESSAGE +
    tally.attachments * TOKENS_PER_ATTACHMENT
  );
}

/**
 * The prompt of a canonical request, by the same rule: what admission reserves on token limits
 * for it (limits/reservation.ts), so it must be cheap — string lengths, no copies — and err
 * high rather than low; the settlement replaces it with the vendor's count.
 */
export function estimatePromptTokens(request: CanonicalRequest): number {
  const tally = { chars: 0, attachments: 0 };
  for (const part of request.system) tally.chars += part.text.length;
  for (const message of request.messages) {
    for (const part of message.content) countPart(part, tally);
  }
  for (const tool of request.tools ?? []) {
    if (tool.kind === 'hosted') {
      walk(tool.declaration, tally, true);
      continue;
    }
    tally.chars += tool.name.length + (tool.description?.length ?? 0);
    if (tool.kind === 'function') walk(tool.parameters, tally, true);
  }
  return (
    Math.ceil(tally.chars / CHARS_PER_TOKEN) +
    request.messages.length * TOKENS_PER_MESSAGE +
    tally.attachments * TOKENS_PER_ATTACHMENT
  );
}

function countPart(part: ContentPart, tally: { chars: number; attachments: number }): void {
  switch (part.type) {
    case 'text':
      tally.chars += part.text.length;
      return;
    case 'image':
      tally.attachments++;
      return;
    case 'tool_call':
      tally.chars += part.name.length + part.arguments.length;
      return;
    case 'tool_result':
      for (const inner of part.content) countPart(inner, tally);
      return;
    case 'reasoning':
      // Reasoning sent back is input too (to the vendor that takes it); its opaque form is not text.
      tally.chars += part.text.length;
      return;
    case 'vendor':
      walk(part.block, tally, false);
      return;
  }
}

/** Key names are text the model reads only in JSON it is shown: tool schemas and call arguments. */
function walk(value: unknown, tally: { chars: number; attachments: number }, keysAreText: boolean): void {
  if (typeof value === 'string') {
    tally.chars += value.length;
  } else if (typeof value === 'number' || typeof value === 'boolean') {
    tally.chars += String(value).length;
  } else if (Array.isArray(value)) {
    for (const item of value) walk(item, tally, keysAreText);
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.type === 'string' && ATTACHMENT_TYPES.has(record.type)) {
      tally.attachments++;
      return;
    }
    for (const [key, inner] of Object.entries(record)) {
      if (!keysAreText && STRUCTURE_KEYS.has(key)) continue;
      if (keysAreText) tally.chars += key.length;
      walk(inner, tally, keysAreText || key === 'input');
    }
  }
}

/**
 * Input tokens of an embeddings request whose vendor does not count them (the Gemini API):
 * the same four characters a token, at least one per text; token-id inputs count themselves.
 */
export function estimateEmbeddingTokens(input: EmbeddingInput): number {
  if (input.kind === 'tokens') return input.tokens.reduce((sum, ids) => sum + ids.length, 0);
  return input.texts.reduce((sum, text) => sum + Math.max(1, Math.ceil(text.length / CHARS_PER_TOKEN)), 0);
}

/**
 * A stream's usage when it reported none (it broke off, or the vendor sends none): the prompt
 * by the rule above and the answer at four characters a token. Logged as estimated and charged
 * against limits and budgets like a vendor's count, so a stream cannot spend without counting.
 */
export function estimateStreamUsage(request: CanonicalRequest, answerChars: number): Usage {
  return {
    inputTokens: estimatePromptTokens(request),
    outputTokens: Math.ceil(answerChars / CHARS_PER_TOKEN),
  };
}
