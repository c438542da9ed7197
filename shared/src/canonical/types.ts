import type { WireFormatName } from './ports';

/**
 * The internal representation of a model call. Every public wire format parses into it and
 * renders from it; every upstream provider maps from it and decodes into it. Nothing here
 * knows about any vendor.
 */

/**
 * A prompt-cache breakpoint the client placed after a block (Anthropic's `cache_control`,
 * Bedrock's `cachePoint`): the prompt up to and including the block is cached.
 */
export interface CacheMark {
  /** Anthropic's two lifetimes; absent: the vendor's default (five minutes). */
  ttl?: '5m' | '1h';
}

export interface TextPart {
  type: 'text';
  text: string;
  cache?: CacheMark;
}

export interface ImagePart {
  type: 'image';
  source: { kind: 'url'; url: string } | { kind: 'base64'; mediaType: string; data: string };
  cache?: CacheMark;
}

/**
 * A tool call the assistant made. `arguments` is JSON text, as vendors stream it; a call of a
 * custom (freeform) tool carries `{"input": "<text>"}` (see CustomToolDefinition).
 */
export interface ToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  arguments: string;
  cache?: CacheMark;
}

/** The caller's answer to a tool call; lives in a user message. */
export interface ToolResultPart {
  type: 'tool_result';
  toolCallId: string;
  content: Array<TextPart | ImagePart | VendorPart>;
  isError?: boolean;
  cache?: CacheMark;
}

/** Which vendor family produced an opaque reasoning payload: only that family can take it back. */
export type ReasoningVendor = 'anthropic' | 'openai' | 'bedrock';

/** A vendor's own reasoning item or block, exactly as it sent it (signature, encrypted content…). */
export interface ReasoningOpaque {
  vendor: ReasoningVendor;
  data: Record<string, unknown>;
}

/**
 * The model's reasoning in an assistant turn: what a client may show (`text`, a summary for
 * some vendors) and the vendor's own form, which must go back to it unchanged on the next turn.
 * Between the gateway and a client the vendor's form travels sealed (reasoning-seal.ts): a
 * parsed request carries `sealed` until the gateway opens it into `opaque`, and an answer's
 * `opaque` is sealed before a client of another format sees it.
 */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  opaque?: ReasoningOpaque;
  sealed?: string;
  /** Where the seal was in the client's body (its 400 names it when the seal was altered). */
  field?: string;
}

/**
 * A block of the client's format that has no canonical form (a Messages `document`, a Responses
 * `web_search_call` item, …), kept as sent. A provider of the same wire family sends it on
 * unchanged; any other refuses the request with a 400 naming `field` and the route.
 */
export interface VendorPart {
  type: 'vendor';
  format: WireFormatName;
  /** Where it was in the client's body, e.g. `messages[3].content[0]`. */
  field: string;
  block: Record<string, unknown>;
}

export type ContentPart = TextPart | ImagePart | ToolCallPart | ToolResultPart | ReasoningPart | VendorPart;

/**
 * A turn. `system` turns are instructions given mid-conversation (a chat `system` message after
 * the first user turn, a Messages `role: "system"` message); the leading ones live in
 * CanonicalRequest.system.
 */
export interface CanonicalMessage {
  role: 'user' | 'assistant' | 'system';
  content: ContentPart[];
}

/** A tool the model may call with JSON arguments. */
export interface FunctionToolDefinition {
  kind: 'function';
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  strict?: boolean;
  /** Declared inside this group (Responses `namespace` tools); `name` is `<namespace>__<function>`. */
  namespace?: string;
  cache?: CacheMark;
}

/**
 * A tool whose input is free text (OpenAI's `custom` tools, e.g. Codex's apply_patch). Vendors
 * without them get a function with one string parameter, `input`; calls carry `{"input": …}`.
 */
export interface CustomToolDefinition {
  kind: 'custom';
  name: string;
  description?: string;
  /** The client's format constraint (a grammar), passed on where the vendor has custom tools. */
  format?: Record<string, unknown>;
  cache?: CacheMark;
}

/**
 * A tool the vendor runs itself (web search, code execution, …), as the client declared it.
 * `type` is the client format's own type name; providers map the ones with an equivalent
 * (hosted-tools.ts) and refuse the rest with a 400 naming it.
 */
export interface HostedToolDefinition {
  kind: 'hosted';
  /** The format that declared it, which the type name belongs to. */
  format: WireFormatName;
  /** Where it was in the client's body, e.g. `tools[4]`. */
  field: string;
  type: string;
  /** The declaration as the client sent it, minus nothing. */
  declaration: Record<string, unknown>;
  cache?: CacheMark;
}

export type ToolDefinition = FunctionToolDefinition | CustomToolDefinition | HostedToolDefinition;

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean };

/** OpenAI's effort scale, the portable measure of how hard a model should think (reasoning.ts). */
export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

export interface ReasoningRequest {
  effort: ReasoningEffort;
  /** The client's own token budget (Anthropic's thinking.budget_tokens), kept when given. */
  budgetTokens?: number;
  /** Whether the client wants reasoning text back (OpenAI's reasoning.summary); default yes. */
  summary?: 'auto' | 'concise' | 'detailed' | 'none';
}

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
  /** How much the model should reason; absent: the vendor's default. */
  reasoning?: ReasoningRequest;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error';

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the vendor's prompt cache (a subset of inputTokens). */
  cachedInputTokens?: number;
  /** Input tokens written to the vendor's prompt cache (a subset of inputTokens). */
  cacheWriteTokens?: number;
  /** Of cacheWriteTokens, those written with a one-hour lifetime (priced apart). */
  cacheWrite1hTokens?: number;
  /** Output tokens spent reasoning (a subset of outputTokens), where the vendor says. */
  reasoningTokens?: number;
}

export interface CanonicalResponse {
  id: string;
  /** The upstream model that answered. */
  model: string;
  content: AnswerPart[];
  finishReason: FinishReason;
  usage: Usage;
}

/** What an answer holds, in order. */
export type AnswerPart = TextPart | ToolCallPart | ReasoningPart;

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
  | { type: 'reasoning_start'; index: number }
  | { type: 'reasoning_delta'; index: number; text: string }
  /** The vendor's own form of the reasoning block (before its block_stop); sealed for clients. */
  | { type: 'reasoning_opaque'; index: number; opaque?: ReasoningOpaque; sealed?: string }
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
