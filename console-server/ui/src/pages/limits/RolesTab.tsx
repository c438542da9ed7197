import { Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { Schemas } from '../../api/types';
import { ConfirmModal } from '../../components/ConfirmModal';
import { type Column, DataTable } from '../../components/DataTable';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';
import { describeBudgets, describeRules } from './limit-kinds';
import { ROLES_QUERY, TEAMS_QUERY, useRolePage } from './limits-queries';
import { RoleModal } from './RoleModal';

type Role = Schemas['Role'];

/** Limit-granting roles: each carries rules and budgets that apply to the users holding it. */
export function RolesTab() {
  const roles = useRolePage();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ role?: Role } | null>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/admin/roles/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: ROLES_QUERY });
      void queryClient.invalidateQueries({ queryKey: TEAMS_QUERY });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const columns: Column<Role>[] = [
    { key: 'name', header: 'Name', render: (r) => r.name },
    { key: 'description', header: 'Description', render: (r) => r.description ?? '' },
    { key: 'rules', header: 'Rate limits', render: (r) => describeRules(r.rules) || '—' },
    { key: 'budgets', header: 'Budgets', render: (r) => describeBudgets(r.budgets) || '—' },
    {
      key: 'actions',
      header: '',
      render: (r) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button size="xs" variant="light" onClick={() => setEditing({ role: r })}>
            Edit
          </Button>
          <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(r)}>
            Delete
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <>
      <Group justify="flex-end" mb="sm">
        <Button onClick={() => setEditing({})}>Create role</Button>
      </Group>
      <QueryError error={roles.query.error} />
      <DataTable
        columns={columns}
        rows={roles.rows}
        rowKey={(r) => r.id}
        loading={roles.query.isPending}
        empty="No roles yet."
        testId="roles-table"
      />
      {roles.pager && <Pager {...roles.pager} />}
      <RoleModal opened={editing !== null} role={editing?.role} onClose={() => setEditing(null)} />
      <ConfirmModal
        opened={deleting !== null}
        title={`Delete role "${deleting?.name ?? ''}"?`}
        confirmLabel="Delete role"
        danger
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      >
        It is detached from every user and team, and its rate limits and budgets stop applying.
      </ConfirmModal>
    </>
  );
}
