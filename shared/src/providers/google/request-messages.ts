import type { CanonicalMessage, ContentPart, ImagePart, ToolResultPart } from '../../canonical/types';
import { badRequest } from '../../http/app-error';
import { guessImageMimeType, imageRef } from '../common/images';
import { parseToolArguments } from '../common/json';
import { refuseVendorPart } from '../common/untranslatable';
import type { GeminiContent, GeminiPart } from './types';

/**
 * Canonical messages → Gemini `contents`. Roles become user/model; consecutive turns of
 * one role are merged (tool results arrive as their own user message right after a user
 * turn in some wire formats, and Gemini wants one turn per side). Empty text is dropped
 * because Gemini rejects empty parts.
 */
export function toGeminiContents(
  messages: CanonicalMessage[],
  options: { signFunctionCalls?: boolean } = {},
): GeminiContent[] {
  // Gemini keys function responses by name, canonical results by call id: remember the
  // name of every call as we pass it so a later result can be labelled.
  const toolNames = new Map<string, string>();
  const contents: GeminiContent[] = [];
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'model' : 'user';
    const parts = message.content.flatMap((part) => toParts(part, toolNames));
    if (parts.length === 0) continue;
    if (role === 'model' && options.signFunctionCalls) signFirstCall(parts);
    const previous = contents.at(-1);
    if (previous?.role === role) previous.parts.push(...parts);
    else contents.push({ role, parts });
  }
  return contents;
}

/**
 * Gemini 3 refuses replayed function calls without the thought signature it issued, and the
 * canonical model has nowhere to keep one. Google documents this sentinel for history it did
 * not sign; like a real signature it goes on the first call of each step only.
 */
export const THOUGHT_SIGNATURE_SENTINEL = 'skip_thought_signature_validator';

function signFirstCall(parts: GeminiPart[]): void {
  const first = parts.find((part) => part.functionCall !== undefined);
  if (first) first.thoughtSignature = THOUGHT_SIGNATURE_SENTINEL;
}

function toParts(part: ContentPart, toolNames: Map<string, string>): GeminiPart[] {
  switch (part.type) {
    case 'text':
      return part.text === '' ? [] : [{ text: part.text }];
    case 'image':
      return [toImagePart(part)];
    case 'tool_call':
      toolNames.set(part.id, part.name);
      return [{ functionCall: { name: part.name, args: parseToolArguments(part.arguments) } }];
    case 'tool_result':
      return toToolResultParts(part, toolNames);
    case 'reasoning':
      // Gemini keeps its own thought signatures; another vendor's reasoning cannot go back.
      return [];
    case 'vendor':
      throw refuseVendorPart(part, 'google');
  }
}

/**
 * Base64 and data URLs go inline. Other URLs go as `fileData`, which needs a mime type the
 * canonical part does not carry, so it is guessed from the extension.
 */
export function toImagePart(part: ImagePart): GeminiPart {
  const image = imageRef(part);
  if (image.kind === 'inline') return { inlineData: { mimeType: image.mediaType, data: image.data } };
  return { fileData: { mimeType: guessImageMimeType(image.url), fileUri: image.url } };
}

/**
 * `functionResponse.response` must be an object: the result text goes under `content`
 * (`error` for a failed call, the key Gemini documents for errors). Images cannot live
 * inside a function response, so they follow it as ordinary parts of the same turn.
 */
function toToolResultParts(part: ToolResultPart, toolNames: Map<string, string>): GeminiPart[] {
  const name = toolNames.get(part.toolCallId);
  if (name === undefined) {
    throw badRequest(
      `Tool result for call "${part.toolCallId}" does not answer any earlier tool call in the conversation.`,
    );
  }
  const text = part.content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');
  const response = part.isError ? { error: text } : { content: text };
  const images = part.content.flatMap((item) => (item.type === 'image' ? [toImagePart(item)] : []));
  return [{ functionResponse: { name, response } }, ...images];
}
