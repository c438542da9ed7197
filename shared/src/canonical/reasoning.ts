import type { CanonicalRequest, ReasoningEffort, ReasoningRequest } from './types';

/**
 * How hard a model should think, between the two vendor scales: OpenAI's named efforts
 * (`reasoning_effort`, `reasoning.effort`) and Anthropic's thinking budget in tokens
 * (`thinking.budget_tokens`) or named effort (`output_config.effort`). One table each way,
 * documented in docs/agents.md; golden tests hold them (reasoning.test.ts).
 */

/** The budget Anthropic-style vendors get for an OpenAI effort. */
export const BUDGET_FOR_EFFORT: Readonly<Record<Exclude<ReasoningEffort, 'none'>, number>> = {
  minimal: 1024,
  low: 4096,
  medium: 16_384,
  high: 32_768,
  xhigh: 65_536,
};

/** Anthropic's smallest thinking budget: below it thinking cannot be turned on. */
export const MIN_THINKING_BUDGET = 1024;

/** The OpenAI effort for an Anthropic budget: the smallest effort whose budget covers it. */
export function effortForBudget(budgetTokens: number): Exclude<ReasoningEffort, 'none' | 'minimal'> {
  if (budgetTokens <= BUDGET_FOR_EFFORT.low) return 'low';
  if (budgetTokens <= BUDGET_FOR_EFFORT.medium) return 'medium';
  return 'high';
}

/** Anthropic's named efforts (`output_config.effort`) on OpenAI's scale. */
export const EFFORT_FOR_ANTHROPIC_EFFORT: Readonly<Record<string, ReasoningEffort>> = {
  low: 'low',
  medium: 'medium',
  high: 'high',
  // OpenAI's xhigh exists on a few models only; high is what every reasoning model takes.
  max: 'high',
};

/** OpenAI's efforts on Anthropic's named scale (for vendors that take `output_config.effort`). */
export const ANTHROPIC_EFFORT_FOR_EFFORT: Readonly<Record<Exclude<ReasoningEffort, 'none'>, string>> = {
  minimal: 'low',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'max',
};

/**
 * The thinking budget to send an Anthropic-style vendor, or null for no thinking: the client's
 * own budget when it gave one, else the effort's; kept below `maxTokens` (the vendor's rule),
 * and off when that leaves less than the smallest budget.
 */
export function thinkingBudget(reasoning: ReasoningRequest | undefined, maxTokens: number): number | null {
  if (!reasoning || reasoning.effort === 'none') return null;
  const wanted = reasoning.budgetTokens ?? BUDGET_FOR_EFFORT[reasoning.effort];
  const budget = Math.min(wanted, maxTokens - 1);
  return budget >= MIN_THINKING_BUDGET ? budget : null;
}

/**
 * The thinking budget for a Claude request, or null: off when the client asked none, when the
 * tool choice forces a tool (Claude refuses the two together), and when a tool loop in progress
 * lacks the thinking block the vendor needs to continue it. Each vendor reads that last from
 * its own form of the conversation, so it says it (`canContinue`).
 */
export function thinkingFor(
  request: CanonicalRequest,
  maxTokens: number,
  canContinue: boolean,
): number | null {
  const forced = request.toolChoice === 'required' || typeof request.toolChoice === 'object';
  if (forced || !canContinue) return null;
  return thinkingBudget(request.reasoning, maxTokens);
}

const EFFORTS: ReadonlySet<string> = new Set<string>(['none', ...Object.keys(BUDGET_FOR_EFFORT)]);

export function isReasoningEffort(value: unknown): value is ReasoningEffort {
  return typeof value === 'string' && EFFORTS.has(value);
}

/**
 * Every value the gateway seals (proxy/reasoning-seal.ts) starts so; a vendor's own signatures
 * and encrypted content never do, so a parser can tell the two apart without opening anything.
 */
export const SEAL_PREFIX = 'sluice-r1.';

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(SEAL_PREFIX);
}
