import * as z from 'zod';
import type { CanonicalRequest, ContentPart } from '../canonical/types';
import { USER_ROLES, type UserRole } from '../db/schema/users';
import { type GuardrailMark, GuardrailRefusal } from './marks';
import { compileRuleRegex, globRegex } from './rule-regex';
import { ruleNameSchema, ruleRegexSchema, uniqueRuleNames } from './rule-schema';

/**
 * security.content: what a model request may not carry. Deny rules (named regexes) and a
 * largest prompt, checked on every text the request sends upstream (system prompt, messages,
 * tool calls and results; embeddings' inputs). A request that breaks one is refused with a 400
 * that names the rule — never the text it matched — in the client's own wire format, and is
 * logged with that error. A deny rule with `action: "flag"` refuses nothing: the request goes
 * on and its log row names the rule (guardrails/marks.ts). No rule set: nothing is read (no
 * cost on the hot path).
 */
const denyRule = z.strictObject({
  name: ruleNameSchema,
  regex: ruleRegexSchema,
  /** block (the default) refuses the request; flag lets it pass and marks its log row. */
  action: z.enum(['block', 'flag']).optional(),
});
const modelGlobs = z.partialRecord(
  z.enum(USER_ROLES),
  z.array(z.string().min(1).max(200).regex(/^\S+$/, 'must be a model name glob without spaces')).max(200),
);

export const contentSettingSchema = z
  .strictObject({
    enabled: z.boolean().optional(),
    deny: z.array(denyRule).max(200).optional(),
    max_prompt_tokens: z.number().int().min(1).max(10_000_000).optional(),
    /** Per role: the only models it may use (globs, `*` any run of characters). */
    allow_models: modelGlobs.optional(),
    /** Per role: models it may not use. */
    deny_models: modelGlobs.optional(),
  })
  .superRefine(uniqueRuleNames('deny'));

export type ContentSetting = z.output<typeof contentSettingSchema>;

export interface ContentPolicy {
  deny: ReadonlyArray<{ name: string; regex: RegExp; action: 'block' | 'flag' }>;
  maxPromptTokens: number | null;
  allowModels: ReadonlyMap<UserRole, readonly RegExp[]>;
  denyModels: ReadonlyMap<UserRole, readonly RegExp[]>;
}

/** Who asks for which model: what allow_models and deny_models are checked against. */
export interface ContentCaller {
  role: UserRole;
  model: string;
}

/** The error type of a refusal by a content rule (the message names the rule). */
export const CONTENT_BLOCKED = 'content_policy_violation';

const compiled = new WeakMap<ContentSetting, ContentPolicy | null>();

/** The setting as rules, compiled once per settings load; null when nothing is to be checked. */
export function contentPolicyOf(setting: ContentSetting): ContentPolicy | null {
  const known = compiled.get(setting);
  if (known !== undefined) return known;
  const deny = (setting.deny ?? []).map((rule) => ({
    name: rule.name,
    regex: compileRuleRegex(rule.regex),
    action: rule.action ?? ('block' as const),
  }));
  const maxPromptTokens = setting.max_prompt_tokens ?? null;
  const allowModels = globsByRole(setting.allow_models);
  const denyModels = globsByRole(setting.deny_models);
  const empty =
    deny.length === 0 && maxPromptTokens === null && allowModels.size === 0 && denyModels.size === 0;
  const policy =
    setting.enabled === false || empty ? null : { deny, maxPromptTokens, allowModels, denyModels };
  compiled.set(setting, policy);
  return policy;
}

/**
 * Throws the client's 403 when its role may not use the model (allow_models, deny_models), its
 * 400 when the texts or the prompt size break a rule; returns the marks of the flag rules the
 * texts matched (each once).
 */
export function enforceContentPolicy(
  policy: ContentPolicy | null,
  texts: Iterable<string>,
  promptTokens: number,
  caller?: ContentCaller,
): GuardrailMark[] {
  if (!policy) return [];
  if (caller) refuseModel(policy, caller);
  if (policy.maxPromptTokens !== null && promptTokens > policy.maxPromptTokens) {
    throw blocked(
      'max_prompt_tokens',
      `the prompt is about ${promptTokens} tokens, more than the ${policy.maxPromptTokens} allowed`,
    );
  }
  if (policy.deny.length === 0) return [];
  const flagged = new Set<string>();
  for (const text of texts) {
    for (const rule of policy.deny) {
      if (rule.action === 'flag' && flagged.has(rule.name)) continue;
      if (!rule.regex.test(text)) continue;
      if (rule.action === 'block') throw blocked(rule.name, null);
      flagged.add(rule.name);
    }
  }
  return [...flagged].map((rule) => ({ action: 'flag', guardrail: 'content', rule }));
}

function refuseModel(policy: ContentPolicy, { role, model }: ContentCaller): void {
  if (policy.denyModels.get(role)?.some((glob) => glob.test(model))) {
    throw blocked('deny_models', `role ${role} may not use model ${model}`, 403);
  }
  const allowed = policy.allowModels.get(role);
  if (allowed && !allowed.some((glob) => glob.test(model))) {
    throw blocked('allow_models', `role ${role} may not use model ${model}`, 403);
  }
}

function blocked(rule: string, why: string | null, status: 400 | 403 = 400): GuardrailRefusal {
  const message = `Request blocked by content rule "${rule}"${why ? `: ${why}` : ''}`;
  return new GuardrailRefusal(status, message, CONTENT_BLOCKED, {
    action: 'block',
    guardrail: 'content',
    rule,
  });
}

function globsByRole(setting: Partial<Record<UserRole, string[]>> | undefined): Map<UserRole, RegExp[]> {
  const out = new Map<UserRole, RegExp[]>();
  for (const [role, globs] of Object.entries(setting ?? {}) as Array<[UserRole, string[]]>) {
    out.set(role, globs.map(globRegex));
  }
  return out;
}

/** Every text a chat request sends upstream, in order. */
export function* requestTexts(request: CanonicalRequest): Generator<string> {
  for (const part of request.system) yield part.text;
  for (const message of request.messages) {
    for (const part of message.content) yield* partTexts(part);
  }
}

function* partTexts(part: ContentPart): Generator<string> {
  if (part.type === 'text') yield part.text;
  else if (part.type === 'tool_call') yield part.arguments;
  else if (part.type === 'tool_result') for (const inner of part.content) yield* partTexts(inner);
}
