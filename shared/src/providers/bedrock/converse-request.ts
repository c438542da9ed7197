import type { CanonicalRequest, ToolChoice } from '../../canonical/types';
import { withoutUndefined } from '../common/google-bedrock-json';
import { hasToolBlocks, toBedrockMessages } from './messages';
import type { BedrockConverseRequest, BedrockToolChoice } from './types';

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
  const inferenceConfig = withoutUndefined({
    maxTokens: request.maxTokens,
    temperature: request.temperature,
    topP: request.topP,
    stopSequences: request.stop && request.stop.length > 0 ? request.stop : undefined,
  });
  if (Object.keys(inferenceConfig).length > 0) body.inferenceConfig = inferenceConfig;
  if (offerTools && request.tools) {
    body.toolConfig = {
      tools: request.tools.map((tool) => ({
        toolSpec: withoutUndefined({
          name: tool.name,
          description: tool.description || undefined,
          inputSchema: { json: tool.parameters },
        }),
      })),
    };
    const choice = toToolChoice(request.toolChoice);
    if (choice) body.toolConfig.toolChoice = choice;
  }
  return body;
}

/** "none" never gets here: with it the tools are withheld entirely (Converse has no none). */
function toToolChoice(choice: ToolChoice | undefined): BedrockToolChoice | undefined {
  if (choice === undefined || choice === 'none') return undefined;
  if (choice === 'auto') return { auto: {} };
  if (choice === 'required') return { any: {} };
  return { tool: { name: choice.name } };
}
