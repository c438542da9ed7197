import { Modal, MultiSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import type { Schemas } from '../../api/types';
import { FormActions } from '../../components/FormActions';
import { listIssueRenames } from './limit-kinds';
import { TEAMS_QUERY, useChoices } from './limits-queries';

type Team = Schemas['Team'];

interface Values {
  name: string;
  description: string;
  user_ids: string[];
  role_ids: string[];
}

const EMPTY: Values = { name: '', description: '', user_ids: [], role_ids: [] };

/** Saves what changed: name/description (PATCH), members and roles (one PUT each). */
async function saveTeam(team: Team | undefined, v: Values): Promise<Team> {
  const description = v.description.trim() || null;
  if (!team) return unwrap(api.POST('/api/admin/teams', { body: { name: v.name, description } }));
  const path = { params: { path: { id: team.id } } };
  let saved = team;
  if (v.name !== team.name || description !== team.description) {
    saved = await unwrap(
      api.PATCH('/api/admin/teams/{id}', { ...path, body: { name: v.name, description } }),
    );
  }
  if (JSON.stringify(v.user_ids) !== JSON.stringify(team.member_ids)) {
    saved = await unwrap(
      api.PUT('/api/admin/teams/{id}/members', { ...path, body: { user_ids: v.user_ids } }),
    );
  }
  if (JSON.stringify(v.role_ids) !== JSON.stringify(team.role_ids)) {
    saved = await unwrap(api.PUT('/api/admin/teams/{id}/roles', { ...path, body: { role_ids: v.role_ids } }));
  }
  return saved;
}

/** Create a team, or edit its name, description, members and attached roles. */
export function TeamModal({ opened, team, onClose }: { opened: boolean; team?: Team; onClose: () => void }) {
  const queryClient = useQueryClient();
  const choices = useChoices();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<Values>({ initialValues: EMPTY });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!opened) return;
    const values = team
      ? {
          name: team.name,
          description: team.description ?? '',
          user_ids: team.member_ids,
          role_ids: team.role_ids,
        }
      : EMPTY;
    setValues(values);
    resetDirty(values);
  }, [opened, team, setValues, resetDirty]);
  const close = () => {
    setAlert(null);
    form.clearErrors();
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: Values) => saveTeam(team, v),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: TEAMS_QUERY });
      close();
    },
    onError: (error) =>
      setAlert(applyApiErrors(form, error, listIssueRenames(error, ['user_ids', 'role_ids']))),
  });
  return (
    <Modal opened={opened} onClose={close} title={team ? `Edit team ${team.name}` : 'Create team'} size="lg">
      <form
        onSubmit={form.onSubmit((v) => {
          setAlert(null);
          save.mutate(v);
        })}
      >
        <Stack>
          <FormAlert message={alert} />
          <TextInput
            label="Name"
            description="Lowercase slug"
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Textarea label="Description" autosize minRows={1} {...form.getInputProps('description')} />
          {team && (
            <>
              <MultiSelect
                label="Members"
                data={choices.users}
                searchable
                {...form.getInputProps('user_ids')}
              />
              <MultiSelect
                label="Roles"
                description="Their rate limits and budgets apply to every member"
                data={choices.roles}
                searchable
                {...form.getInputProps('role_ids')}
              />
            </>
          )}
          <FormActions
            onCancel={close}
            submitting={save.isPending}
            submitLabel={team ? 'Save team' : 'Create team'}
          />
        </Stack>
      </form>
    </Modal>
  );
}
