/**
 * Canonical conversation → Chat Completions `messages`.
 */
import type {
  CanonicalRequest,
  ContentPart,
  ImagePart,
  TextPart,
  ToolResultPart,
} from '../../canonical/types';
import type { OpenAiContentPart, OpenAiMessage, OpenAiToolCall } from './types';

/** Several text parts where OpenAI wants one string (system, tool output) become paragraphs. */
const PART_SEPARATOR = '\n\n';

function joinText(parts: ReadonlyArray<TextPart | ImagePart>): string {
  const texts: string[] = [];
  for (const part of parts) if (part.type === 'text') texts.push(part.text);
  return texts.join(PART_SEPARATOR);
}

function imageUrl(part: ImagePart): OpenAiContentPart {
  const { source } = part;
  const url = source.kind === 'url' ? source.url : `data:${source.mediaType};base64,${source.data}`;
  return { type: 'image_url', image_url: { url } };
}

function toolMessage(part: ToolResultPart): OpenAiMessage {
  // Chat Completions has no error flag on tool output; the text itself must say so.
  return { role: 'tool', tool_call_id: part.toolCallId, content: joinText(part.content) };
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
function userMessages(parts: ContentPart[]): OpenAiMessage[] {
  const tools: OpenAiMessage[] = [];
  const rest: OpenAiContentPart[] = [];
  for (const part of parts) {
    if (part.type === 'text') rest.push({ type: 'text', text: part.text });
    else if (part.type === 'image') rest.push(imageUrl(part));
    else if (part.type === 'tool_result') {
      tools.push(toolMessage(part));
      for (const inner of part.content) if (inner.type === 'image') rest.push(imageUrl(inner));
    }
    // A tool_call in a user turn has no meaning upstream; it is dropped.
  }
  return rest.length > 0 ? [...tools, { role: 'user', content: userContent(rest) }] : tools;
}

function assistantMessage(parts: ContentPart[]): OpenAiMessage {
  let text = '';
  const toolCalls: OpenAiToolCall[] = [];
  for (const part of parts) {
    if (part.type === 'text') text += part.text;
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

export function toOpenAiMessages(request: Pick<CanonicalRequest, 'system' | 'messages'>): OpenAiMessage[] {
  const out: OpenAiMessage[] = [];
  if (request.system.length > 0) out.push({ role: 'system', content: joinText(request.system) });
  for (const message of request.messages) {
    if (message.role === 'user') out.push(...userMessages(message.content));
    else out.push(assistantMessage(message.content));
  }
  return out;
}
