/**
 * Canonical request → Messages API body.
 *
 * Not forwarded, for lack of an Anthropic equivalent: presence/frequency penalties, seed,
 * `json_object` response format, and metadata other than the user id.
 */
import { withCacheBreakpoints } from '../../canonical/cache-breakpoints';
import type { UpstreamTarget } from '../../canonical/ports';
import { thinkingFor } from '../../canonical/reasoning';
import type { CanonicalRequest, ResponseFormat, ToolDefinition } from '../../canonical/types';
import { applyParamMap, nonEmpty, type ParamRule } from '../common/param-map';
import { asFunction } from '../common/tools';
import { hostedToolFor } from '../common/untranslatable';
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

/** Anthropic insists on an object schema; OpenAI tools may omit `type`. */
function toAnthropicTool(tool: ToolDefinition): AnthropicTool | AnthropicNativeBlock {
  const cache = cacheControl(tool.cache);
  if (tool.kind === 'hosted') {
    const webSearch = () => ({ type: 'web_search_20250305', name: 'web_search', ...cache });
    // The client's own Messages declaration, whose `type` Anthropic itself gave it.
    return hostedToolFor(tool, 'anthropic', 'anthropic-messages', webSearch) as AnthropicNativeBlock;
  }
  const fn = asFunction(tool, 'anthropic');
  const out: AnthropicTool = { name: fn.name, input_schema: { ...fn.parameters, type: 'object' }, ...cache };
  if (fn.description !== undefined) out.description = fn.description;
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
  // A tool loop lacking its thinking block cannot go on with thinking (docs/agents.md).
  const budget = thinkingFor(request, maxTokens, thinkingCanContinue(request.messages));
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
