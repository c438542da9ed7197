import * as z from 'zod';
import { BUDGET_PERIODS, LIMIT_KINDS, LIMIT_WINDOWS } from '../db/schema/limits';
import { TOOL_PATTERN } from '../limits/tool-limits';

/**
 * Request bodies of the console's limits endpoints (roles', teams' and grants' are in
 * access/schemas.ts). Checks that need the database (ids that must exist) are the domain's; the
 * rest is here.
 */

const MAX_LIMIT = 1_000_000_000_000;

const limitValueSchema = z.number().int().min(0).max(MAX_LIMIT);

export const limitRuleSchema = z.strictObject({
  kind: z.enum(LIMIT_KINDS),
  window: z.enum(LIMIT_WINDOWS),
  limit: limitValueSchema,
});
export type LimitRuleInput = z.infer<typeof limitRuleSchema>;

export const budgetSchema = z.strictObject({
  period: z.enum(BUDGET_PERIODS),
  limit_tokens: limitValueSchema,
});
export type BudgetInput = z.infer<typeof budgetSchema>;

/** A list where `keyOf` must be unique; a repeat is a 422 naming the later entry. */
function uniqueList<T extends z.ZodType>(
  item: T,
  keyOf: (value: z.infer<T>) => string,
  what: string,
  max: number,
) {
  return z
    .array(item)
    .max(max)
    .superRefine((values, ctx) => {
      const seen = new Set<string>();
      values.forEach((value, index) => {
        const key = keyOf(value);
        if (seen.has(key))
          ctx.addIssue({ code: 'custom', path: [index], message: `duplicate ${what} ${key}` });
        seen.add(key);
      });
    });
}

/** At most one rule per kind and window, so at most 12. */
export const ruleListSchema = uniqueList(
  limitRuleSchema,
  (r) => `${r.kind}/${r.window}`,
  'kind and window',
  LIMIT_KINDS.length * LIMIT_WINDOWS.length,
);
/** At most one budget per period. */
export const budgetListSchema = uniqueList(budgetSchema, (b) => b.period, 'period', BUDGET_PERIODS.length);

export const replaceRulesInputSchema = z.strictObject({ rules: ruleListSchema });
export type ReplaceRulesInput = z.infer<typeof replaceRulesInputSchema>;

export const replaceBudgetsInputSchema = z.strictObject({ budgets: budgetListSchema });
export type ReplaceBudgetsInput = z.infer<typeof replaceBudgetsInputSchema>;

/** Subjects whose rules and budgets the limits endpoints edit (roles have their own endpoints). */
export const LIMITS_SUBJECTS = ['api_key', 'user'] as const;
export type LimitsSubject = (typeof LIMITS_SUBJECTS)[number];

/** Subjects that may carry MCP tool limits: as rules and budgets (a team's come from its roles). */
export const TOOL_LIMITS_SUBJECTS = ['api_key', 'user', 'role'] as const;
export type ToolLimitsSubject = (typeof TOOL_LIMITS_SUBJECTS)[number];

export const toolPatternSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(TOOL_PATTERN, 'must be *, <server>__* or <server>__<tool>');

/** A rate counts calls in a sliding window, a budget calls per calendar period (UTC). */
export const createToolLimitInputSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    tool: toolPatternSchema,
    kind: z.literal('rate'),
    window: z.enum(LIMIT_WINDOWS),
    limit: limitValueSchema,
  }),
  z.strictObject({
    tool: toolPatternSchema,
    kind: z.literal('budget'),
    period: z.enum(BUDGET_PERIODS),
    limit: limitValueSchema,
  }),
]);
export type CreateToolLimitInput = z.infer<typeof createToolLimitInputSchema>;
