import type { CanonicalRequest, ToolChoice, ToolDefinition } from '../../canonical/types';
import { withoutUndefined } from '../common/google-bedrock-json';
import { toGeminiContents } from './contents';
import { toGeminiSchema } from './schema';
import type { GeminiFunctionDeclaration, GeminiGenerationConfig, GeminiRequest } from './types';

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
  if (request.tools && request.tools.length > 0) {
    body.tools = [{ functionDeclarations: request.tools.map(toFunctionDeclaration) }];
    if (request.toolChoice !== undefined) body.toolConfig = toToolConfig(request.toolChoice);
  }
  const generationConfig = toGenerationConfig(request);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  return body;
}

function toFunctionDeclaration(tool: ToolDefinition): GeminiFunctionDeclaration {
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

function toGenerationConfig(request: CanonicalRequest): GeminiGenerationConfig {
  const config: GeminiGenerationConfig = {
    temperature: request.temperature,
    topP: request.topP,
    maxOutputTokens: request.maxTokens,
    stopSequences: request.stop && request.stop.length > 0 ? request.stop : undefined,
    presencePenalty: request.presencePenalty,
    frequencyPenalty: request.frequencyPenalty,
    seed: request.seed,
  };
  const format = request.responseFormat;
  if (format?.type === 'json_object') config.responseMimeType = 'application/json';
  if (format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    config.responseSchema = toGeminiSchema(format.schema);
  }
  return withoutUndefined(config);
}
