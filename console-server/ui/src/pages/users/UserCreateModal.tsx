import { Modal, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import type { RequestBody } from '../../api/types';
import { FormActions } from '../../components/FormActions';
import { USER_ROLE_OPTIONS, type UserRole } from './roles';

export const USERS_QUERY = ['users'] as const;

type Body = RequestBody<'/api/admin/users', 'post'>;

const initialValues = { email: '', display_name: '', password: '', role: 'user' as UserRole };

export function UserCreateModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm({ initialValues });
  const close = () => {
    setAlert(null);
    form.reset();
    onClose();
  };
  const create = useMutation({
    mutationFn: (body: Body) => unwrap(api.POST('/api/admin/users', { body })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: USERS_QUERY });
      close();
    },
    onError: (error) => setAlert(applyApiErrors(form, error)),
  });
  return (
    <Modal opened={opened} onClose={close} title="Create user">
      <form
        onSubmit={form.onSubmit((v) => {
          setAlert(null);
          create.mutate(v);
        })}
      >
        <Stack>
          <FormAlert message={alert} />
          <TextInput label="Email" data-autofocus {...form.getInputProps('email')} />
          <TextInput label="Display name" {...form.getInputProps('display_name')} />
          <PasswordInput
            label="Password"
            description="At least 8 characters"
            autoComplete="new-password"
            {...form.getInputProps('password')}
          />
          <Select
            label="Role"
            data={USER_ROLE_OPTIONS}
            allowDeselect={false}
            {...form.getInputProps('role')}
          />
          <FormActions onCancel={close} submitting={create.isPending} submitLabel="Create user" />
        </Stack>
      </form>
    </Modal>
  );
}
