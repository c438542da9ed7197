/**
 * The subset of the Responses API request body Sluice sends for a translated request. Tests
 * check these types against the official `openai` SDK's request types.
 */

/** A block of the vendor's own form, sent exactly as it came (restored reasoning, a client item). */
export type ResponsesNative = Record<string, unknown>;

export type ResponsesInputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' };

export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations: [];
}

/** A user turn, or an instruction given mid-conversation (`developer`). */
export interface ResponsesInputMessage {
  type: 'message';
  role: 'user' | 'developer';
  content: Array<ResponsesInputContent | ResponsesNative>;
}

/**
 * An earlier answer's text. The API takes an assistant message's text only as `output_text`
 * parts; without `store` there is no item id to give, and none is needed.
 */
export interface ResponsesAssistantMessage {
  type: 'message';
  role: 'assistant';
  content: ResponsesOutputText[];
}

export interface ResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
}

export interface ResponsesCustomToolCall {
  type: 'custom_tool_call';
  call_id: string;
  name: string;
  input: string;
}

/** Text alone goes as a string; with images (or files) as a list of input parts. */
export type ResponsesToolOutput = string | Array<ResponsesInputContent | ResponsesNative>;

export interface ResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: ResponsesToolOutput;
}

export interface ResponsesCustomToolCallOutput {
  type: 'custom_tool_call_output';
  call_id: string;
  output: ResponsesToolOutput;
}

export type ResponsesInputItem =
  | ResponsesInputMessage
  | ResponsesAssistantMessage
  | ResponsesFunctionCall
  | ResponsesCustomToolCall
  | ResponsesFunctionCallOutput
  | ResponsesCustomToolCallOutput
  | ResponsesNative;

export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  /** Always sent: the Responses API treats an absent `strict` as true, Chat Completions as false. */
  strict: boolean;
}

export interface ResponsesCustomTool {
  type: 'custom';
  name: string;
  description?: string;
  /** The client's grammar or text format, as it declared it. */
  format?: Record<string, unknown>;
}

export type ResponsesTool =
  | ResponsesFunctionTool
  | ResponsesCustomTool
  | { type: 'web_search' }
  | ResponsesNative;

export type ResponsesToolChoice =
  | 'auto'
  | 'none'
  | 'required'
  | { type: 'function'; name: string }
  | { type: 'custom'; name: string };

export type ResponsesTextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean };

export interface ResponsesReasoning {
  effort: 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
  summary?: 'auto' | 'concise' | 'detailed';
}
