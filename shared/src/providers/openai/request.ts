/**
 * Canonical request → Chat Completions body. Reasoning cannot travel between turns here (the
 * Responses API carries it); only how hard to think (`reasoning_effort`) is said.
 */
import type {
  CanonicalRequest,
  ReasoningEffort,
  ReasoningRequest,
  ResponseFormat,
  ToolChoice,
  ToolDefinition,
} from '../../canonical/types';
import { applyParamMap, nonEmpty, type ParamRule } from '../common/param-map';
import { asFunction } from '../common/tools';
import { toOpenAiMessages } from './request-messages';
import type { MaxTokensField, OpenAiResponseFormat, OpenAiTool, OpenAiToolChoice } from './types';

export interface OpenAiBodyOptions {
  model: string;
  maxTokensField: MaxTokensField;
  /** Azure selects the model by deployment in the URL and wants no `model` in the body. */
  sendModel: boolean;
  /** Names the route's provider type in refusals. */
  providerType: string;
}

function toOpenAiTool(definition: ToolDefinition, providerType: string): OpenAiTool {
  const tool = asFunction(definition, providerType);
  const fn: OpenAiTool['function'] = { name: tool.name, parameters: tool.parameters };
  if (tool.description !== undefined) fn.description = tool.description;
  return { type: 'function', function: fn };
}

function toOpenAiToolChoice(choice: ToolChoice): OpenAiToolChoice {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

function toOpenAiResponseFormat(format: ResponseFormat): OpenAiResponseFormat {
  if (format.type !== 'json_schema') return { type: format.type };
  const schema: Extract<OpenAiResponseFormat, { type: 'json_schema' }>['json_schema'] = {
    name: format.name,
    schema: format.schema,
  };
  if (format.strict !== undefined) schema.strict = format.strict;
  return { type: 'json_schema', json_schema: schema };
}

/** 'none' asks for no reasoning, which is what leaving the field out does. */
function reasoningEffort(reasoning: ReasoningRequest): ReasoningEffort | undefined {
  return reasoning.effort === 'none' ? undefined : reasoning.effort;
}

function scalarRules(maxTokensField: MaxTokensField): ReadonlyArray<ParamRule<CanonicalRequest>> {
  return [
    { from: 'maxTokens', to: maxTokensField },
    { from: 'temperature', to: 'temperature' },
    { from: 'topP', to: 'top_p' },
    { from: 'stop', to: 'stop', transform: nonEmpty },
    { from: 'presencePenalty', to: 'presence_penalty' },
    { from: 'frequencyPenalty', to: 'frequency_penalty' },
    { from: 'seed', to: 'seed' },
    { from: 'responseFormat', to: 'response_format', transform: toOpenAiResponseFormat },
    { from: 'user', to: 'user' },
    { from: 'reasoning', to: 'reasoning_effort', transform: reasoningEffort },
  ];
}

/** OpenAI rejects `tool_choice` and `parallel_tool_calls` when no tools are sent. */
function buildToolRules(providerType: string): ReadonlyArray<ParamRule<CanonicalRequest>> {
  return [
    {
      from: 'tools',
      to: 'tools',
      transform: (tools) => tools.map((tool) => toOpenAiTool(tool, providerType)),
    },
    { from: 'toolChoice', to: 'tool_choice', transform: toOpenAiToolChoice },
    { from: 'parallelToolCalls', to: 'parallel_tool_calls' },
  ];
}

/** The rules differ only in the provider type refusals name, of which there are a handful. */
const toolRulesByType = new Map<string, ReadonlyArray<ParamRule<CanonicalRequest>>>();

function toolRules(providerType: string): ReadonlyArray<ParamRule<CanonicalRequest>> {
  let rules = toolRulesByType.get(providerType);
  if (!rules) {
    rules = buildToolRules(providerType);
    toolRulesByType.set(providerType, rules);
  }
  return rules;
}

/**
 * `metadata` is not forwarded: OpenAI only accepts it together with `store: true`, which
 * a gateway must not turn on for its callers.
 */
export function toOpenAiBody(request: CanonicalRequest, options: OpenAiBodyOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (options.sendModel) body.model = options.model;
  body.messages = toOpenAiMessages(request, options.providerType);
  Object.assign(body, applyParamMap(request, scalarRules(options.maxTokensField)));
  if (request.tools && request.tools.length > 0)
    Object.assign(body, applyParamMap(request, toolRules(options.providerType)));
  if (request.stream) {
    // Without include_usage the stream carries no token counts at all.
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}
