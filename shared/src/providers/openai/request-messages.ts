/**
 * Canonical conversation → Chat Completions `messages`.
 */
import type {
  CanonicalRequest,
  ContentPart,
  ImagePart,
  TextPart,
  ToolResultPart,
  VendorPart,
} from '../../canonical/types';
import { imageToUrl } from '../../wire/common/images';
import { refuseVendorPart } from '../common/untranslatable';
import type { OpenAiContentPart, OpenAiMessage, OpenAiToolCall } from './types';

/** Several text parts where OpenAI wants one string (system, tool output) become paragraphs. */
const PART_SEPARATOR = '\n\n';

function joinText(parts: ReadonlyArray<TextPart | ImagePart | VendorPart>, providerType: string): string {
  const texts: string[] = [];
  for (const part of parts) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'vendor') throw refuseVendorPart(part, providerType);
  }
  return texts.join(PART_SEPARATOR);
}

/** A content part of the Chat Completions format itself (input_audio, file, …) goes as it came. */
function nativePart(part: VendorPart, providerType: string): OpenAiContentPart {
  if (part.format !== 'openai-chat') throw refuseVendorPart(part, providerType);
  // The client's own part, which the vendor of its format takes as it is.
  return part.block as unknown as OpenAiContentPart;
}

function imageUrl(part: ImagePart): OpenAiContentPart {
  return { type: 'image_url', image_url: { url: imageToUrl(part) } };
}

function toolMessage(part: ToolResultPart, providerType: string): OpenAiMessage {
  // Chat Completions has no error flag on tool output; the text itself must say so.
  return { role: 'tool', tool_call_id: part.toolCallId, content: joinText(part.content, providerType) };
}

/** A lone text part goes as a plain string: every OpenAI-compatible server accepts that. */
function userContent(parts: OpenAiContentPart[]): string | OpenAiContentPart[] {
  const [first] = parts;
  return parts.length === 1 && first?.type === 'text' ? first.text : parts;
}

/**
 * Tool results become `role: 'tool'` messages, in order, directly after the assistant turn
 * that called them (OpenAI rejects anything in between). The remaining parts, plus any
 * images from tool results (tool messages carry text only), follow as one user message.
 */
function userMessages(parts: ContentPart[], providerType: string): OpenAiMessage[] {
  const tools: OpenAiMessage[] = [];
  const rest: OpenAiContentPart[] = [];
  for (const part of parts) {
    if (part.type === 'text') rest.push({ type: 'text', text: part.text });
    else if (part.type === 'image') rest.push(imageUrl(part));
    else if (part.type === 'vendor') rest.push(nativePart(part, providerType));
    else if (part.type === 'tool_result') {
      tools.push(toolMessage(part, providerType));
      for (const inner of part.content) if (inner.type === 'image') rest.push(imageUrl(inner));
    }
    // A tool_call or reasoning in a user turn has no meaning upstream; it is dropped.
  }
  return rest.length > 0 ? [...tools, { role: 'user', content: userContent(rest) }] : tools;
}

/** Reasoning has no slot in a Chat Completions request; it is dropped. */
function assistantMessage(parts: ContentPart[], providerType: string): OpenAiMessage {
  let text = '';
  const toolCalls: OpenAiToolCall[] = [];
  for (const part of parts) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'vendor') throw refuseVendorPart(part, providerType);
    else if (part.type === 'tool_call') {
      toolCalls.push({
        id: part.id,
        type: 'function',
        function: { name: part.name, arguments: part.arguments },
      });
    }
  }
  if (toolCalls.length === 0) return { role: 'assistant', content: text };
  return { role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls };
}

function textOnly(parts: ContentPart[]): TextPart[] {
  return parts.filter((part): part is TextPart => part.type === 'text');
}

/** `providerType` names the route's type when a part has no Chat Completions form. */
export function toOpenAiMessages(
  request: Pick<CanonicalRequest, 'system' | 'messages'>,
  providerType: string,
): OpenAiMessage[] {
  const out: OpenAiMessage[] = [];
  if (request.system.length > 0)
    out.push({ role: 'system', content: joinText(request.system, providerType) });
  for (const message of request.messages) {
    if (message.role === 'user') out.push(...userMessages(message.content, providerType));
    else if (message.role === 'system')
      out.push({ role: 'system', content: joinText(textOnly(message.content), providerType) });
    else out.push(assistantMessage(message.content, providerType));
  }
  return out;
}
