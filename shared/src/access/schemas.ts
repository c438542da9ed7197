import * as z from 'zod';
import { budgetListSchema, ruleListSchema } from '../limits-admin/schemas';

/**
 * Request bodies of the console's roles, teams and permission grants endpoints. Checks that need
 * the database (ids that must exist, unique names) are the domain's; the rest is here.
 */

const MAX_IDS = 1000;

/** Lowercase slug. A role named like a user role (admin, operator, user, viewer, service) applies to every user with it. */
export const slugNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a lowercase slug');
const descriptionSchema = z.string().trim().max(500).nullable();

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
