import type { CanonicalRequest, ResponseFormat, ToolChoice, ToolDefinition } from '../../canonical/types';
import { applyParamMap, nonEmpty, type ParamRule } from '../common/param-map';
import { asFunction } from '../common/tools';
import { toGeminiContents } from './request-messages';
import { toGeminiSchema } from './schema';
import type { GeminiFunctionDeclaration, GeminiRequest } from './types';

function toFunctionDeclaration(definition: ToolDefinition): GeminiFunctionDeclaration {
  const tool = asFunction(definition, 'google');
  const declaration: GeminiFunctionDeclaration = { name: tool.name };
  if (tool.description) declaration.description = tool.description;
  const parameters = toGeminiSchema(tool.parameters);
  // Gemini rejects an OBJECT schema with empty `properties`; a tool without arguments is
  // declared without `parameters` instead.
  const properties = parameters.properties;
  if (typeof properties === 'object' && properties !== null && Object.keys(properties).length > 0) {
    declaration.parameters = parameters;
  }
  return declaration;
}

function toToolConfig(choice: ToolChoice): NonNullable<GeminiRequest['toolConfig']> {
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
}

/** JSON mode and structured output both answer JSON; only structured output fixes a schema. */
function responseMimeType(format: ResponseFormat): string | undefined {
  return format.type === 'text' ? undefined : 'application/json';
}

function responseSchema(format: ResponseFormat): Record<string, unknown> | undefined {
  return format.type === 'json_schema' ? toGeminiSchema(format.schema) : undefined;
}

/** Sampling and output settings all live in `generationConfig`, which is left out when empty. */
const generationRules: ReadonlyArray<ParamRule<CanonicalRequest>> = [
  { from: 'temperature', to: 'generationConfig.temperature' },
  { from: 'topP', to: 'generationConfig.topP' },
  { from: 'maxTokens', to: 'generationConfig.maxOutputTokens' },
  { from: 'stop', to: 'generationConfig.stopSequences', transform: nonEmpty },
  { from: 'presencePenalty', to: 'generationConfig.presencePenalty' },
  { from: 'frequencyPenalty', to: 'generationConfig.frequencyPenalty' },
  { from: 'seed', to: 'generationConfig.seed' },
  { from: 'responseFormat', to: 'generationConfig.responseMimeType', transform: responseMimeType },
  { from: 'responseFormat', to: 'generationConfig.responseSchema', transform: responseSchema },
];

/** Applied only when tools are offered: a `toolConfig` without declarations means nothing. */
const toolRules: ReadonlyArray<ParamRule<CanonicalRequest>> = [
  {
    from: 'tools',
    to: 'tools',
    transform: (tools) => [{ functionDeclarations: tools.map(toFunctionDeclaration) }],
  },
  { from: 'toolChoice', to: 'toolConfig', transform: toToolConfig },
];

/**
 * Canonical request → generateContent body. Not mapped, because Gemini has no equivalent:
 * `parallelToolCalls`, `user`, `metadata`. `upstreamModel` matters only for Gemini 3 and
 * later, which need thought signatures on replayed function calls.
 */
export function toGeminiRequest(request: CanonicalRequest, upstreamModel = ''): GeminiRequest {
  const signFunctionCalls = /(?:^|\/)gemini-(?:[3-9]|\d{2,})/.test(upstreamModel);
  const body: GeminiRequest = { contents: toGeminiContents(request.messages, { signFunctionCalls }) };
  const system = request.system.filter((part) => part.text !== '').map((part) => ({ text: part.text }));
  if (system.length > 0) body.systemInstruction = { parts: system };
  if (request.tools && request.tools.length > 0) Object.assign(body, applyParamMap(request, toolRules));
  return Object.assign(body, applyParamMap(request, generationRules));
}
