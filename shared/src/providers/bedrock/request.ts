import type { CanonicalRequest, ToolChoice, ToolDefinition } from '../../canonical/types';
import { applyParamMap, nonEmpty, type ParamRule } from '../common/param-map';
import { hasToolBlocks, toBedrockMessages } from './request-messages';
import type { BedrockConverseRequest, BedrockToolChoice, BedrockToolSpec } from './types';

function toToolSpec(tool: ToolDefinition): BedrockToolSpec {
  // Converse refuses an empty description, so none is sent rather than "".
  const description = tool.description ? { description: tool.description } : {};
  return { toolSpec: { name: tool.name, ...description, inputSchema: { json: tool.parameters } } };
}

/** "none" never gets here: with it the tools are withheld entirely (Converse has no none). */
function toToolChoice(choice: ToolChoice): BedrockToolChoice | undefined {
  if (choice === 'none') return undefined;
  if (choice === 'auto') return { auto: {} };
  if (choice === 'required') return { any: {} };
  return { tool: { name: choice.name } };
}

/** The portable sampling settings, in `inferenceConfig` (left out when none is set). */
const inferenceRules: ReadonlyArray<ParamRule<CanonicalRequest>> = [
  { from: 'maxTokens', to: 'inferenceConfig.maxTokens' },
  { from: 'temperature', to: 'inferenceConfig.temperature' },
  { from: 'topP', to: 'inferenceConfig.topP' },
  { from: 'stop', to: 'inferenceConfig.stopSequences', transform: nonEmpty },
];

/** Applied only when tools are offered (some defined, choice not "none"). */
const toolRules: ReadonlyArray<ParamRule<CanonicalRequest>> = [
  { from: 'tools', to: 'toolConfig.tools', transform: (tools) => tools.map(toToolSpec) },
  { from: 'toolChoice', to: 'toolConfig.toolChoice', transform: toToolChoice },
];

/**
 * Canonical request → Converse body. Converse has no portable field for `presencePenalty`,
 * `frequencyPenalty`, `seed`, `parallelToolCalls`, `user`, `metadata` or a JSON response
 * mode; those are not sent (model-specific `additionalModelRequestFields` would be needed).
 */
export function toConverseRequest(request: CanonicalRequest): BedrockConverseRequest {
  const offerTools = (request.tools?.length ?? 0) > 0 && request.toolChoice !== 'none';
  const body: BedrockConverseRequest = {
    messages: toBedrockMessages(request.messages, !offerTools && hasToolBlocks(request.messages)),
  };
  const system = request.system
    .filter((part) => part.text.trim() !== '')
    .map((part) => ({ text: part.text }));
  if (system.length > 0) body.system = system;
  Object.assign(body, applyParamMap(request, inferenceRules));
  return offerTools ? Object.assign(body, applyParamMap(request, toolRules)) : body;
}
