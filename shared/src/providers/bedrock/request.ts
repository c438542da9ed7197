/**
 * Canonical request → Converse body.
 *
 * Converse has no portable field for `presencePenalty`, `frequencyPenalty`, `seed`,
 * `parallelToolCalls`, `user`, `metadata` or a JSON response mode; those are not sent. Claude's
 * own fields (thinking, betas) go in `additionalModelRequestFields` (claude-fields.ts); other
 * model families get no reasoning setting, since each names its own (or has none) and refuses
 * the others'.
 */
import { withCacheBreakpoints } from '../../canonical/cache-breakpoints';
import type { UpstreamTarget } from '../../canonical/ports';
import { thinkingFor } from '../../canonical/reasoning';
import type { CanonicalRequest, TextPart, ToolChoice, ToolDefinition } from '../../canonical/types';
import { applyParamMap, nonEmpty, type ParamRule } from '../common/param-map';
import { asFunction } from '../common/tools';
import { type CachePointOptions, cachePoint, limitCachePoints } from './cache-points';
import { bedrockBetas } from './claude-fields';
import { type BedrockModelTraits, bedrockModelTraits } from './models';
import { hasToolBlocks, reasoningCanContinue, toBedrockMessages } from './request-messages';
import type {
  BedrockCachePoint,
  BedrockConverseRequest,
  BedrockSystemBlock,
  BedrockToolChoice,
  BedrockToolSpec,
} from './types';

/** What the body depends on besides the request. */
export type ConverseTarget = Pick<
  UpstreamTarget,
  'upstreamModel' | 'maxOutputTokens' | 'cacheBreakpoints' | 'clientHeaders'
>;

/**
 * Converse's own default output cap for Claude is small, cutting agent turns short; the route's
 * model limit is sent instead (routing/output-caps.ts), this only for a Claude of unknown limit.
 */
export const CLAUDE_FALLBACK_MAX_TOKENS = 8192;

function toToolSpec(definition: ToolDefinition): BedrockToolSpec {
  const tool = asFunction(definition, 'bedrock');
  // Converse refuses an empty description, so none is sent rather than "".
  const description = tool.description ? { description: tool.description } : {};
  return { toolSpec: { name: tool.name, ...description, inputSchema: { json: tool.parameters } } };
}

function toolList(
  tools: ToolDefinition[],
  cache: CachePointOptions | null,
): Array<BedrockToolSpec | BedrockCachePoint> {
  const out: Array<BedrockToolSpec | BedrockCachePoint> = [];
  for (const tool of tools) {
    out.push(toToolSpec(tool));
    if (tool.cache && cache) out.push(cachePoint(tool.cache, cache));
  }
  return out;
}

/** "none" never gets here: with it the tools are withheld entirely (Converse has no none). */
function toToolChoice(choice: ToolChoice): BedrockToolChoice | undefined {
  if (choice === 'none') return undefined;
  if (choice === 'auto') return { auto: {} };
  if (choice === 'required') return { any: {} };
  return { tool: { name: choice.name } };
}

function systemBlocks(parts: TextPart[], cache: CachePointOptions | null): BedrockSystemBlock[] {
  const out: BedrockSystemBlock[] = [];
  for (const part of parts) {
    if (part.text.trim() !== '') out.push({ text: part.text });
    if (part.cache && cache && out.length > 0) out.push(cachePoint(part.cache, cache));
  }
  return out;
}

const stopRules: ReadonlyArray<ParamRule<CanonicalRequest>> = [
  { from: 'stop', to: 'stopSequences', transform: nonEmpty },
];

/** Sampling settings apply only without thinking (Claude refuses them beside it). */
const samplingRules: ReadonlyArray<ParamRule<CanonicalRequest>> = [
  { from: 'temperature', to: 'temperature' },
  { from: 'topP', to: 'topP' },
];

/** OpenAI-format temperatures run to 2; Claude rejects anything above 1. */
const claudeSamplingRules: ReadonlyArray<ParamRule<CanonicalRequest>> = [
  { from: 'temperature', to: 'temperature', min: 0, max: 1 },
  { from: 'topP', to: 'topP' },
];

/** The client's cap, else for Claude the route's (Converse's default is small); else none. */
function outputCap(
  request: CanonicalRequest,
  target: ConverseTarget,
  traits: BedrockModelTraits,
): number | undefined {
  if (request.maxTokens !== undefined) return request.maxTokens;
  return traits.claude ? (target.maxOutputTokens ?? CLAUDE_FALLBACK_MAX_TOKENS) : undefined;
}

export function toConverseRequest(input: CanonicalRequest, target: ConverseTarget): BedrockConverseRequest {
  const traits = bedrockModelTraits(target.upstreamModel);
  const cache = traits.cachePoints ? { hourLong: traits.hourLongCache } : null;
  const request = cache && target.cacheBreakpoints ? withCacheBreakpoints(input) : input;
  const offerTools = (request.tools?.length ?? 0) > 0 && request.toolChoice !== 'none';
  const toolBlocksAsText = !offerTools && hasToolBlocks(request.messages);
  const body: BedrockConverseRequest = {
    messages: toBedrockMessages(request.messages, { toolBlocksAsText, cache }),
  };
  const system = systemBlocks(request.system, cache);
  if (system.length > 0) body.system = system;

  const maxTokens = outputCap(request, target, traits);
  const budget =
    traits.thinking && maxTokens !== undefined
      ? thinkingFor(request, maxTokens, reasoningCanContinue(body.messages))
      : null;
  const sampling: ReadonlyArray<ParamRule<CanonicalRequest>> =
    budget === null ? (traits.claude ? claudeSamplingRules : samplingRules) : [];
  const inferenceConfig = {
    ...(maxTokens !== undefined && { maxTokens }),
    ...applyParamMap(request, sampling),
    ...applyParamMap(request, stopRules),
  };
  if (Object.keys(inferenceConfig).length > 0) body.inferenceConfig = inferenceConfig;

  if (offerTools && request.tools) {
    const tools = toolList(request.tools, traits.toolCachePoints ? cache : null);
    const toolChoice = request.toolChoice && toToolChoice(request.toolChoice);
    body.toolConfig = toolChoice ? { tools, toolChoice } : { tools };
  }

  const additional: Record<string, unknown> = {};
  if (budget !== null) additional.thinking = { type: 'enabled', budget_tokens: budget };
  const betas = traits.claude ? bedrockBetas(target.clientHeaders) : [];
  if (betas.length > 0) additional.anthropic_beta = betas;
  if (Object.keys(additional).length > 0) body.additionalModelRequestFields = additional;

  // Checkpoints are placed only with `cache` set: for a model that takes none there are none.
  if (cache) limitCachePoints(body);
  return body;
}
