import { Badge, Button } from '@mantine/core';
import { useState } from 'react';
import { api, unwrapPage } from '../../api/client';
import { usePagedQuery } from '../../api/paging';
import type { Schemas } from '../../api/types';
import { type Column, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';
import { formatDate } from '../../lib/format';
import { roleHelp } from './roles';
import { USERS_QUERY, UserCreateModal } from './UserCreateModal';
import { UserEditModal } from './UserEditModal';

type User = Schemas['AdminUser'];

/** All users, a page at a time: create, change role, (de)activate. */
export function UsersPage() {
  const users = usePagedQuery(USERS_QUERY, (page) =>
    unwrapPage(api.GET('/api/admin/users', { params: { query: page } }), page),
  );
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<User | null>(null);
  const columns: Column<User>[] = [
    { key: 'email', header: 'Email', render: (u) => u.email },
    { key: 'name', header: 'Display name', render: (u) => u.display_name },
    {
      key: 'role',
      header: 'Role',
      render: (u) => (
        <Badge variant="light" color={u.role === 'admin' ? 'grape' : 'blue'} title={roleHelp(u.role)}>
          {u.role}
        </Badge>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      render: (u) => (
        <Badge variant="dot" color={u.is_active ? 'teal' : 'gray'}>
          {u.is_active ? 'active' : 'inactive'}
        </Badge>
      ),
    },
    { key: 'created', header: 'Created', render: (u) => formatDate(u.created_at) },
    {
      key: 'actions',
      header: '',
      render: (u) => (
        <Button size="xs" variant="light" onClick={() => setEditing(u)}>
          Edit
        </Button>
      ),
    },
  ];
  return (
    <>
      <PageHeader
        title="Users"
        description="Accounts of the console and their roles."
        actions={<Button onClick={() => setCreating(true)}>Create user</Button>}
      />
      <QueryError error={users.query.error} />
      <DataTable
        columns={columns}
        rows={users.rows}
        rowKey={(u) => u.id}
        loading={users.query.isPending}
        testId="users-table"
      />
      {users.pager && <Pager {...users.pager} />}
      <UserCreateModal opened={creating} onClose={() => setCreating(false)} />
      <UserEditModal user={editing} onClose={() => setEditing(null)} />
    </>
  );
}
