import type { WireFormatName } from '../../canonical/ports';
import type {
  CanonicalMessage,
  ContentPart,
  HostedToolDefinition,
  TextPart,
  VendorPart,
} from '../../canonical/types';

const isToolResult = (part: ContentPart): boolean => part.type === 'tool_result';

/**
 * Appends a message, merging it into the previous one when both belong to one tool turn.
 * OpenAI formats send one message (or item) per tool result and one function_call item per
 * call; vendors such as Anthropic require all results of a turn in a single user message and
 * all calls in the assistant message that made them.
 */
export function appendMessage(messages: CanonicalMessage[], message: CanonicalMessage): void {
  const last = messages.at(-1);
  const mergeResults =
    last?.role === 'user' &&
    message.role === 'user' &&
    message.content.length > 0 &&
    message.content.every(isToolResult) &&
    last.content.length > 0 &&
    last.content.every(isToolResult);
  // An assistant turn may come in pieces (Responses items: reasoning, message, calls each apart).
  const mergeCalls =
    last?.role === 'assistant' &&
    message.role === 'assistant' &&
    (message.content.some((part) => part.type !== 'text') ||
      last.content.every((part) => part.type === 'reasoning'));
  if (last && (mergeResults || mergeCalls)) last.content.push(...message.content);
  else messages.push(message);
}

export function textPart(text: string): TextPart {
  return { type: 'text', text };
}

/** A block with no canonical form, kept as sent so a vendor of `format` can still take it. */
export function vendorPart(
  format: WireFormatName,
  field: string,
  block: Record<string, unknown>,
): VendorPart {
  return { type: 'vendor', format, field, block };
}

/** A tool the vendor runs itself, declared as `tools[index]`: kept as sent, under its own type name. */
export function hostedTool(
  format: WireFormatName,
  index: number,
  declaration: Record<string, unknown>,
): HostedToolDefinition {
  return { kind: 'hosted', format, field: `tools[${index}]`, type: String(declaration.type), declaration };
}

/** Drops undefined values so canonical objects compare and serialise cleanly. */
export function compact<T extends object>(value: T): T {
  // A loop, not entries/filter/fromEntries: this runs on every request's canonical form.
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) if (source[key] !== undefined) out[key] = source[key];
  return out as T;
}
