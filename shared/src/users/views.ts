import { toUserDetail, toUserView, type UserView } from '../auth/sign-in/views';
import type { UserRow } from '../db/repos/users-repo';

export interface AdminUserView extends UserView {
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

export interface CreatedUserView extends UserView {
  created_at: string;
}

/** The user detail plus is_active, which admins need to see who was deactivated. */
export function toAdminUserView(user: UserRow): AdminUserView {
  return { ...toUserDetail(user), is_active: user.isActive };
}

export function toCreatedUserView(user: UserRow): CreatedUserView {
  return { ...toUserView(user), created_at: user.createdAt.toISOString() };
}
