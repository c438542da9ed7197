/**
 * Canonical conversation → Responses API `input` items.
 *
 * The Responses API takes a list of items, not of turns: a user turn becomes its message plus
 * one output item per tool result, an assistant turn its reasoning, message and call items,
 * each where its part stood. OpenAI's own reasoning (kept whole in `opaque`) goes back exactly
 * as it came, which is what lets a stateless (`store: false`) conversation keep it.
 */
import type {
  CanonicalMessage,
  CanonicalRequest,
  ContentPart,
  ImagePart,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
  VendorPart,
} from '../../canonical/types';
import { customInput } from '../../wire/common/custom-tools';
import { imageToUrl } from '../../wire/common/images';
import { refuseVendorPart } from '../common/untranslatable';
import type {
  ResponsesInputContent,
  ResponsesInputItem,
  ResponsesNative,
  ResponsesOutputText,
  ResponsesToolOutput,
} from './responses-types';

/** Several text parts where the API wants one string (tool output) become paragraphs. */
const PART_SEPARATOR = '\n\n';

interface InputContext {
  /** Names the route's provider type in refusals. */
  providerType: string;
  /** The request's custom (freeform) tools: their calls go as custom_tool_call items. */
  customTools: ReadonlySet<string>;
  /** Ids of the conversation's custom tool calls: their results go as custom_tool_call_output. */
  customCalls: ReadonlySet<string>;
}

type InputPart = TextPart | ImagePart | VendorPart;

/** A block of the Responses format itself goes as it came; any other format's is refused. */
function nativeBlock(part: VendorPart, context: InputContext): ResponsesNative {
  if (part.format !== 'openai-responses') throw refuseVendorPart(part, context.providerType);
  return part.block;
}

/**
 * Whether a Responses block the gateway does not read is a content part (input_file,
 * input_audio, an input_image by file id) rather than a whole item (web_search_call,
 * item_reference, …): every content part of the format that is not read is an `input_*` one.
 */
function isContentBlock(block: ResponsesNative): boolean {
  return typeof block.type === 'string' && block.type.startsWith('input_');
}

function inputContent(part: InputPart, context: InputContext): ResponsesInputContent | ResponsesNative {
  if (part.type === 'text') return { type: 'input_text', text: part.text };
  if (part.type === 'vendor') return nativeBlock(part, context);
  return { type: 'input_image', image_url: imageToUrl(part), detail: 'auto' };
}

/**
 * Text alone is one string, as every tool output is commonly given; images (and the client's
 * own file parts) keep their place in a list of input parts, which tool outputs may be. There
 * is no error flag: the text itself says so.
 */
function toolOutput(part: ToolResultPart, context: InputContext): ResponsesToolOutput {
  const content = part.content;
  if (content.every((inner): inner is TextPart => inner.type === 'text')) {
    return content.map((inner) => inner.text).join(PART_SEPARATOR);
  }
  return content.map((inner) => inputContent(inner, context));
}

function toolResultItem(part: ToolResultPart, context: InputContext): ResponsesInputItem {
  const output = toolOutput(part, context);
  const type = context.customCalls.has(part.toolCallId) ? 'custom_tool_call_output' : 'function_call_output';
  return { type, call_id: part.toolCallId, output };
}

function toolCallItem(part: ToolCallPart, context: InputContext): ResponsesInputItem {
  if (context.customTools.has(part.name)) {
    const input = customInput(part.arguments);
    return { type: 'custom_tool_call', call_id: part.id, name: part.name, input };
  }
  return { type: 'function_call', call_id: part.id, name: part.name, arguments: part.arguments };
}

/**
 * OpenAI's own item, exactly as it came; another vendor's cannot be restored here. A reasoning
 * item without its encrypted content (the model reasoned unasked, so none was included) is
 * dropped: without `store` OpenAI could only look it up by id, and would refuse the request.
 */
function restoredReasoning(part: ReasoningPart): ResponsesNative | null {
  if (part.opaque?.vendor !== 'openai') return null;
  const item = part.opaque.data;
  const restorable =
    item.type !== 'reasoning' ||
    (typeof item.encrypted_content === 'string' && item.encrypted_content !== '');
  return restorable ? item : null;
}

/** Text and images form the user's message; each tool result and client item stands apart, in place. */
function userItems(parts: ContentPart[], context: InputContext): ResponsesInputItem[] {
  const out: ResponsesInputItem[] = [];
  let content: Array<ResponsesInputContent | ResponsesNative> = [];
  const flush = (): void => {
    if (content.length > 0) out.push({ type: 'message', role: 'user', content });
    content = [];
  };
  for (const part of parts) {
    if (part.type === 'text' || part.type === 'image') content.push(inputContent(part, context));
    else if (part.type === 'vendor') {
      const block = nativeBlock(part, context);
      if (isContentBlock(block)) content.push(block);
      else {
        flush();
        out.push(block);
      }
    } else if (part.type === 'tool_result') {
      flush();
      out.push(toolResultItem(part, context));
    }
    // A tool call or reasoning in a user turn has no meaning upstream; it is dropped.
  }
  flush();
  return out;
}

/** Consecutive text parts form one message item; reasoning and calls stand apart, in place. */
function assistantItems(parts: ContentPart[], context: InputContext): ResponsesInputItem[] {
  const out: ResponsesInputItem[] = [];
  let texts: ResponsesOutputText[] = [];
  const flush = (): void => {
    if (texts.length > 0) out.push({ type: 'message', role: 'assistant', content: texts });
    texts = [];
  };
  for (const part of parts) {
    if (part.type === 'text') {
      if (part.text !== '') texts.push({ type: 'output_text', text: part.text, annotations: [] });
      continue;
    }
    let item: ResponsesInputItem | null = null;
    if (part.type === 'tool_call') item = toolCallItem(part, context);
    else if (part.type === 'reasoning') item = restoredReasoning(part);
    else if (part.type === 'vendor') item = nativeBlock(part, context);
    // Images and tool results have no place in an assistant turn; they are dropped.
    if (item === null) continue;
    flush();
    out.push(item);
  }
  flush();
  return out;
}

/** An instruction given mid-conversation stays where it was, as the developer's. */
function systemItems(parts: ContentPart[]): ResponsesInputItem[] {
  const content = parts.flatMap((part): ResponsesInputContent[] =>
    part.type === 'text' ? [{ type: 'input_text', text: part.text }] : [],
  );
  return content.length > 0 ? [{ type: 'message', role: 'developer', content }] : [];
}

function customCallIds(messages: CanonicalMessage[], customTools: ReadonlySet<string>): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    for (const part of message.content) {
      if (part.type === 'tool_call' && customTools.has(part.name)) ids.add(part.id);
    }
  }
  return ids;
}

/** The leading system prompt, which goes as `instructions`; undefined when there is none. */
export function responsesInstructions(system: TextPart[]): string | undefined {
  const text = system.map((part) => part.text).join(PART_SEPARATOR);
  return text === '' ? undefined : text;
}

export function toResponsesInput(
  request: Pick<CanonicalRequest, 'messages' | 'tools'>,
  providerType: string,
): ResponsesInputItem[] {
  const customTools = new Set<string>();
  for (const tool of request.tools ?? []) if (tool.kind === 'custom') customTools.add(tool.name);
  const context: InputContext = {
    providerType,
    customTools,
    customCalls: customCallIds(request.messages, customTools),
  };
  const out: ResponsesInputItem[] = [];
  for (const message of request.messages) {
    if (message.role === 'user') out.push(...userItems(message.content, context));
    else if (message.role === 'assistant') out.push(...assistantItems(message.content, context));
    else out.push(...systemItems(message.content));
  }
  return out;
}
