import { Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import type { Schemas } from '../../api/types';
import { FormActions } from '../../components/FormActions';
import { LimitRowsEditor } from './LimitRowsEditor';
import { type BudgetRow, budgetsBody, type RuleRow, rulesBody } from './limit-kinds';
import { ROLES_QUERY } from './limits-queries';

type Role = Schemas['Role'];

interface Values {
  name: string;
  description: string;
  rules: RuleRow[];
  budgets: BudgetRow[];
}

const EMPTY: Values = { name: '', description: '', rules: [], budgets: [] };

/** Create a role (`role` undefined) or edit one: name, description, rules and budgets. */
export function RoleModal({ opened, role, onClose }: { opened: boolean; role?: Role; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<Values>({ initialValues: EMPTY });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!opened) return;
    const values = role
      ? { name: role.name, description: role.description ?? '', rules: role.rules, budgets: role.budgets }
      : EMPTY;
    setValues(values);
    resetDirty(values);
  }, [opened, role, setValues, resetDirty]);
  const close = () => {
    setAlert(null);
    form.clearErrors();
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: Values) => {
      const body = {
        name: v.name,
        description: v.description.trim() || null,
        rules: rulesBody(v.rules),
        budgets: budgetsBody(v.budgets),
      };
      return role
        ? unwrap(api.PATCH('/api/admin/roles/{id}', { params: { path: { id: role.id } }, body }))
        : unwrap(api.POST('/api/admin/roles', { body }));
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ROLES_QUERY });
      close();
    },
    onError: (error) => setAlert(applyApiErrors(form, error)),
  });
  return (
    <Modal opened={opened} onClose={close} title={role ? `Edit role ${role.name}` : 'Create role'} size="lg">
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
            description="Lowercase slug. A role named like a user role (admin, operator, user, viewer, service) applies to every user with that role."
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Textarea label="Description" autosize minRows={1} {...form.getInputProps('description')} />
          <LimitRowsEditor form={form} />
          <FormActions
            onCancel={close}
            submitting={save.isPending}
            submitLabel={role ? 'Save role' : 'Create role'}
          />
        </Stack>
      </form>
    </Modal>
  );
}
