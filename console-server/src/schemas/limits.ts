import { z } from '@hono/zod-openapi';
import { PERMISSIONS, SCOPE_TYPES } from '@sluice/shared/access';
import { pageQuerySchema } from '@sluice/shared/db';
import { BUDGET_PERIODS, LIMIT_KINDS, LIMIT_WINDOWS } from '@sluice/shared/db/schema';
import { LIMITS_SUBJECTS } from '@sluice/shared/limits-admin';
import { listSchema } from './page';
import { ToolLimitUsageSchema } from './tool-limits';

/** Response shapes and path parameters of the roles, teams, limits and permissions endpoints. */

export const LimitRuleSchema = z
  .object({
    kind: z.enum(LIMIT_KINDS).openapi({ description: 'requests, or weighted tokens' }),
    window: z.enum(LIMIT_WINDOWS).openapi({ description: 'Sliding window' }),
    limit: z.number().int().openapi({ description: 'Most requests or weighted tokens in the window' }),
  })
  .openapi('LimitRule');

export const BudgetSchema = z
  .object({
    period: z.enum(BUDGET_PERIODS).openapi({ description: 'Calendar period, UTC' }),
    limit_tokens: z.number().int().openapi({ description: 'Weighted tokens per period' }),
  })
  .openapi('Budget');

export const RoleSchema = z
  .object({
    id: z.uuid(),
    name: z.string().openapi({ description: 'Lowercase slug; a user role name applies it to those users' }),
    description: z.string().nullable(),
    rules: z.array(LimitRuleSchema),
    budgets: z.array(BudgetSchema),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Role');

export const RolePageSchema = listSchema(RoleSchema, 'RolePage');

export const TeamSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    member_ids: z.array(z.uuid()),
    role_ids: z.array(z.uuid()).openapi({ description: 'Roles whose limits apply to every member' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Team');

export const TeamPageSchema = listSchema(TeamSchema, 'TeamPage');

export const SubjectRulesSchema = z
  .object({ subject_type: z.enum(LIMITS_SUBJECTS), subject_id: z.uuid(), rules: z.array(LimitRuleSchema) })
  .openapi('SubjectRules');

export const SubjectBudgetsSchema = z
  .object({ subject_type: z.enum(LIMITS_SUBJECTS), subject_id: z.uuid(), budgets: z.array(BudgetSchema) })
  .openapi('SubjectBudgets');

export const UserRolesSchema = z
  .object({
    user_id: z.uuid(),
    role_ids: z
      .array(z.uuid())
      .openapi({ description: 'Extra global roles, besides the one named like users.role' }),
  })
  .openapi('UserRoles');

export const PermissionGrantSchema = z
  .object({
    id: z.uuid(),
    user_id: z.uuid(),
    permission: z.enum(PERMISSIONS),
    scope_type: z.enum(SCOPE_TYPES),
    scope_id: z.uuid().nullable().openapi({ description: 'The team, for scope_type team; otherwise null' }),
    created_at: z.string(),
  })
  .openapi('PermissionGrant');

export const PermissionGrantPageSchema = listSchema(PermissionGrantSchema, 'PermissionGrantPage');

export const SubjectUsageSchema = z
  .object({
    subject_type: z.enum(LIMITS_SUBJECTS),
    subject_id: z.uuid(),
    scope: z.enum(['key', 'user']).openapi({
      description: 'key when the key has limits of its own; otherwise the owner (user) counters are shown',
    }),
    usage: z.object({
      requests_today: z.number().int(),
      requests_month: z.number().int(),
      tokens_today: z.number().int(),
      tokens_month: z.number().int(),
    }),
    limits: z.array(
      z.object({
        scope: z.enum(['key', 'user']),
        kind: z.enum(LIMIT_KINDS),
        window: z.string().openapi({ description: 'Sliding window or calendar period' }),
        window_secs: z.number().int().nullable(),
        limit: z.number().int(),
        used: z.number().int(),
        resets_at: z.string().nullable(),
      }),
    ),
    tool_limits: z
      .array(ToolLimitUsageSchema)
      .openapi({ description: 'MCP tool limits (for a key: its own and its owner’s), least left first' }),
  })
  .openapi('SubjectUsage');

/** `/{subject}/{id}`: an unknown subject or a malformed id is a 404, like an unknown id. */
export const SubjectParams = z.object({
  subject: z.enum(LIMITS_SUBJECTS).openapi({ param: { name: 'subject', in: 'path' }, example: 'api_key' }),
  id: z
    .uuid()
    .openapi({ param: { name: 'id', in: 'path' }, example: '6f1c3a7e-5b7e-4f4e-9a51-2c1f0f6b9d10' }),
});

export const GrantsQuerySchema = pageQuerySchema.extend({
  user_id: z
    .uuid()
    .optional()
    .openapi({ param: { name: 'user_id', in: 'query' }, description: 'Only grants held by this user' }),
});
