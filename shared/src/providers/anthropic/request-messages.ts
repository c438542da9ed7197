/**
 * Canonical conversation → Messages API `messages`.
 */
import type {
  CacheMark,
  CanonicalMessage,
  ContentPart,
  ImagePart,
  TextPart,
  ToolResultPart,
  VendorPart,
} from '../../canonical/types';
import { imageRef } from '../common/images';
import { parseToolArguments } from '../common/json';
import { refuseVendorPart } from '../common/untranslatable';
import type {
  AnthropicBlock,
  AnthropicCacheControl,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicNativeBlock,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
} from './types';

export function cacheControl(mark: CacheMark | undefined): { cache_control?: AnthropicCacheControl } {
  if (!mark) return {};
  return { cache_control: mark.ttl ? { type: 'ephemeral', ttl: mark.ttl } : { type: 'ephemeral' } };
}

/** OpenAI-format clients send inline images as data: URLs; Anthropic wants them as base64. */
function imageBlock(part: ImagePart): AnthropicImageBlock {
  const image = imageRef(part);
  const source: AnthropicImageBlock['source'] =
    image.kind === 'remote'
      ? { type: 'url', url: image.url }
      : { type: 'base64', media_type: image.mediaType, data: image.data };
  return { type: 'image', source, ...cacheControl(part.cache) };
}

/** A block of the Messages format itself goes back as it came; any other format's is refused. */
function nativeBlock(part: VendorPart): AnthropicNativeBlock {
  if (part.format !== 'anthropic-messages') throw refuseVendorPart(part, 'anthropic');
  return part.block as AnthropicNativeBlock;
}

type InnerBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicNativeBlock;

/** Anthropic rejects empty text blocks, so they are dropped (null) rather than sent. */
function innerBlock(part: TextPart | ImagePart | VendorPart): InnerBlock | null {
  if (part.type === 'image') return imageBlock(part);
  if (part.type === 'vendor') return nativeBlock(part);
  return part.text === '' ? null : { type: 'text', text: part.text, ...cacheControl(part.cache) };
}

function innerBlocks(parts: ReadonlyArray<TextPart | ImagePart | VendorPart>): InnerBlock[] {
  const out: InnerBlock[] = [];
  for (const part of parts) {
    const block = innerBlock(part);
    if (block) out.push(block);
  }
  return out;
}

function toolResultBlock(part: ToolResultPart): AnthropicToolResultBlock {
  const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: part.toolCallId };
  const content = innerBlocks(part.content);
  if (content.length > 0) block.content = content;
  if (part.isError) block.is_error = true;
  return { ...block, ...cacheControl(part.cache) };
}

/**
 * One part → its block, or none: tool calls only from the assistant, results only from the
 * user, reasoning only Anthropic's own (another vendor's cannot be restored here).
 */
function toBlock(role: CanonicalMessage['role'], part: ContentPart): AnthropicBlock | null {
  switch (part.type) {
    case 'tool_call':
      if (role !== 'assistant') return null;
      return {
        type: 'tool_use',
        id: part.id,
        name: part.name,
        input: parseToolArguments(part.arguments),
        ...cacheControl(part.cache),
      };
    case 'tool_result':
      return role === 'user' ? toolResultBlock(part) : null;
    case 'reasoning':
      return role === 'assistant' && part.opaque?.vendor === 'anthropic'
        ? (part.opaque.data as AnthropicNativeBlock)
        : null;
    default:
      return innerBlock(part);
  }
}

function toBlocks(role: CanonicalMessage['role'], parts: ContentPart[]): AnthropicBlock[] {
  const out: AnthropicBlock[] = [];
  for (const part of parts) {
    const block = toBlock(role, part);
    if (block) out.push(block);
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
 * because Anthropic rejects them. Mid-conversation system turns stay where they are.
 */
export function toAnthropicMessages(messages: CanonicalMessage[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  for (const message of messages) {
    const blocks = toBlocks(message.role, message.content);
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last?.role === message.role && message.role !== 'system') last.content.push(...blocks);
    else out.push({ role: message.role, content: blocks });
  }
  for (const message of out) if (message.role === 'user') message.content = toolResultsFirst(message.content);
  return out;
}

/**
 * Whether thinking can be on: while a tool loop is in progress (the last turn answers tool
 * calls), Anthropic requires the assistant turn that made the calls to start with its thinking
 * block, which a client of another format may not have been able to carry back.
 */
export function thinkingCanContinue(messages: CanonicalMessage[]): boolean {
  const last = messages.at(-1);
  if (last?.role !== 'user' || !last.content.some((part) => part.type === 'tool_result')) return true;
  for (let i = messages.length - 2; i >= 0; i--) {
    const message = messages[i] as CanonicalMessage;
    if (message.role !== 'assistant') continue;
    const first = message.content[0];
    return first?.type === 'reasoning' && first.opaque?.vendor === 'anthropic';
  }
  return true;
}
