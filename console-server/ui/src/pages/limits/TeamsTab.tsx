import { Badge, Button, Group } from '@mantine/core';
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
import { GRANTS_QUERY, labelOf, TEAMS_QUERY, useChoices, useTeamPage } from './limits-queries';
import { TeamModal } from './TeamModal';

type Team = Schemas['Team'];

/** Teams: members share the limits of the roles attached to the team. */
export function TeamsTab() {
  const teams = useTeamPage();
  const choices = useChoices();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ team?: Team } | null>(null);
  const [deleting, setDeleting] = useState<Team | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/admin/teams/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: TEAMS_QUERY });
      void queryClient.invalidateQueries({ queryKey: GRANTS_QUERY });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const columns: Column<Team>[] = [
    { key: 'name', header: 'Name', render: (t) => t.name },
    { key: 'description', header: 'Description', render: (t) => t.description ?? '' },
    {
      key: 'members',
      header: 'Members',
      render: (t) => <Badge variant="light">{t.member_ids.length}</Badge>,
    },
    {
      key: 'roles',
      header: 'Roles',
      render: (t) => t.role_ids.map((id) => labelOf(choices.roles, id)).join(', ') || '—',
    },
    {
      key: 'actions',
      header: '',
      render: (t) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button size="xs" variant="light" onClick={() => setEditing({ team: t })}>
            Edit
          </Button>
          <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(t)}>
            Delete
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <>
      <Group justify="flex-end" mb="sm">
        <Button onClick={() => setEditing({})}>Create team</Button>
      </Group>
      <QueryError error={teams.query.error} />
      <DataTable
        columns={columns}
        rows={teams.rows}
        rowKey={(t) => t.id}
        loading={teams.query.isPending}
        empty="No teams yet."
        testId="teams-table"
      />
      {teams.pager && <Pager {...teams.pager} />}
      <TeamModal opened={editing !== null} team={editing?.team} onClose={() => setEditing(null)} />
      <ConfirmModal
        opened={deleting !== null}
        title={`Delete team "${deleting?.name ?? ''}"?`}
        confirmLabel="Delete team"
        danger
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      >
        Its memberships, role attachments and the permission grants scoped to it are removed.
      </ConfirmModal>
    </>
  );
}
