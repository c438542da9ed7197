/** The slice of the Bedrock Runtime Converse API this adapter speaks (JSON field names). */
export type BedrockImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export interface BedrockImageBlock {
  format: BedrockImageFormat;
  /** Base64 in the JSON protocol. */
  source: { bytes: string };
}

export type BedrockToolResultContent = { text: string } | { image: BedrockImageBlock };

/** A prompt-cache checkpoint: the prompt up to the block before it is cached. */
export interface BedrockCachePoint {
  cachePoint: { type: 'default'; ttl?: '5m' | '1h' };
}

/**
 * The model's reasoning as Converse gives it: signed text, or text its vendor encrypted
 * (`redactedContent`, base64 in the JSON protocol). Sent back exactly as received.
 */
export type BedrockReasoningContent =
  | { reasoningText: { text: string; signature?: string } }
  | { redactedContent: string };

export type BedrockContentBlock =
  | { text: string }
  | { image: BedrockImageBlock }
  | { toolUse: { toolUseId: string; name: string; input: Record<string, unknown> } }
  | { toolResult: { toolUseId: string; content: BedrockToolResultContent[]; status?: 'error' } }
  | { reasoningContent: BedrockReasoningContent }
  | BedrockCachePoint;

export interface BedrockMessage {
  role: 'user' | 'assistant';
  content: BedrockContentBlock[];
}

export interface BedrockToolSpec {
  toolSpec: { name: string; description?: string; inputSchema: { json: Record<string, unknown> } };
}

export type BedrockToolChoice =
  | { auto: Record<string, never> }
  | { any: Record<string, never> }
  | { tool: { name: string } };

export type BedrockSystemBlock = { text: string } | BedrockCachePoint;

export interface BedrockConverseRequest {
  messages: BedrockMessage[];
  system?: BedrockSystemBlock[];
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
  toolConfig?: { tools: Array<BedrockToolSpec | BedrockCachePoint>; toolChoice?: BedrockToolChoice };
  /** The model's own request fields (Claude: `thinking`, `anthropic_beta`). */
  additionalModelRequestFields?: Record<string, unknown>;
}

export interface BedrockUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
  /** Cache writes by lifetime (`ttl` 5m or 1h), when any were made. */
  cacheDetails?: Array<{ ttl?: string; inputTokens?: number }>;
}

/** A response content block; kinds other than these are read as absent. */
export interface BedrockOutputBlock {
  text?: string;
  toolUse?: { toolUseId?: string; name?: string; input?: unknown };
  reasoningContent?: unknown;
}

export interface BedrockConverseResponse {
  output?: { message?: { role?: string; content?: BedrockOutputBlock[] } };
  stopReason?: string;
  usage?: BedrockUsage;
}
