import { Button, Group, MultiSelect, Paper, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import { QueryError } from '../../components/QueryError';
import { listIssueRenames } from './limit-kinds';
import { useChoices } from './limits-queries';

/** A user's extra global roles (besides the role named like their user role). */
export function UserRolesForm({ userId, userRole }: { userId: string; userRole: string }) {
  const queryClient = useQueryClient();
  const choices = useChoices();
  const path = { params: { path: { id: userId } } };
  const queryKey = ['user-limit-roles', userId];
  const roles = useQuery({
    queryKey,
    queryFn: () => unwrap(api.GET('/api/admin/limits/user/{id}/roles', path)),
  });
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm({ initialValues: { role_ids: [] as string[] } });
  const { setValues } = form;
  useEffect(() => {
    if (roles.data) setValues({ role_ids: roles.data.role_ids });
  }, [roles.data, setValues]);
  const save = useMutation({
    mutationFn: (role_ids: string[]) =>
      unwrap(api.PUT('/api/admin/limits/user/{id}/roles', { ...path, body: { role_ids } })),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: 'Roles saved' });
      void queryClient.invalidateQueries({ queryKey });
      void queryClient.invalidateQueries({ queryKey: ['limits-usage', 'user', userId] });
    },
    onError: (error) => setAlert(applyApiErrors(form, error, listIssueRenames(error, ['role_ids']))),
  });
  if (roles.error) return <QueryError error={roles.error} />;
  return (
    <Paper withBorder p="md">
      <form
        onSubmit={form.onSubmit((v) => {
          setAlert(null);
          save.mutate(v.role_ids);
        })}
      >
        <Stack>
          <FormAlert message={alert} />
          <MultiSelect
            label="Extra roles"
            description={`Besides these, a role named "${userRole}" (the user's role) applies when it exists. Limits merge most-restrictive.`}
            data={choices.roles}
            searchable
            {...form.getInputProps('role_ids')}
          />
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              The overrides below apply after the roles' limits.
            </Text>
            <Button type="submit" loading={save.isPending} disabled={!roles.data}>
              Save roles
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
