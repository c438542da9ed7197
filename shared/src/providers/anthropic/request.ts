/**
 * Canonical request → Messages API body.
 *
 * Not forwarded, for lack of an Anthropic equivalent: presence/frequency penalties, seed,
 * `json_object` response format, and metadata other than the user id.
 */
import type { CanonicalRequest, ResponseFormat, ToolDefinition } from '../../canonical/types';
import { applyParamMap, nonEmpty, type ParamRule } from '../common/param-map';
import { toAnthropicMessages } from './request-messages';
import type { AnthropicTool, AnthropicToolChoice } from './types';

/** Anthropic requires max_tokens; OpenAI-format callers usually leave it out. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** Structured outputs (`output_config.format`) take a JSON schema; plain JSON mode has no twin. */
function outputFormat(format: ResponseFormat): unknown {
  return format.type === 'json_schema' ? { type: 'json_schema', schema: format.schema } : undefined;
}

const scalarRules: ReadonlyArray<ParamRule<CanonicalRequest>> = [
  { from: 'maxTokens', to: 'max_tokens', default: ANTHROPIC_DEFAULT_MAX_TOKENS },
  // OpenAI-format temperatures run to 2; Anthropic rejects anything above 1.
  { from: 'temperature', to: 'temperature', min: 0, max: 1 },
  { from: 'topP', to: 'top_p' },
  { from: 'stop', to: 'stop_sequences', transform: nonEmpty },
  { from: 'user', to: 'metadata.user_id' },
  { from: 'responseFormat', to: 'output_config.format', transform: outputFormat },
];

/** Anthropic insists on an object schema; OpenAI tools may omit `type`. */
function toAnthropicTool(tool: ToolDefinition): AnthropicTool {
  const out: AnthropicTool = { name: tool.name, input_schema: { ...tool.parameters, type: 'object' } };
  if (tool.description !== undefined) out.description = tool.description;
  return out;
}

/** OpenAI's parallel_tool_calls:false is Anthropic's disable_parallel_tool_use on the choice. */
function toAnthropicToolChoice(request: CanonicalRequest): AnthropicToolChoice | undefined {
  const choice = request.toolChoice;
  if (choice === 'none') return { type: 'none' };
  const serial = request.parallelToolCalls === false;
  if (choice === undefined && !serial) return undefined;
  let out: AnthropicToolChoice;
  if (choice === undefined || choice === 'auto') out = { type: 'auto' };
  else if (choice === 'required') out = { type: 'any' };
  else out = { type: 'tool', name: choice.name };
  if (serial) out.disable_parallel_tool_use = true;
  return out;
}

export function toAnthropicBody(request: CanonicalRequest, model: string): Record<string, unknown> {
  const body: Record<string, unknown> = { model, messages: toAnthropicMessages(request.messages) };
  const system = request.system.filter((part) => part.text !== '');
  if (system.length > 0) body.system = system.map((part) => ({ type: 'text', text: part.text }));
  Object.assign(body, applyParamMap(request, scalarRules));
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(toAnthropicTool);
    const toolChoice = toAnthropicToolChoice(request);
    if (toolChoice) body.tool_choice = toolChoice;
  }
  if (request.stream) body.stream = true;
  return body;
}
