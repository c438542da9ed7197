/**
 * The internal representation of a model call. Every public wire format parses into it and
 * renders from it; every upstream provider maps from it and decodes into it. Nothing here
 * knows about any vendor.
 */

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ImagePart {
  type: 'image';
  source: { kind: 'url'; url: string } | { kind: 'base64'; mediaType: string; data: string };
}

/** A tool call the assistant made. `arguments` is JSON text, as vendors stream it. */
export interface ToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  arguments: string;
}

/** The caller's answer to a tool call; lives in a user message. */
export interface ToolResultPart {
  type: 'tool_result';
  toolCallId: string;
  content: Array<TextPart | ImagePart>;
  isError?: boolean;
}

export type ContentPart = TextPart | ImagePart | ToolCallPart | ToolResultPart;

export interface CanonicalMessage {
  role: 'user' | 'assistant';
  content: ContentPart[];
}

export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean };

export interface CanonicalRequest {
  /** The model name the client sent (routing resolves it to upstream models). */
  model: string;
  system: TextPart[];
  messages: CanonicalMessage[];
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stop?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  responseFormat?: ResponseFormat;
  stream: boolean;
  /** The client asked for usage in its stream (chat completions' stream_options.include_usage). */
  includeUsage?: boolean;
  user?: string;
  metadata?: Record<string, string>;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error';

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the vendor's prompt cache (a subset of inputTokens). */
  cachedInputTokens?: number;
}

export interface CanonicalResponse {
  id: string;
  /** The upstream model that answered. */
  model: string;
  content: Array<TextPart | ToolCallPart>;
  finishReason: FinishReason;
  usage: Usage;
}

/**
 * Streamed output. `index` numbers the output blocks in order (a text block, a tool call,
 * …); a block starts before its deltas and stops before the next block starts.
 */
export type StreamEvent =
  | { type: 'start'; id: string; model: string }
  | { type: 'text_start'; index: number }
  | { type: 'text_delta'; index: number; text: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'tool_call_delta'; index: number; argumentsDelta: string }
  | { type: 'block_stop'; index: number }
  | { type: 'finish'; finishReason: FinishReason }
  | { type: 'usage'; usage: Usage }
  | { type: 'error'; message: string; errorType: string };

/** An upstream failure, already classified for routing (retryable → try the next route). */
export interface UpstreamError {
  status: number;
  type: string;
  message: string;
  retryable: boolean;
}
