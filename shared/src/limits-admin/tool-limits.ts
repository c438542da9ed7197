import { authorizeLimitsAccess, type LimitsCaller } from '../access/access';
import type { Permission } from '../access/schemas';
import { writeAudit } from '../db/repos/audit-repo';
import { findRoleById, lockSubjectLimits } from '../db/repos/limits-admin-repo';
import {
  deleteToolLimitRow,
  insertToolLimitIfFree,
  listToolLimitRows,
  type NewToolLimit,
  subjectNamesOf,
  type ToolLimitRow,
} from '../db/repos/tool-limits-repo';
import type { QueryDb } from '../db/types';
import { conflict, forbidden, notFound } from '../http/app-error';
import type { BudgetPeriod, LimitWindow } from '../limits/periods';
import { commitThenBump } from '../runtime/cache-versions';
import type { AuditActor } from '../users/ports';
import type { LimitsAdminDeps } from './commit';
import type { CreateToolLimitInput, ToolLimitsSubject } from './schemas';

/**
 * MCP tool limits of an API key, a user (overrides after their roles') or a role (docs/mcp.md,
 * Tool limits and budgets). Each change is audited in its transaction and moves the limits
 * version, so gateways load the new definitions on their next call.
 */
export interface ToolLimitsSubjectRef {
  type: ToolLimitsSubject;
  id: string;
}

export interface ToolLimitView {
  id: string;
  subject_type: ToolLimitsSubject;
  subject_id: string;
  tool: string;
  kind: ToolLimitRow['kind'];
  /** A rate's sliding window; null for a budget. */
  window: LimitWindow | null;
  /** A budget's calendar period; null for a rate. */
  period: BudgetPeriod | null;
  limit: number;
  created_at: string;
}

export interface SubjectToolLimitsView {
  subject_type: ToolLimitsSubject;
  subject_id: string;
  tool_limits: ToolLimitView[];
}

export interface ToolLimitOverviewItem extends ToolLimitView {
  /** The role's name, the user's email or the key's name; null once the subject is gone. */
  subject_name: string | null;
}

const WINDOW_ORDER = ['1m', '5m', '1h', '5h', '1d', '1w', 'daily', 'weekly', 'monthly'];

/** By tool pattern, then rates before budgets, shortest window first. */
function byToolThenWindow(a: ToolLimitRow, b: ToolLimitRow): number {
  if (a.tool !== b.tool) return a.tool < b.tool ? -1 : 1;
  return WINDOW_ORDER.indexOf(a.window) - WINDOW_ORDER.indexOf(b.window);
}

export function toToolLimitView(row: ToolLimitRow): ToolLimitView {
  return {
    id: row.id,
    subject_type: row.subjectType,
    subject_id: row.subjectId,
    tool: row.tool,
    kind: row.kind,
    // The table's check ties the window to the kind.
    window: row.kind === 'rate' ? (row.window as LimitWindow) : null,
    period: row.kind === 'budget' ? (row.window as BudgetPeriod) : null,
    limit: row.limit,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * A key's or user's tool limits follow the grants of the other limits endpoints (access.ts); a
 * role's are the admins' alone, as roles are. The subject is looked up first: 404 before 403.
 */
export async function authorizeToolLimitsAccess(
  db: QueryDb,
  caller: LimitsCaller,
  subject: ToolLimitsSubjectRef,
  need: Permission,
): Promise<void> {
  if (subject.type !== 'role') {
    return authorizeLimitsAccess(db, caller, { type: subject.type, id: subject.id }, need);
  }
  if (!(await findRoleById(db, subject.id))) throw notFound('Role not found');
  if (caller.role !== 'admin') throw forbidden('Only admins read and change the tool limits of roles');
}

export async function listSubjectToolLimits(
  db: QueryDb,
  subject: ToolLimitsSubjectRef,
): Promise<SubjectToolLimitsView> {
  const rows = await listToolLimitRows(db, subject);
  return {
    subject_type: subject.type,
    subject_id: subject.id,
    tool_limits: rows.sort(byToolThenWindow).map(toToolLimitView),
  };
}

/** Every tool limit with its subject's name, by subject type, name, then tool. */
export async function listAllToolLimits(db: QueryDb): Promise<ToolLimitOverviewItem[]> {
  const rows = await listToolLimitRows(db);
  const names = await subjectNamesOf(db, rows);
  const items = rows
    .sort(byToolThenWindow)
    .map((row) => ({ ...toToolLimitView(row), subject_name: names.get(row.subjectId) ?? null }));
  const typeRank = (t: ToolLimitsSubject) => ['role', 'user', 'api_key'].indexOf(t);
  return items.sort(
    (a, b) =>
      typeRank(a.subject_type) - typeRank(b.subject_type) ||
      (a.subject_name ?? '').localeCompare(b.subject_name ?? '') ||
      a.subject_id.localeCompare(b.subject_id),
  );
}

function toNewToolLimit(input: CreateToolLimitInput): NewToolLimit {
  const window = input.kind === 'rate' ? input.window : input.period;
  return { tool: input.tool, kind: input.kind, window, limit: input.limit };
}

/** 409 when the subject has a limit of that tool, kind and window already (delete it first). */
export function createToolLimit(
  deps: LimitsAdminDeps,
  subject: ToolLimitsSubjectRef,
  input: CreateToolLimitInput,
  actor: AuditActor,
): Promise<ToolLimitView> {
  return commitThenBump(deps, ['limits'], async (tx) => {
    await lockSubjectLimits(tx, subject.type, subject.id);
    const row = await insertToolLimitIfFree(tx, subject, toNewToolLimit(input));
    if (!row) {
      const window = input.kind === 'rate' ? input.window : input.period;
      throw conflict(`This ${subject.type} has a ${input.kind} limit of ${input.tool} per ${window} already`);
    }
    const view = toToolLimitView(row);
    await writeAudit(tx, {
      ...actor,
      action: 'limits.tool_limit.create',
      resourceType: subject.type,
      resourceId: subject.id,
      details: auditDetails(view),
    });
    return view;
  });
}

export function deleteToolLimit(
  deps: LimitsAdminDeps,
  subject: ToolLimitsSubjectRef,
  id: string,
  actor: AuditActor,
): Promise<void> {
  return commitThenBump(deps, ['limits'], async (tx) => {
    await lockSubjectLimits(tx, subject.type, subject.id);
    const row = await deleteToolLimitRow(tx, subject, id);
    if (!row) throw notFound('Tool limit not found');
    await writeAudit(tx, {
      ...actor,
      action: 'limits.tool_limit.delete',
      resourceType: subject.type,
      resourceId: subject.id,
      details: auditDetails(toToolLimitView(row)),
    });
  });
}

function auditDetails(view: ToolLimitView): Record<string, unknown> {
  return {
    tool_limit_id: view.id,
    tool: view.tool,
    kind: view.kind,
    ...(view.window !== null && { window: view.window }),
    ...(view.period !== null && { period: view.period }),
    limit: view.limit,
  };
}
