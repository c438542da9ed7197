import * as z from 'zod';
import { ruleRegexProblem } from './rule-regex';

/** What every guardrail rule is checked for when it is saved (settings PATCH, the try box). */
export const ruleRegexSchema = z.string().superRefine((source, ctx) => {
  const problem = ruleRegexProblem(source);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const ruleNameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/,
    'must be 1–64 letters, digits, _ . - (starting with a letter or digit)',
  );

/**
 * A refinement: the rules listed under `field` have distinct names, none of them `taken`
 * (names already used, e.g. the detectors a redact setting turns on).
 */
export function uniqueRuleNames<T extends Record<string, unknown>>(
  field: keyof T & string,
  taken: (value: T) => readonly string[] = () => [],
) {
  return (value: T, ctx: z.RefinementCtx) => {
    const seen = new Set<string>(taken(value));
    const rules = (value[field] ?? []) as ReadonlyArray<{ name: string }>;
    rules.forEach((rule, i) => {
      if (seen.has(rule.name))
        ctx.addIssue({ code: 'custom', path: [field, i, 'name'], message: 'is used twice' });
      seen.add(rule.name);
    });
  };
}
