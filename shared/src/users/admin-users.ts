import { type Page, type PageQuery, pageOf } from '../db/paging';
import { writeAudit } from '../db/repos/audit-repo';
import { insertUserIfEmailFree, listUserPage } from '../db/repos/users-admin-repo';
import { findUserById } from '../db/repos/users-repo';
import type { Db } from '../db/types';
import { conflict, notFound } from '../http/app-error';
import type { AuditActor, UsersAdminDeps } from './ports';
import type { CreateUserInput } from './schemas';
import { type AdminUserView, type CreatedUserView, toAdminUserView, toCreatedUserView } from './views';

export async function listUsers(db: Db, page: PageQuery): Promise<Page<AdminUserView>> {
  const { rows, total } = await listUserPage(db, page);
  return pageOf(page, total, rows.map(toAdminUserView));
}

export async function getUser(db: Db, id: string): Promise<AdminUserView> {
  const user = await findUserById(db, id);
  if (!user) throw notFound('User not found');
  return toAdminUserView(user);
}

/** An admin creates an account with any role; the email is unique regardless of case. */
export async function createUser(
  deps: UsersAdminDeps,
  input: CreateUserInput,
  actor: AuditActor,
): Promise<CreatedUserView> {
  // Hash before the transaction: argon2 takes tens of milliseconds and needs no lock.
  const passwordHash = await deps.passwords.hash(input.password);
  return deps.db.transaction(async (tx) => {
    const user = await insertUserIfEmailFree(tx, {
      email: input.email,
      displayName: input.display_name,
      passwordHash,
      role: input.role,
    });
    if (!user) throw conflict('Email already registered');
    await writeAudit(tx, {
      ...actor,
      action: 'user.create',
      resourceType: 'user',
      resourceId: user.id,
      details: { email: user.email, role: user.role },
    });
    return toCreatedUserView(user);
  });
}
