import { Button, Group, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, unwrapPage } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { applyApiErrors, FormAlert } from '../../api/forms';
import { usePagedQuery } from '../../api/paging';
import type { Schemas } from '../../api/types';
import { type Column, DataTable } from '../../components/DataTable';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';
import { formatDate } from '../../lib/format';
import { GRANTS_QUERY, labelOf, useChoices } from './limits-queries';

type Grant = Schemas['PermissionGrant'];

const PERMISSIONS: Record<Grant['permission'], string> = {
  'rate_limits:read': 'rate_limits:read (see limits and usage)',
  'rate_limits:write': 'rate_limits:write (change limits; implies read)',
};
const SCOPES: Record<Grant['scope_type'], string> = {
  global: 'global: every key and user',
  team: "team: the team's members and their keys",
  own: "own: the holder's own keys",
};
const asOptions = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));

const initialValues = { user_id: '', permission: 'rate_limits:read', scope_type: 'own', scope_id: '' };

/** Who besides admins may read or change limits, and in which scope. */
export function PermissionsTab() {
  const choices = useChoices();
  const queryClient = useQueryClient();
  const grants = usePagedQuery(GRANTS_QUERY, (page) =>
    unwrapPage(api.GET('/api/admin/permissions', { params: { query: page } }), page),
  );
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm({ initialValues });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: GRANTS_QUERY });
  const grant = useMutation({
    mutationFn: (v: typeof initialValues) =>
      unwrap(
        api.POST('/api/admin/permissions', {
          body: {
            user_id: v.user_id,
            permission: v.permission as Grant['permission'],
            scope_type: v.scope_type as Grant['scope_type'],
            scope_id: v.scope_id || null,
          },
        }),
      ),
    onSuccess: () => {
      form.reset();
      refresh();
    },
    onError: (error) => setAlert(applyApiErrors(form, error)),
  });
  const revoke = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/admin/permissions/{id}', { params: { path: { id } } })),
    onSuccess: refresh,
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const columns: Column<Grant>[] = [
    { key: 'user', header: 'User', render: (g) => labelOf(choices.users, g.user_id) },
    { key: 'permission', header: 'Permission', render: (g) => g.permission },
    {
      key: 'scope',
      header: 'Scope',
      render: (g) => (g.scope_type === 'team' ? `team ${labelOf(choices.teams, g.scope_id)}` : g.scope_type),
    },
    { key: 'created', header: 'Granted', render: (g) => formatDate(g.created_at) },
    {
      key: 'actions',
      header: '',
      render: (g) => (
        <Button size="xs" variant="subtle" color="red" onClick={() => revoke.mutate(g.id)}>
          Revoke
        </Button>
      ),
    },
  ];
  const selectProps = (name: keyof typeof initialValues) => {
    const props = form.getInputProps(name);
    return { ...props, value: props.value || null, onChange: (v: string | null) => props.onChange(v ?? '') };
  };
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Admins always hold both permissions. Grants let other users read or change limits of the keys and
        users in their scope.
      </Text>
      <Paper withBorder p="md">
        <form
          onSubmit={form.onSubmit((v) => {
            setAlert(null);
            grant.mutate(v);
          })}
          data-testid="grant-form"
        >
          <Stack>
            <FormAlert message={alert} />
            <SimpleGrid cols={{ base: 1, md: 4 }}>
              <Select label="User" data={choices.users} searchable {...selectProps('user_id')} />
              <Select
                label="Permission"
                data={asOptions(PERMISSIONS)}
                allowDeselect={false}
                {...selectProps('permission')}
              />
              <Select
                label="Scope"
                data={asOptions(SCOPES)}
                allowDeselect={false}
                {...selectProps('scope_type')}
              />
              <Select
                label="Team"
                data={choices.teams}
                clearable
                placeholder="For scope team"
                {...selectProps('scope_id')}
              />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" loading={grant.isPending}>
                Grant
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <QueryError error={grants.query.error} />
      <DataTable
        columns={columns}
        rows={grants.rows}
        rowKey={(g) => g.id}
        loading={grants.query.isPending}
        empty="No grants."
        testId="grants-table"
      />
      {grants.pager && <Pager {...grants.pager} />}
    </Stack>
  );
}
