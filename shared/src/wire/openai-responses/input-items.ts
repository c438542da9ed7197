import { isSealed } from '../../canonical/reasoning';
import type {
  CanonicalMessage,
  ContentPart,
  ImagePart,
  ReasoningPart,
  TextPart,
  VendorPart,
} from '../../canonical/types';
import { badRequest } from '../../http/app-error';
import { appendMessage, textPart, vendorPart } from '../common/conversation';
import { customArguments } from '../common/custom-tools';
import { imageFromUrl } from '../common/images';
import { namespacedName } from '../common/tool-shapes';
import type { ResponsesContentPart, ResponsesInputItem, ResponsesMessageContent } from './request-schema';

type Item = Record<string, unknown>;

function image(part: Item, field: string): ImagePart | VendorPart {
  // File ids point into OpenAI's file store, which no other vendor can read.
  if (typeof part.image_url !== 'string' || part.image_url === '')
    return vendorPart('openai-responses', field, part);
  return imageFromUrl(part.image_url, `${field}.image_url`);
}

function contentParts(
  content: ResponsesMessageContent,
  field: string,
): Array<TextPart | ImagePart | VendorPart> {
  if (typeof content === 'string') return [textPart(content)];
  return content.flatMap((part: ResponsesContentPart, i): Array<TextPart | ImagePart | VendorPart> => {
    const raw = part as Item;
    const at = `${field}[${i}]`;
    if (part.type === 'input_image') return [image(raw, at)];
    if (part.type === 'input_text' || part.type === 'output_text') return [textPart(raw.text as string)];
    // A refusal replayed from an earlier response has no slot in other formats.
    if (part.type === 'refusal') return [];
    return [vendorPart('openai-responses', at, raw)];
  });
}

export interface ConvertedInput {
  system: TextPart[];
  messages: CanonicalMessage[];
}

/** OpenAI's own encrypted reasoning stays OpenAI's; a seal of the gateway's is opened later. */
function reasoningPart(item: Item, field: string): ReasoningPart {
  const summary = Array.isArray(item.summary) ? (item.summary as Array<{ text: string }>) : [];
  const text = summary.map((part) => part.text).join('\n\n');
  const encrypted = item.encrypted_content;
  if (isSealed(encrypted)) {
    return { type: 'reasoning', text, sealed: encrypted, field: `${field}.encrypted_content` };
  }
  return { type: 'reasoning', text, opaque: { vendor: 'openai', data: item } };
}

function toolOutput(item: Item, field: string): ContentPart {
  const output = item.output as string | ResponsesContentPart[];
  const content = typeof output === 'string' ? [textPart(output)] : contentParts(output, `${field}.output`);
  return { type: 'tool_result', toolCallId: item.call_id as string, content };
}

/** Item types the gateway does not read: an `…_output` answers a call (user side), the rest are the model's. */
function otherItem(item: Item, field: string): CanonicalMessage {
  const role = String(item.type).endsWith('_output') ? 'user' : 'assistant';
  return { role, content: [vendorPart('openai-responses', field, item)] };
}

function messageItem(
  item: Item,
  field: string,
  leading: boolean,
  system: TextPart[],
): CanonicalMessage | null {
  const parts = contentParts(item.content as ResponsesMessageContent, `${field}.content`);
  const role = item.role as string;
  if (role === 'system' || role === 'developer') {
    const texts = parts.filter((part): part is TextPart => part.type === 'text');
    if (!leading) return { role: 'system', content: texts };
    system.push(...texts);
    return null;
  }
  if (role === 'assistant' && parts.some((part) => part.type === 'image')) {
    throw badRequest(`Invalid '${field}.content': images are only allowed in user messages`);
  }
  return { role: role as 'user' | 'assistant', content: parts };
}

/**
 * One item → the canonical message it contributes. System and developer messages before the
 * conversation starts form the system prompt; later ones stay in place as system turns.
 */
function itemMessage(
  input: ResponsesInputItem,
  field: string,
  leading: boolean,
  system: TextPart[],
): CanonicalMessage | null {
  const item = input as Item;
  switch (input.type) {
    case 'message':
      return messageItem(item, field, leading, system);
    case 'function_call': {
      const name = namespacedName(item.namespace as string | null | undefined, item.name as string);
      const call: ContentPart = {
        type: 'tool_call',
        id: item.call_id as string,
        name,
        arguments: item.arguments as string,
      };
      return { role: 'assistant', content: [call] };
    }
    case 'custom_tool_call': {
      const call: ContentPart = {
        type: 'tool_call',
        id: item.call_id as string,
        name: item.name as string,
        arguments: customArguments(item.input as string),
      };
      return { role: 'assistant', content: [call] };
    }
    case 'function_call_output':
    case 'custom_tool_call_output':
      return { role: 'user', content: [toolOutput(item, field)] };
    case 'reasoning':
      return { role: 'assistant', content: [reasoningPart(item, field)] };
    default:
      return otherItem(item, field);
  }
}

/**
 * `input` → canonical messages. A string is one user message. Items follow the Responses
 * model: an assistant turn is reasoning, message and call items, and each result is its own
 * output item; appendMessage regroups them into turns.
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
    const message = itemMessage(item, `input[${i}]`, converted.messages.length === 0, converted.system);
    if (message) appendMessage(converted.messages, message);
  });
  return converted;
}
