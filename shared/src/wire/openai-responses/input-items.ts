import type { CanonicalMessage, ContentPart, ImagePart, TextPart } from '../../canonical/types';
import { badRequest } from '../../http/app-error';
import { appendMessage, textPart } from '../common/conversation';
import { imageFromUrl } from '../common/images';
import type { ResponsesInputImage, ResponsesInputItem, ResponsesMessageContent } from './request-schema';

function image(part: ResponsesInputImage, field: string): ImagePart {
  // File ids point into OpenAI's file store, which no other vendor can read.
  if (!part.image_url)
    throw badRequest(`Invalid '${field}': only image_url images are supported, not file_id`);
  return imageFromUrl(part.image_url, `${field}.image_url`);
}

function contentParts(content: ResponsesMessageContent, field: string): Array<TextPart | ImagePart> {
  if (typeof content === 'string') return [textPart(content)];
  return content.flatMap((part, i): Array<TextPart | ImagePart> => {
    if (part.type === 'input_image') return [image(part, `${field}[${i}]`)];
    // A refusal replayed from an earlier response has no slot in other formats.
    return part.type === 'refusal' ? [] : [textPart(part.text)];
  });
}

export interface ConvertedInput {
  system: TextPart[];
  messages: CanonicalMessage[];
}

/** One item → the canonical message it contributes (system items add to `system` instead). */
function itemMessage(item: ResponsesInputItem, field: string, system: TextPart[]): CanonicalMessage | null {
  switch (item.type) {
    case 'message': {
      const parts = contentParts(item.content, `${field}.content`);
      if (item.role === 'system' || item.role === 'developer') {
        system.push(...parts.filter((part): part is TextPart => part.type === 'text'));
        return null;
      }
      if (item.role === 'assistant' && parts.some((part) => part.type === 'image')) {
        throw badRequest(`Invalid '${field}.content': images are only allowed in user messages`);
      }
      return { role: item.role, content: parts };
    }
    case 'function_call': {
      const call: ContentPart = {
        type: 'tool_call',
        id: item.call_id,
        name: item.name,
        arguments: item.arguments,
      };
      return { role: 'assistant', content: [call] };
    }
    case 'function_call_output': {
      const output = item.output;
      const content =
        typeof output === 'string' ? [textPart(output)] : contentParts(output, `${field}.output`);
      return { role: 'user', content: [{ type: 'tool_result', toolCallId: item.call_id, content }] };
    }
    case 'reasoning':
      return null;
  }
}

/**
 * `input` → canonical messages. A string is one user message. Items follow the Responses
 * model: an assistant turn is a message item plus one function_call item per call, and each
 * result is its own function_call_output item; appendMessage regroups them into turns.
 */
export function convertInput(
  input: string | ResponsesInputItem[],
  instructions: string | undefined,
): ConvertedInput {
  const converted: ConvertedInput = { system: instructions ? [textPart(instructions)] : [], messages: [] };
  if (typeof input === 'string') {
    converted.messages.push({ role: 'user', content: [textPart(input)] });
    return converted;
  }
  input.forEach((item, i) => {
    const message = itemMessage(item, `input[${i}]`, converted.system);
    if (message) appendMessage(converted.messages, message);
  });
  return converted;
}
