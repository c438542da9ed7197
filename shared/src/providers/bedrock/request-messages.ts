import type {
  CacheMark,
  CanonicalMessage,
  ContentPart,
  ImagePart,
  ToolResultPart,
} from '../../canonical/types';
import { badRequest } from '../../http/app-error';
import { imageRef } from '../common/images';
import { parseToolArguments } from '../common/json';
import { refuseVendorPart } from '../common/untranslatable';
import { type CachePointOptions, cachePoint, isCachePoint } from './cache-points';
import { restorableReasoning } from './reasoning';
import type {
  BedrockContentBlock,
  BedrockImageBlock,
  BedrockImageFormat,
  BedrockMessage,
  BedrockToolResultContent,
} from './types';

const FORMAT_BY_MEDIA_TYPE: Record<string, BedrockImageFormat> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};
/** Bedrock refuses blank text anywhere, tool results included. */
const EMPTY_RESULT_TEXT = '(no output)';

export interface MessageOptions {
  /**
   * The request offers no tools (none defined, or choice "none"): Converse would refuse
   * historical toolUse/toolResult blocks without a toolConfig, so they are rendered as text.
   */
  toolBlocksAsText: boolean;
  /** How marked parts get their checkpoint; null when the model takes none (marks dropped). */
  cache: CachePointOptions | null;
}

/**
 * Canonical messages → Converse `messages`. Converse requires roles to alternate, so
 * consecutive messages of one role are merged, and it refuses blank text blocks, so empty
 * text is dropped. A cache mark becomes a checkpoint after the part's blocks.
 */
export function toBedrockMessages(messages: CanonicalMessage[], options: MessageOptions): BedrockMessage[] {
  const out: BedrockMessage[] = [];
  for (const message of messages) {
    // Converse has no system turns mid-conversation: their text joins the user's side there.
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const content: BedrockContentBlock[] = [];
    for (const part of message.content) {
      content.push(...toBlocks(part, role, options.toolBlocksAsText));
      const mark = cacheMarkOf(part);
      if (mark && options.cache && canFollow(content.at(-1))) content.push(cachePoint(mark, options.cache));
    }
    if (content.length === 0) continue;
    const previous = out.at(-1);
    if (previous?.role === role) previous.content.push(...content);
    else out.push({ role, content });
  }
  return out;
}

/** A checkpoint needs a block before it, and reasoning cannot be marked (as on Anthropic). */
function canFollow(block: BedrockContentBlock | undefined): boolean {
  return block !== undefined && !isCachePoint(block) && !('reasoningContent' in block);
}

/** A mark inside a tool result (Messages clients put one there) marks the whole result. */
function cacheMarkOf(part: ContentPart): CacheMark | undefined {
  if (part.type === 'reasoning' || part.type === 'vendor') return undefined;
  if (part.cache || part.type !== 'tool_result') return part.cache;
  for (const item of part.content) if (item.type !== 'vendor' && item.cache) return item.cache;
  return undefined;
}

/**
 * Whether thinking can be on: while a tool loop is in progress (the last turn answers tool
 * calls), Claude requires the assistant turn that made the calls to start with its reasoning
 * block, which a client of another format may not have carried back. Read off the Converse
 * messages, after merging, as Bedrock will read them.
 */
export function reasoningCanContinue(messages: BedrockMessage[]): boolean {
  const last = messages.at(-1);
  if (last?.role !== 'user' || !last.content.some((block) => 'toolResult' in block)) return true;
  const assistant = messages.at(-2);
  if (assistant?.role !== 'assistant') return true;
  const first = assistant.content[0];
  return first !== undefined && 'reasoningContent' in first;
}

export function hasToolBlocks(messages: CanonicalMessage[]): boolean {
  return messages.some((m) => m.content.some((p) => p.type === 'tool_call' || p.type === 'tool_result'));
}

/** One part → its blocks; reasoning only Bedrock's own, in the assistant's turns. */
function toBlocks(
  part: ContentPart,
  role: BedrockMessage['role'],
  toolBlocksAsText: boolean,
): BedrockContentBlock[] {
  switch (part.type) {
    case 'text':
      return part.text.trim() === '' ? [] : [{ text: part.text }];
    case 'image':
      return [{ image: toImageBlock(part) }];
    case 'tool_call':
      if (toolBlocksAsText) return [{ text: `[tool call ${part.name} (${part.id}): ${part.arguments}]` }];
      return [
        { toolUse: { toolUseId: part.id, name: part.name, input: parseToolArguments(part.arguments) } },
      ];
    case 'tool_result':
      return toolBlocksAsText ? toolResultAsText(part) : [toToolResultBlock(part)];
    case 'reasoning': {
      const block = role === 'assistant' ? restorableReasoning(part) : null;
      return block ? [block] : [];
    }
    case 'vendor':
      throw refuseVendorPart(part, 'bedrock');
  }
}

function toToolResultBlock(part: ToolResultPart): BedrockContentBlock {
  const content: BedrockToolResultContent[] = [];
  for (const item of part.content) {
    if (item.type === 'image') content.push({ image: toImageBlock(item) });
    else if (item.type === 'vendor') throw refuseVendorPart(item, 'bedrock');
    else if (item.text.trim() !== '') content.push({ text: item.text });
  }
  if (content.length === 0) content.push({ text: EMPTY_RESULT_TEXT });
  return {
    toolResult: {
      toolUseId: part.toolCallId,
      content,
      ...(part.isError ? { status: 'error' as const } : {}),
    },
  };
}

function toolResultAsText(part: ToolResultPart): BedrockContentBlock[] {
  const text = part.content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');
  const label = part.isError ? 'tool error' : 'tool result';
  const images = part.content.flatMap((item) =>
    item.type === 'image' ? [{ image: toImageBlock(item) }] : [],
  );
  return [{ text: `[${label} for ${part.toolCallId}]: ${text || EMPTY_RESULT_TEXT}` }, ...images];
}

/**
 * Converse takes image bytes only (S3 locations aside). Fetching caller-supplied URLs from
 * the gateway would add latency and an SSRF surface, so an http(s) image is refused with a
 * 400 the caller can act on; data URLs are decoded.
 */
function toImageBlock(part: ImagePart): BedrockImageBlock {
  const image = imageRef(part);
  if (image.kind === 'remote') {
    throw badRequest(
      'Images for Bedrock models must be sent as base64 data (a data: URL); image URLs are not supported.',
    );
  }
  const format = FORMAT_BY_MEDIA_TYPE[image.mediaType.toLowerCase()];
  if (!format) {
    throw badRequest(`Bedrock accepts png, jpeg, gif and webp images, not ${image.mediaType}.`);
  }
  return { format, source: { bytes: image.data } };
}
