/** The slice of the Bedrock Runtime Converse API this adapter speaks (JSON field names). */
export type BedrockImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export interface BedrockImageBlock {
  format: BedrockImageFormat;
  /** Base64 in the JSON protocol. */
  source: { bytes: string };
}

export type BedrockToolResultContent = { text: string } | { image: BedrockImageBlock };

export type BedrockContentBlock =
  | { text: string }
  | { image: BedrockImageBlock }
  | { toolUse: { toolUseId: string; name: string; input: Record<string, unknown> } }
  | { toolResult: { toolUseId: string; content: BedrockToolResultContent[]; status?: 'error' } };

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

export interface BedrockConverseRequest {
  messages: BedrockMessage[];
  system?: Array<{ text: string }>;
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
  toolConfig?: { tools: BedrockToolSpec[]; toolChoice?: BedrockToolChoice };
}

export interface BedrockUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

/** A response content block; reasoning and other kinds are read as absent. */
export interface BedrockOutputBlock {
  text?: string;
  toolUse?: { toolUseId?: string; name?: string; input?: unknown };
}

export interface BedrockConverseResponse {
  output?: { message?: { role?: string; content?: BedrockOutputBlock[] } };
  stopReason?: string;
  usage?: BedrockUsage;
}
