import * as z from 'zod';
import type { CanonicalRequest, ContentPart } from '../canonical/types';
import { AppError } from '../http/app-error';
import { compileRuleRegex } from './rule-regex';
import { ruleNameSchema, ruleRegexSchema, uniqueRuleNames } from './rule-schema';

/**
 * security.content: what a model request may not carry. Deny rules (named regexes) and a
 * largest prompt, checked on every text the request sends upstream (system prompt, messages,
 * tool calls and results; embeddings' inputs). A request that breaks one is refused with a 400
 * that names the rule — never the text it matched — in the client's own wire format, and is
 * logged with that error. No rule set: nothing is read (no cost on the hot path).
 */
const denyRule = z.strictObject({ name: ruleNameSchema, regex: ruleRegexSchema });

export const contentSettingSchema = z
  .strictObject({
    enabled: z.boolean().optional(),
    deny: z.array(denyRule).max(200).optional(),
    max_prompt_tokens: z.number().int().min(1).max(10_000_000).optional(),
  })
  .superRefine(uniqueRuleNames('deny'));

export type ContentSetting = z.output<typeof contentSettingSchema>;

export interface ContentPolicy {
  deny: ReadonlyArray<{ name: string; regex: RegExp }>;
  maxPromptTokens: number | null;
}

/** The error type of a refusal by a content rule (the message names the rule). */
export const CONTENT_BLOCKED = 'content_policy_violation';

const compiled = new WeakMap<ContentSetting, ContentPolicy | null>();

/** The setting as rules, compiled once per settings load; null when nothing is to be checked. */
export function contentPolicyOf(setting: ContentSetting): ContentPolicy | null {
  const known = compiled.get(setting);
  if (known !== undefined) return known;
  const deny = (setting.deny ?? []).map((rule) => ({ name: rule.name, regex: compileRuleRegex(rule.regex) }));
  const maxPromptTokens = setting.max_prompt_tokens ?? null;
  const policy =
    setting.enabled === false || (deny.length === 0 && maxPromptTokens === null)
      ? null
      : { deny, maxPromptTokens };
  compiled.set(setting, policy);
  return policy;
}

/** Throws the client's 400 when the texts or the prompt size break a rule. */
export function enforceContentPolicy(
  policy: ContentPolicy | null,
  texts: Iterable<string>,
  promptTokens: number,
): void {
  if (!policy) return;
  if (policy.maxPromptTokens !== null && promptTokens > policy.maxPromptTokens) {
    throw blocked(
      'max_prompt_tokens',
      `the prompt is about ${promptTokens} tokens, more than the ${policy.maxPromptTokens} allowed`,
    );
  }
  if (policy.deny.length === 0) return;
  for (const text of texts) {
    for (const rule of policy.deny) {
      if (rule.regex.test(text)) throw blocked(rule.name, null);
    }
  }
}

function blocked(rule: string, why: string | null): AppError {
  const message = `Request blocked by content rule "${rule}"${why ? `: ${why}` : ''}`;
  return new AppError(400, message, { type: CONTENT_BLOCKED });
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
