/**
 * The subset of the Messages API request body Sluice sends. Tests check these types
 * against the official `@anthropic-ai/sdk` request types.
 */

export type AnthropicImageSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string };

export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicImageBlock {
  type: 'image';
  source: AnthropicImageSource;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: Array<AnthropicTextBlock | AnthropicImageBlock | AnthropicNativeBlock>;
  is_error?: boolean;
  cache_control?: AnthropicCacheControl;
}

/** A block as Anthropic itself wrote it (a thinking block and its signature, …), sent back unchanged. */
export type AnthropicNativeBlock = Record<string, unknown> & { type: string };

export type AnthropicBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock
  | AnthropicNativeBlock;

export interface AnthropicMessage {
  /** `system`: instructions mid-conversation (generally available on the Messages API). */
  role: 'user' | 'assistant' | 'system';
  content: AnthropicBlock[];
}

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: { type: 'object'; [key: string]: unknown };
  cache_control?: AnthropicCacheControl;
}

export type AnthropicToolChoice =
  | { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };
