import * as z from 'zod';
import { BUDGET_PERIODS, LIMIT_KINDS, LIMIT_WINDOWS } from '../db/schema/limits';
import { TOOL_PATTERN } from '../limits/tool-limits';

/**
 * Request bodies of the console's roles, teams, limits and permission endpoints. Checks that
 * need the database (ids that must exist, unique names) are the domain's; the rest is here.
 */

const MAX_LIMIT = 1_000_000_000_000;
const MAX_IDS = 1000;

/** Lowercase slug. A role named like a user role (admin, operator, user, viewer, service) applies to every user with it. */
export const slugNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a lowercase slug');
const descriptionSchema = z.string().trim().max(500).nullable();

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

/** Sets of ids; repeats are harmless (the domain drops them, keeping detail paths true to the body). */
const idSetSchema = z.array(z.uuid()).max(MAX_IDS);

export const createRoleInputSchema = z.strictObject({
  name: slugNameSchema,
  description: descriptionSchema.default(null),
  rules: ruleListSchema.default([]),
  budgets: budgetListSchema.default([]),
});
export type CreateRoleInput = z.infer<typeof createRoleInputSchema>;

/** `rules` and `budgets`, when present, replace the whole list. */
export const updateRoleInputSchema = z
  .strictObject({
    name: slugNameSchema.optional(),
    description: descriptionSchema.optional(),
    rules: ruleListSchema.optional(),
    budgets: budgetListSchema.optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'at least one field is required');
export type UpdateRoleInput = z.infer<typeof updateRoleInputSchema>;

export const createTeamInputSchema = z.strictObject({
  name: slugNameSchema,
  description: descriptionSchema.default(null),
});
export type CreateTeamInput = z.infer<typeof createTeamInputSchema>;

export const updateTeamInputSchema = z
  .strictObject({ name: slugNameSchema.optional(), description: descriptionSchema.optional() })
  .refine((input) => Object.keys(input).length > 0, 'at least one field is required');
export type UpdateTeamInput = z.infer<typeof updateTeamInputSchema>;

export const teamMembersInputSchema = z.strictObject({ user_ids: idSetSchema });
export type TeamMembersInput = z.infer<typeof teamMembersInputSchema>;

export const roleIdsInputSchema = z.strictObject({ role_ids: idSetSchema });
export type RoleIdsInput = z.infer<typeof roleIdsInputSchema>;

export const replaceRulesInputSchema = z.strictObject({ rules: ruleListSchema });
export type ReplaceRulesInput = z.infer<typeof replaceRulesInputSchema>;

export const replaceBudgetsInputSchema = z.strictObject({ budgets: budgetListSchema });
export type ReplaceBudgetsInput = z.infer<typeof replaceBudgetsInputSchema>;

export const PERMISSIONS = ['rate_limits:read', 'rate_limits:write'] as const;
export type Permission = (typeof PERMISSIONS)[number];
export const SCOPE_TYPES = ['global', 'team', 'own'] as const;
export type ScopeType = (typeof SCOPE_TYPES)[number];

/** scope_id names the team, so it is required for scope team and refused otherwise. */
export const createGrantInputSchema = z
  .strictObject({
    user_id: z.uuid(),
    permission: z.enum(PERMISSIONS),
    scope_type: z.enum(SCOPE_TYPES),
    scope_id: z.uuid().nullable().optional(),
  })
  .superRefine((input, ctx) => {
    const hasScopeId = input.scope_id !== undefined && input.scope_id !== null;
    if (input.scope_type === 'team' && !hasScopeId)
      ctx.addIssue({ code: 'custom', path: ['scope_id'], message: 'is required for scope_type team' });
    if (input.scope_type !== 'team' && hasScopeId)
      ctx.addIssue({ code: 'custom', path: ['scope_id'], message: 'is only allowed for scope_type team' });
  });
export type CreateGrantInput = z.infer<typeof createGrantInputSchema>;

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
