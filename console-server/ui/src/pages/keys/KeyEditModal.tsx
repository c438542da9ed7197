import { Modal, NumberInput, Stack, TagsInput, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import type { RequestBody, Schemas } from '../../api/types';
import { useUser } from '../../auth/AuthProvider';
import { FormActions } from '../../components/FormActions';
import { formatDate, optionalInt } from '../../lib/format';
import { KEYS_QUERY, useDefaultRpm, useModelNames } from './key-queries';

interface Values {
  allowed_models: string[];
  rate_limit_rpm: number | string;
  expires_in_days: number | string;
  rotation_interval_days: number | string;
  inactivity_timeout_days: number | string;
}

/** Sends only what the user changed; emptied days fields clear that setting (null). */
function patchBody(v: Values, key: Schemas['ApiKey']): RequestBody<'/api/keys/{id}', 'patch'> {
  const body: RequestBody<'/api/keys/{id}', 'patch'> = {
    allowed_models: v.allowed_models.length > 0 ? v.allowed_models : null,
    rate_limit_rpm: optionalInt(v.rate_limit_rpm) ?? null,
  };
  if (v.expires_in_days !== '') body.expires_in_days = optionalInt(v.expires_in_days);
  const rotation = optionalInt(v.rotation_interval_days) ?? null;
  if (rotation !== key.rotation_interval_days) body.rotation_interval_days = rotation;
  const inactivity = optionalInt(v.inactivity_timeout_days) ?? null;
  if (inactivity !== key.inactivity_timeout_days) body.inactivity_timeout_days = inactivity;
  if (JSON.stringify(body.allowed_models) === JSON.stringify(key.allowed_models)) delete body.allowed_models;
  return body;
}

function EditForm({ apiKey, onClose }: { apiKey: Schemas['ApiKey']; onClose: () => void }) {
  const user = useUser();
  const defaults = useDefaultRpm(user);
  const models = useModelNames(user);
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: {
      allowed_models: apiKey.allowed_models ?? [],
      rate_limit_rpm: apiKey.rate_limit_rpm ?? defaults.rpm ?? '',
      expires_in_days: '',
      rotation_interval_days: apiKey.rotation_interval_days ?? '',
      inactivity_timeout_days: apiKey.inactivity_timeout_days ?? '',
    },
  });
  const save = useMutation({
    mutationFn: (v: Values) =>
      unwrap(
        api.PATCH('/api/keys/{id}', { params: { path: { id: apiKey.id } }, body: patchBody(v, apiKey) }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: KEYS_QUERY });
      notifications.show({ message: `Key "${apiKey.name}" updated`, color: 'teal' });
      onClose();
    },
    onError: (error) => setAlert(applyApiErrors(form, error)),
  });
  return (
    <form
      onSubmit={form.onSubmit((v) => {
        setAlert(null);
        save.mutate(v);
      })}
    >
      <Stack>
        <FormAlert message={alert} />
        <TagsInput
          label="Allowed models"
          description="Empty: every model"
          data={models}
          {...form.getInputProps('allowed_models')}
        />
        <NumberInput
          label="Requests per minute"
          description="A key limit, shown as requests / 1m with its others. Empty: none"
          allowDecimal={false}
          {...form.getInputProps('rate_limit_rpm')}
        />
        <NumberInput
          label="Expires in days (from now)"
          description={`Currently: ${formatDate(apiKey.expires_at, 'never')}. Empty: unchanged`}
          allowDecimal={false}
          {...form.getInputProps('expires_in_days')}
        />
        <NumberInput
          label="Rotate automatically every (days)"
          description="Empty: never"
          allowDecimal={false}
          {...form.getInputProps('rotation_interval_days')}
        />
        <NumberInput
          label="Disable after inactivity (days)"
          description="Empty: never"
          allowDecimal={false}
          {...form.getInputProps('inactivity_timeout_days')}
        />
        <FormActions onCancel={onClose} submitting={save.isPending} submitLabel="Save" />
      </Stack>
    </form>
  );
}

export function KeyEditModal({ apiKey, onClose }: { apiKey: Schemas['ApiKey'] | null; onClose: () => void }) {
  return (
    <Modal opened={apiKey !== null} onClose={onClose} title={`Edit key "${apiKey?.name ?? ''}"`} size="lg">
      {apiKey && (
        <>
          <Text size="sm" c="dimmed" mb="sm">
            Prefix {apiKey.prefix}
          </Text>
          <EditForm apiKey={apiKey} onClose={onClose} />
        </>
      )}
    </Modal>
  );
}
