/**
 * What a Bedrock model takes beyond the portable Converse fields, read from its id. Converse is
 * one API over many model families, but the fields that matter to agents are not portable:
 * Claude takes Anthropic's own request fields (`thinking`, `anthropic_beta`) through
 * `additionalModelRequestFields`, and only Claude and Amazon Nova accept cache checkpoints;
 * any other model refuses the request outright rather than ignoring them. Ids are matched
 * as foundation-model ids (`anthropic.claude-…`), cross-region profiles
 * (`us.anthropic.claude-…`) and inference-profile ARNs that contain one; an application
 * inference profile (`…:application-inference-profile/abc123`) names no model and gets the
 * portable fields only.
 */
export interface BedrockModelTraits {
  /** Anthropic Claude: takes `anthropic_beta`, wants an explicit output cap. */
  claude: boolean;
  /** Extended thinking (`thinking.budget_tokens`): Claude 3.7 and later. */
  thinking: boolean;
  /** Cache checkpoints in system and messages: Claude 3.5 and later, Amazon Nova. */
  cachePoints: boolean;
  /** Cache checkpoints among the tools: Claude only (Nova caches no tool definitions). */
  toolCachePoints: boolean;
  /** The one-hour cache lifetime: Claude 4.5 and later; others take the 5-minute default only. */
  hourLongCache: boolean;
}

const CLAUDE = /anthropic\.claude|claude-/i;
const NOVA = /amazon\.nova/i;
/** Claude 2, Instant and 3 (before 3.7): no extended thinking. */
const BEFORE_THINKING = /claude-(?:v\d|instant|3-(?!7))/i;
/** Claude 2, Instant and the first Claude 3 models: no prompt caching. */
const BEFORE_CACHING = /claude-(?:v\d|instant|3-(?:haiku|sonnet|opus))/i;
/** `claude-sonnet-4-5-20250929`, `claude-opus-4-6-v1`; a bare `-4-2025…` is version 4.0. */
const NAMED_VERSION = /claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d{1,2})(?!\d))?/i;

function atLeast45(modelId: string): boolean {
  const match = NAMED_VERSION.exec(modelId);
  if (!match) return false;
  const major = Number(match[1]);
  const minor = Number(match[2] ?? 0);
  return major > 4 || (major === 4 && minor >= 5);
}

export function bedrockModelTraits(modelId: string): BedrockModelTraits {
  const claude = CLAUDE.test(modelId);
  const cachePoints = (claude && !BEFORE_CACHING.test(modelId)) || NOVA.test(modelId);
  return {
    claude,
    thinking: claude && !BEFORE_THINKING.test(modelId),
    cachePoints,
    toolCachePoints: claude && cachePoints,
    hourLongCache: claude && atLeast45(modelId),
  };
}
