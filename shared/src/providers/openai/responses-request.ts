/**
 * Canonical request → Responses API body, for OpenAI-family routes that use the Responses API.
 *
 * Always stateless (`store: false`: the gateway keeps no conversation at the vendor). The
 * reasoning's encrypted content, which lets a client carry it to the next turn, is asked for
 * when the request asks for reasoning or carries some back: OpenAI refuses the `include` for
 * models that do not reason ("Encrypted content is not supported with this model").
 *
 * Not forwarded, for lack of a Responses equivalent: stop sequences, presence and frequency
 * penalties and seed (a route that needs them sets `config.api: 'chat_completions'`); metadata,
 * which OpenAI accepts only with `store: true`. Sampling settings go only when no reasoning is
 * asked for: OpenAI's reasoning models refuse them (as Anthropic does beside thinking).
 */
import type {
  CanonicalRequest,
  ReasoningRequest,
  ResponseFormat,
  ToolChoice,
  ToolDefinition,
} from '../../canonical/types';
import { applyParamMap, type ParamRule } from '../common/param-map';
import { hostedToolFor } from '../common/untranslatable';
import { responsesInstructions, toResponsesInput } from './responses-input';
import type {
  ResponsesReasoning,
  ResponsesTextFormat,
  ResponsesTool,
  ResponsesToolChoice,
} from './responses-types';

export interface ResponsesBodyOptions {
  /** The `model` the body names (Azure's v1 API: the deployment). */
  model: string;
  /** Names the route's provider type in refusals. */
  providerType: string;
}

function toTextFormat(format: ResponseFormat): ResponsesTextFormat {
  if (format.type !== 'json_schema') return { type: format.type };
  const out: ResponsesTextFormat = { type: 'json_schema', name: format.name, schema: format.schema };
  if (format.strict !== undefined) out.strict = format.strict;
  return out;
}

/** 'none' asks for no reasoning, which is what leaving the field out does. */
function toReasoning(reasoning: ReasoningRequest): ResponsesReasoning | undefined {
  if (reasoning.effort === 'none') return undefined;
  const summary = reasoning.summary ?? 'auto';
  return summary === 'none' ? { effort: reasoning.effort } : { effort: reasoning.effort, summary };
}

const scalarRules: ReadonlyArray<ParamRule<CanonicalRequest>> = [
  { from: 'maxTokens', to: 'max_output_tokens' },
  { from: 'responseFormat', to: 'text.format', transform: toTextFormat },
  { from: 'user', to: 'user' },
];

const samplingRules: ReadonlyArray<ParamRule<CanonicalRequest>> = [
  { from: 'temperature', to: 'temperature' },
  { from: 'topP', to: 'top_p' },
];

/**
 * Functions and custom tools in their native shapes; a tool another vendor runs becomes
 * OpenAI's own where there is one (web search), and is refused by name where there is none.
 */
function toResponsesTool(tool: ToolDefinition, providerType: string): ResponsesTool {
  if (tool.kind === 'hosted') {
    return hostedToolFor(tool, providerType, 'openai-responses', () => ({ type: 'web_search' as const }));
  }
  const description = tool.description === undefined ? {} : { description: tool.description };
  if (tool.kind === 'custom') {
    const format = tool.format === undefined ? {} : { format: tool.format };
    return { type: 'custom', name: tool.name, ...description, ...format };
  }
  const strict = tool.strict ?? false;
  return { type: 'function', name: tool.name, ...description, parameters: tool.parameters, strict };
}

function toResponsesToolChoice(choice: ToolChoice, tools: ToolDefinition[]): ResponsesToolChoice {
  if (typeof choice === 'string') return choice;
  const custom = tools.some((tool) => tool.kind === 'custom' && tool.name === choice.name);
  return { type: custom ? 'custom' : 'function', name: choice.name };
}

/** OpenAI rejects `tool_choice` and `parallel_tool_calls` when no tools are sent. */
function toolFields(request: CanonicalRequest, providerType: string): Record<string, unknown> {
  const tools = request.tools ?? [];
  if (tools.length === 0) return {};
  const out: Record<string, unknown> = { tools: tools.map((tool) => toResponsesTool(tool, providerType)) };
  if (request.toolChoice !== undefined) out.tool_choice = toResponsesToolChoice(request.toolChoice, tools);
  if (request.parallelToolCalls !== undefined) out.parallel_tool_calls = request.parallelToolCalls;
  return out;
}

export function toResponsesBody(
  request: CanonicalRequest,
  options: ResponsesBodyOptions,
): Record<string, unknown> {
  const body: Record<string, unknown> = { model: options.model };
  const instructions = responsesInstructions(request.system);
  if (instructions !== undefined) body.instructions = instructions;
  const input = toResponsesInput(request, options.providerType);
  body.input = input;
  Object.assign(body, applyParamMap(request, scalarRules));
  const reasoning = request.reasoning && toReasoning(request.reasoning);
  if (reasoning) body.reasoning = reasoning;
  else Object.assign(body, applyParamMap(request, samplingRules));
  Object.assign(body, toolFields(request, options.providerType));
  body.store = false;
  if (reasoning || input.some((item) => item.type === 'reasoning')) {
    body.include = ['reasoning.encrypted_content'];
  }
  if (request.stream) body.stream = true;
  return body;
}
