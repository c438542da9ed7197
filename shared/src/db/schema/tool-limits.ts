import { sql } from 'drizzle-orm';
import { bigint, check, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';
import type { BUDGET_PERIODS, LIMIT_SUBJECTS, LIMIT_WINDOWS } from './limits';

export const TOOL_LIMIT_KINDS = ['rate', 'budget'] as const;
export type ToolLimitKind = (typeof TOOL_LIMIT_KINDS)[number];

/**
 * A limit on MCP tool calls of a role, a user (override) or an API key: `rate` counts calls in a
 * sliding `window` (1m … 1w), `budget` calls per calendar period (`window` daily, weekly or
 * monthly). `tool` is a pattern: `<server>__<tool>`, `<server>__*` or `*`.
 */
export const toolLimits = pgTable(
  'tool_limits',
  {
    id: id(),
    subjectType: text('subject_type').$type<(typeof LIMIT_SUBJECTS)[number]>().notNull(),
    subjectId: uuid('subject_id').notNull(),
    tool: text('tool').notNull(),
    kind: text('kind').$type<ToolLimitKind>().notNull(),
    window: text('window')
      .$type<(typeof LIMIT_WINDOWS)[number] | (typeof BUDGET_PERIODS)[number]>()
      .notNull(),
    limit: bigint('limit', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('tool_limits_subject_key').on(t.subjectType, t.subjectId, t.tool, t.kind, t.window),
    check('tool_limits_subject_check', sql`${t.subjectType} in ('role','user','api_key')`),
    check(
      'tool_limits_window_check',
      sql`(${t.kind} = 'rate' and ${t.window} in ('1m','5m','1h','5h','1d','1w')) or (${t.kind} = 'budget' and ${t.window} in ('daily','weekly','monthly'))`,
    ),
    check('tool_limits_limit_check', sql`${t.limit} >= 0`),
  ],
);
