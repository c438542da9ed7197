import { z } from '@hono/zod-openapi';
import { BUDGET_PERIODS, LIMIT_WINDOWS, TOOL_LIMIT_KINDS } from '@sluice/shared/db/schema';
import { TOOL_LIMITS_SUBJECTS } from '@sluice/shared/limits-admin';
import { listSchema } from './page';

/** Response shapes and path parameters of the MCP tool limits endpoints. */

const toolLimitFields = {
  id: z.uuid(),
  subject_type: z.enum(TOOL_LIMITS_SUBJECTS),
  subject_id: z.uuid(),
  tool: z.string().openapi({ description: '<server>__<tool>, <server>__* or *', example: 'github__*' }),
  kind: z
    .enum(TOOL_LIMIT_KINDS)
    .openapi({ description: 'rate: calls per sliding window; budget: calls per calendar period (UTC)' }),
  window: z.enum(LIMIT_WINDOWS).nullable().openapi({ description: 'A rate’s window; null for a budget' }),
  period: z.enum(BUDGET_PERIODS).nullable().openapi({ description: 'A budget’s period; null for a rate' }),
  limit: z
    .number()
    .int()
    .openapi({ description: 'Most calls the pattern covers, together, per window or period' }),
  created_at: z.string(),
};

export const ToolLimitSchema = z.object(toolLimitFields).openapi('ToolLimit');

export const SubjectToolLimitsSchema = z
  .object({
    subject_type: z.enum(TOOL_LIMITS_SUBJECTS),
    subject_id: z.uuid(),
    tool_limits: z.array(ToolLimitSchema),
  })
  .openapi('SubjectToolLimits');

export const ToolLimitOverviewSchema = listSchema(
  z
    .object({
      ...toolLimitFields,
      subject_name: z.string().nullable().openapi({
        description: 'The role’s name, the user’s email or the key’s name; null once it is gone',
      }),
    })
    .openapi('ToolLimitOverviewItem'),
  'ToolLimitOverview',
);

/** A tool limit as GET /v1/usage and the usage endpoint list it. */
export const ToolLimitUsageSchema = z
  .object({
    scope: z.enum(['key', 'user']),
    tool: z.string(),
    kind: z.enum(TOOL_LIMIT_KINDS),
    window: z.string().openapi({ description: 'A rate’s sliding window or a budget’s period' }),
    window_secs: z.number().int().nullable(),
    limit: z.number().int(),
    used: z.number().int(),
    resets_at: z.string().nullable(),
  })
  .openapi('ToolLimitUsage');

const subjectParam = z
  .enum(TOOL_LIMITS_SUBJECTS)
  .openapi({ param: { name: 'subject', in: 'path' }, example: 'role' });
const idParam = z
  .uuid()
  .openapi({ param: { name: 'id', in: 'path' }, example: '6f1c3a7e-5b7e-4f4e-9a51-2c1f0f6b9d10' });

/** `/{subject}/{id}`: an unknown subject type or a malformed id is a 404, like an unknown id. */
export const ToolLimitSubjectParams = z.object({ subject: subjectParam, id: idParam });

export const ToolLimitParams = z.object({
  subject: subjectParam,
  id: idParam,
  limit_id: z
    .uuid()
    .openapi({ param: { name: 'limit_id', in: 'path' }, example: '0b8e3f8c-1d2e-4c3b-9a4f-5e6d7c8b9a01' }),
});
