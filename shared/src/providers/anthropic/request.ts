/**
 * Canonical request → Messages API body.
 *
 * Not forwarded, for lack of an Anthropic equivalent: presence/frequency penalties, seed,
 * `json_object` response format, and metadata other than the user id.
 */
import { withCacheBreakpoints } from '../../canonical/cache-breakpoints';
import type { UpstreamTarget } from '../../canonical/ports';
import { thinkingBudget } from '../../canonical/reasoning';
import type { CanonicalRequest, ResponseFormat, ToolDefinition } from '../../canonical/types';
import { applyParamMap, nonEmpty, type ParamRule } from '../common/param-map';
import { isWebSearchTool, refuseHostedTool } from '../common/untranslatable';
import { cacheControl, thinkingCanContinue, toAnthropicMessages } from './request-messages';
import type { AnthropicNativeBlock, AnthropicTool, AnthropicToolChoice } from './types';

/**
 * Anthropic requires max_tokens; OpenAI-format callers usually leave it out. The route's model
 * limit is used then (routing/output-caps.ts); this only for a model of unknown limit.
 */
export const ANTHROPIC_FALLBACK_MAX_TOKENS = 8192;

/** Structured outputs (`output_config.format`) take a JSON schema; plain JSON mode has no twin. */
function outputFormat(format: ResponseFormat): unknown {
  return format.type === 'json_schema' ? { type: 'json_schema', schema: format.schema } : undefined;
}

const scalarRules: ReadonlyArray<ParamRule<CanonicalRequest>> = [
  { from: 'stop', to: 'stop_sequences', transform: nonEmpty },
  { from: 'user', to: 'metadata.user_id' },
  { from: 'responseFormat', to: 'output_config.format', transform: outputFormat },
];

/** Anthropic refuses sampling settings beside thinking; they apply only without it. */
const samplingRules: ReadonlyArray<ParamRule<CanonicalRequest>> = [
  // OpenAI-format temperatures run to 2; Anthropic rejects anything above 1.
  { from: 'temperature', to: 'temperature', min: 0, max: 1 },
  { from: 'topP', to: 'top_p' },
];

/** A custom (freeform) tool takes its text as the one string `input` (canonical/types.ts). */
const FREEFORM_SCHEMA = {
  type: 'object' as const,
  properties: { input: { type: 'string' } },
  required: ['input'],
};

/** Anthropic insists on an object schema; OpenAI tools may omit `type`. */
function toAnthropicTool(tool: ToolDefinition): AnthropicTool | AnthropicNativeBlock {
  const cache = cacheControl(tool.cache);
  if (tool.kind === 'hosted') {
    if (tool.format === 'anthropic-messages') return tool.declaration as AnthropicNativeBlock;
    if (isWebSearchTool(tool)) return { type: 'web_search_20250305', name: 'web_search', ...cache };
    throw refuseHostedTool(tool, 'anthropic');
  }
  const schema = tool.kind === 'custom' ? FREEFORM_SCHEMA : { ...tool.parameters, type: 'object' as const };
  const out: AnthropicTool = { name: tool.name, input_schema: schema, ...cache };
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

/**
 * The thinking budget, or null: off when the client asked none, when the tool choice forces a
 * tool (Anthropic refuses the two together), and when a tool loop in progress lacks the
 * thinking block Anthropic needs to continue it (docs/agents.md).
 */
function thinkingFor(request: CanonicalRequest, maxTokens: number): number | null {
  const forced = request.toolChoice === 'required' || typeof request.toolChoice === 'object';
  if (forced || !thinkingCanContinue(request.messages)) return null;
  return thinkingBudget(request.reasoning, maxTokens);
}

export function toAnthropicBody(input: CanonicalRequest, target: UpstreamTarget): Record<string, unknown> {
  const request = target.cacheBreakpoints ? withCacheBreakpoints(input) : input;
  const maxTokens = request.maxTokens ?? target.maxOutputTokens ?? ANTHROPIC_FALLBACK_MAX_TOKENS;
  const body: Record<string, unknown> = {
    model: target.upstreamModel,
    messages: toAnthropicMessages(request.messages),
    max_tokens: maxTokens,
  };
  const system = request.system.filter((part) => part.text !== '');
  if (system.length > 0) {
    body.system = system.map((part) => ({ type: 'text', text: part.text, ...cacheControl(part.cache) }));
  }
  Object.assign(body, applyParamMap(request, scalarRules));
  const budget = thinkingFor(request, maxTokens);
  if (budget === null) Object.assign(body, applyParamMap(request, samplingRules));
  else {
    const display = request.reasoning?.summary === 'none' ? { display: 'omitted' } : {};
    body.thinking = { type: 'enabled', budget_tokens: budget, ...display };
  }
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(toAnthropicTool);
    const toolChoice = toAnthropicToolChoice(request);
    if (toolChoice) body.tool_choice = toolChoice;
  }
  if (request.stream) body.stream = true;
  return body;
}
