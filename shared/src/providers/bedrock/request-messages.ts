import type { CanonicalMessage, ContentPart, ImagePart, ToolResultPart } from '../../canonical/types';
import { badRequest } from '../../http/app-error';
import { imageRef } from '../common/images';
import { parseToolArguments } from '../common/json';
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

/**
 * Canonical messages → Converse `messages`. Converse requires roles to alternate, so
 * consecutive messages of one role are merged, and it refuses blank text blocks, so empty
 * text is dropped. When the request offers no tools (none defined, or choice "none"),
 * Converse would refuse historical toolUse/toolResult blocks without a toolConfig, so
 * `toolBlocksAsText` renders them as text instead.
 */
export function toBedrockMessages(messages: CanonicalMessage[], toolBlocksAsText: boolean): BedrockMessage[] {
  const out: BedrockMessage[] = [];
  for (const message of messages) {
    const content = message.content.flatMap((part) => toBlocks(part, toolBlocksAsText));
    if (content.length === 0) continue;
    const previous = out.at(-1);
    if (previous?.role === message.role) previous.content.push(...content);
    else out.push({ role: message.role, content });
  }
  return out;
}

export function hasToolBlocks(messages: CanonicalMessage[]): boolean {
  return messages.some((m) => m.content.some((p) => p.type === 'tool_call' || p.type === 'tool_result'));
}

function toBlocks(part: ContentPart, toolBlocksAsText: boolean): BedrockContentBlock[] {
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
  }
}

function toToolResultBlock(part: ToolResultPart): BedrockContentBlock {
  const content: BedrockToolResultContent[] = [];
  for (const item of part.content) {
    if (item.type === 'image') content.push({ image: toImageBlock(item) });
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
