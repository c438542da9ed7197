/**
 * Converse `reasoningContent` blocks ↔ canonical reasoning. The whole content block is the
 * opaque form (`{vendor: 'bedrock', data: {reasoningContent: …}}`): Bedrock checks the
 * signature against the text, so a block goes back exactly as it came or not at all.
 */
import type { ReasoningPart } from '../../canonical/types';
import { asRecord, asString, type JsonObject } from '../common/json';
import type { BedrockContentBlock, BedrockReasoningContent } from './types';

/** A response content block's reasoning, or undefined when it carries none. */
export function bedrockReasoningPart(block: JsonObject): ReasoningPart | undefined {
  const content = asRecord(block.reasoningContent);
  if (!content) return undefined;
  const text = asString(asRecord(content.reasoningText)?.text) ?? '';
  return { type: 'reasoning', text, opaque: { vendor: 'bedrock', data: block } };
}

/**
 * The block to send back for a reasoning part, or null. Only Bedrock's own, and only when it
 * can be checked: signed text or redacted content. Models that reason without signing it
 * (DeepSeek R1, …) refuse their reasoning as input, so it is dropped like another vendor's.
 */
export function restorableReasoning(part: ReasoningPart): BedrockContentBlock | null {
  if (part.opaque?.vendor !== 'bedrock') return null;
  const content = asRecord(part.opaque.data.reasoningContent);
  if (!content) return null;
  const signed = asString(asRecord(content.reasoningText)?.signature);
  const redacted = asString(content.redactedContent);
  if (!signed && !redacted) return null;
  return part.opaque.data as { reasoningContent: BedrockReasoningContent };
}

/** Redacted content may arrive in several base64 deltas, each padded on its own. */
function joinBase64(parts: string[]): string {
  if (parts.length === 1) return parts[0] ?? '';
  try {
    // atob/btoa work on byte strings, so the bytes pass through unchanged.
    return btoa(parts.map((part) => atob(part)).join(''));
  } catch {
    return parts.join(''); // not base64 after all: kept as it came, for Bedrock to judge
  }
}

/** One streamed reasoning block, assembled from its `reasoningContent` deltas. */
export class ReasoningAssembly {
  private text = '';
  private signature = '';
  private readonly redacted: string[] = [];

  /** Takes one delta; returns the reasoning text it adds ('' for signatures and redactions). */
  add(delta: JsonObject): string {
    const text = asString(delta.text) ?? '';
    this.text += text;
    this.signature += asString(delta.signature) ?? '';
    const redacted = asString(delta.redactedContent);
    if (redacted) this.redacted.push(redacted);
    return text;
  }

  /** The content block as Converse would have answered it whole. */
  block(): { reasoningContent: BedrockReasoningContent } {
    if (this.redacted.length > 0) return { reasoningContent: { redactedContent: joinBase64(this.redacted) } };
    const reasoningText = this.signature
      ? { text: this.text, signature: this.signature }
      : { text: this.text };
    return { reasoningContent: { reasoningText } };
  }
}
