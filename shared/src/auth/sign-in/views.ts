import type { UserRow } from '../../db/repos/users-repo';

export interface UserView {
  id: string;
  email: string;
  display_name: string;
  role: UserRow['role'];
}

export function toUserView(user: UserRow): UserView {
  return { id: user.id, email: user.email, display_name: user.displayName, role: user.role };
}

export function toUserDetail(user: UserRow): UserView & { created_at: string; updated_at: string } {
  return {
    ...toUserView(user),
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}
