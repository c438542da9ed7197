import { type Page, type PageQuery, pageOf } from '../db/paging';
import { writeAudit } from '../db/repos/audit-repo';
import {
  deleteTeamRow,
  deleteTeamScopedGrants,
  findTeamById,
  insertTeamIfNameFree,
  listTeamMembers,
  listTeamPage,
  listTeamRoles,
  replaceTeamMembers,
  replaceTeamRoles,
  updateTeamRow,
} from '../db/repos/limits-admin-repo';
import { isUniqueViolation } from '../db/repos/models-admin-repo';
import type { QueryDb } from '../db/types';
import { conflict, notFound } from '../http/app-error';
import { type LimitsAdminDeps, requireExistingIds } from '../limits-admin/commit';
import { commitThenBump } from '../runtime/cache-versions';
import type { AuditActor } from '../users/ports';
import type { CreateTeamInput, RoleIdsInput, TeamMembersInput, UpdateTeamInput } from './schemas';
import { type TeamView, toTeamView } from './views';

function idsByTeam<K extends 'userId' | 'roleId'>(
  rows: Array<{ teamId: string } & Record<K, string>>,
  key: K,
): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const row of rows) grouped.set(row.teamId, [...(grouped.get(row.teamId) ?? []), row[key]]);
  return grouped;
}

/** A page of teams by name with their member and role ids. */
export async function listTeams(db: QueryDb, page: PageQuery): Promise<Page<TeamView>> {
  const { rows, total } = await listTeamPage(db, page);
  const ids = rows.map((t) => t.id);
  const [memberRows, roleRows] = await Promise.all([listTeamMembers(db, ids), listTeamRoles(db, ids)]);
  const members = idsByTeam(memberRows, 'userId');
  const roles = idsByTeam(roleRows, 'roleId');
  return pageOf(
    page,
    total,
    rows.map((t) => toTeamView(t, members.get(t.id) ?? [], roles.get(t.id) ?? [])),
  );
}

/** The team as stored now; also used after a change, inside its transaction. */
export async function getTeam(db: QueryDb, id: string): Promise<TeamView> {
  const team = await findTeamById(db, id);
  if (!team) throw notFound('Team not found');
  const members = (await listTeamMembers(db, [id])).map((m) => m.userId);
  const roles = (await listTeamRoles(db, [id])).map((r) => r.roleId);
  return toTeamView(team, members, roles);
}

export async function createTeam(
  deps: LimitsAdminDeps,
  input: CreateTeamInput,
  actor: AuditActor,
): Promise<TeamView> {
  return commitThenBump(deps, ['limits'], async (tx) => {
    const team = await insertTeamIfNameFree(tx, { name: input.name, description: input.description });
    if (!team) throw conflict('Team name already exists');
    await writeAudit(tx, {
      ...actor,
      action: 'team.create',
      resourceType: 'team',
      resourceId: team.id,
      details: { name: team.name },
    });
    return toTeamView(team, [], []);
  });
}

/** Locks the team row so concurrent edits of one team (and its lists) apply one after another. */
async function lockTeam(tx: QueryDb, id: string) {
  const team = await findTeamById(tx, id, { lock: true });
  if (!team) throw notFound('Team not found');
  return team;
}

export async function updateTeam(
  deps: LimitsAdminDeps,
  id: string,
  input: UpdateTeamInput,
  actor: AuditActor,
): Promise<TeamView> {
  return commitThenBump(deps, ['limits'], async (tx) => {
    const before = await lockTeam(tx, id);
    const patch = {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.description !== undefined && { description: input.description }),
    };
    await updateTeamRow(tx, id, patch).catch((error: unknown) => {
      throw isUniqueViolation(error) ? conflict('Team name already exists') : error;
    });
    await writeAudit(tx, {
      ...actor,
      action: 'team.update',
      resourceType: 'team',
      resourceId: id,
      details: {
        name: input.name ?? before.name,
        changes: Object.keys(input).sort(),
        ...(input.name !== undefined && input.name !== before.name && { renamed_from: before.name }),
      },
    });
    return getTeam(tx, id);
  });
}

/** Members and role attachments go with the team, and so do permission grants scoped to it. */
export async function deleteTeam(deps: LimitsAdminDeps, id: string, actor: AuditActor): Promise<void> {
  await commitThenBump(deps, ['limits'], async (tx) => {
    const team = await deleteTeamRow(tx, id);
    if (!team) throw notFound('Team not found');
    const grantsRemoved = await deleteTeamScopedGrants(tx, id);
    await writeAudit(tx, {
      ...actor,
      action: 'team.delete',
      resourceType: 'team',
      resourceId: id,
      details: { name: team.name, grants_removed: grantsRemoved },
    });
  });
}

/** Replaces the member list; every id must be an existing user (422 naming the entry otherwise). */
export async function replaceMembers(
  deps: LimitsAdminDeps,
  id: string,
  input: TeamMembersInput,
  actor: AuditActor,
): Promise<TeamView> {
  return commitThenBump(deps, ['limits'], async (tx) => {
    const team = await lockTeam(tx, id);
    await requireExistingIds(tx, 'users', input.user_ids, 'user_ids');
    const userIds = [...new Set(input.user_ids)];
    await replaceTeamMembers(tx, id, userIds);
    await updateTeamRow(tx, id, {});
    await writeAudit(tx, {
      ...actor,
      action: 'team.members.update',
      resourceType: 'team',
      resourceId: id,
      details: { name: team.name, user_ids: userIds },
    });
    return getTeam(tx, id);
  });
}

/** Replaces the roles attached to the team; their limits apply to every member. */
export async function replaceRoles(
  deps: LimitsAdminDeps,
  id: string,
  input: RoleIdsInput,
  actor: AuditActor,
): Promise<TeamView> {
  return commitThenBump(deps, ['limits'], async (tx) => {
    const team = await lockTeam(tx, id);
    await requireExistingIds(tx, 'roles', input.role_ids, 'role_ids');
    const roleIds = [...new Set(input.role_ids)];
    await replaceTeamRoles(tx, id, roleIds);
    await updateTeamRow(tx, id, {});
    await writeAudit(tx, {
      ...actor,
      action: 'team.roles.update',
      resourceType: 'team',
      resourceId: id,
      details: { name: team.name, role_ids: roleIds },
    });
    return getTeam(tx, id);
  });
}
