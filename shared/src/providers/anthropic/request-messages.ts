/**
 * Canonical conversation → Messages API `messages`.
 */
import type {
  CanonicalMessage,
  ContentPart,
  ImagePart,
  TextPart,
  ToolResultPart,
} from '../../canonical/types';
import { imageRef } from '../common/images';
import { parseToolArguments } from '../common/json';
import type {
  AnthropicBlock,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
} from './types';

/** OpenAI-format clients send inline images as data: URLs; Anthropic wants them as base64. */
function imageBlock(part: ImagePart): AnthropicImageBlock {
  const image = imageRef(part);
  if (image.kind === 'remote') return { type: 'image', source: { type: 'url', url: image.url } };
  return { type: 'image', source: { type: 'base64', media_type: image.mediaType, data: image.data } };
}

/** Anthropic rejects empty text blocks, so they are dropped rather than sent. */
function innerBlocks(
  parts: ReadonlyArray<TextPart | ImagePart>,
): Array<AnthropicTextBlock | AnthropicImageBlock> {
  const out: Array<AnthropicTextBlock | AnthropicImageBlock> = [];
  for (const part of parts) {
    if (part.type === 'image') out.push(imageBlock(part));
    else if (part.text !== '') out.push({ type: 'text', text: part.text });
  }
  return out;
}

function toolResultBlock(part: ToolResultPart): AnthropicToolResultBlock {
  const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: part.toolCallId };
  const content = innerBlocks(part.content);
  if (content.length > 0) block.content = content;
  if (part.isError) block.is_error = true;
  return block;
}

/** Parts that only make sense in one role (tool calls: assistant, results: user) are dropped elsewhere. */
function toBlocks(role: CanonicalMessage['role'], parts: ContentPart[]): AnthropicBlock[] {
  const out: AnthropicBlock[] = [];
  for (const part of parts) {
    if (part.type === 'tool_call') {
      if (role === 'assistant') {
        out.push({
          type: 'tool_use',
          id: part.id,
          name: part.name,
          input: parseToolArguments(part.arguments),
        });
      }
    } else if (part.type === 'tool_result') {
      if (role === 'user') out.push(toolResultBlock(part));
    } else {
      out.push(...innerBlocks([part]));
    }
  }
  return out;
}

/** Anthropic requires tool_result blocks before any other content of their user turn. */
function toolResultsFirst(blocks: AnthropicBlock[]): AnthropicBlock[] {
  const results = blocks.filter((block) => block.type === 'tool_result');
  return results.length === 0
    ? blocks
    : [...results, ...blocks.filter((block) => block.type !== 'tool_result')];
}

/**
 * Roles must alternate, so consecutive same-role turns merge (OpenAI-format histories
 * produce them, e.g. tool results followed by a user message); empty turns are dropped
 * because Anthropic rejects them.
 */
export function toAnthropicMessages(messages: CanonicalMessage[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  for (const message of messages) {
    const blocks = toBlocks(message.role, message.content);
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last?.role === message.role) last.content.push(...blocks);
    else out.push({ role: message.role, content: blocks });
  }
  for (const message of out) if (message.role === 'user') message.content = toolResultsFirst(message.content);
  return out;
}
