import { Modal, PasswordInput, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import type { RequestBody, Schemas } from '../../api/types';
import { FormActions } from '../../components/FormActions';
import { USER_ROLE_OPTIONS, type UserRole } from './roles';
import { USERS_QUERY } from './UserCreateModal';

type User = Schemas['AdminUser'];
type Body = RequestBody<'/api/admin/users/{id}', 'patch'>;

interface Values {
  display_name: string;
  role: UserRole;
  is_active: boolean;
  password: string;
}

/** Change a user's role, name or active state, or set a new password; sends only what changed. */
export function UserEditModal({ user, onClose }: { user: User | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: { display_name: '', role: 'user', is_active: true, password: '' },
  });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!user) return;
    const values = {
      display_name: user.display_name,
      role: user.role,
      is_active: user.is_active,
      password: '',
    };
    setValues(values);
    resetDirty(values);
  }, [user, setValues, resetDirty]);
  const close = () => {
    setAlert(null);
    form.clearErrors();
    onClose();
  };
  const save = useMutation({
    mutationFn: (body: Body) =>
      unwrap(api.PATCH('/api/admin/users/{id}', { params: { path: { id: user?.id ?? '' } }, body })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: USERS_QUERY });
      close();
    },
    onError: (error) => setAlert(applyApiErrors(form, error)),
  });
  const submit = form.onSubmit((v) => {
    if (!user) return;
    setAlert(null);
    const body: Body = {};
    if (v.display_name !== user.display_name) body.display_name = v.display_name;
    if (v.role !== user.role) body.role = v.role;
    if (v.is_active !== user.is_active) body.is_active = v.is_active;
    if (v.password !== '') body.password = v.password;
    if (Object.keys(body).length === 0) return close();
    save.mutate(body);
  });
  return (
    <Modal opened={user !== null} onClose={close} title={user ? `Edit ${user.email}` : ''}>
      <form onSubmit={submit}>
        <Stack>
          <FormAlert message={alert} />
          <TextInput label="Display name" {...form.getInputProps('display_name')} />
          <Select
            label="Role"
            data={USER_ROLE_OPTIONS}
            allowDeselect={false}
            {...form.getInputProps('role')}
          />
          <Switch
            label="Active"
            description="An inactive user cannot sign in and their keys are refused"
            {...form.getInputProps('is_active', { type: 'checkbox' })}
          />
          <PasswordInput
            label="New password"
            description="Leave empty to keep the current one; setting it ends the user's sessions"
            autoComplete="new-password"
            {...form.getInputProps('password')}
          />
          <FormActions onCancel={close} submitting={save.isPending} submitLabel="Save" />
        </Stack>
      </form>
    </Modal>
  );
}
