import { Button, Code, Group, Modal, NumberInput, Stack, TagsInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import { useGatewayApiBase } from '../../api/site';
import type { Schemas } from '../../api/types';
import { useUser } from '../../auth/AuthProvider';
import { FormActions } from '../../components/FormActions';
import { SecretReveal } from '../../components/SecretReveal';
import { optionalInt } from '../../lib/format';
import { KEYS_QUERY, useDefaultRpm, useModelNames } from './key-queries';

interface Values {
  name: string;
  allowed_models: string[];
  rate_limit_rpm: number | string;
  expires_in_days: number | string;
}

/** Create a key; on success the same modal shows the secret, once. */
export function KeyCreateModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const user = useUser();
  const defaults = useDefaultRpm(user);
  const models = useModelNames(user);
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<Schemas['CreatedApiKey'] | null>(null);
  const gatewayApi = useGatewayApiBase();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: { name: '', allowed_models: [], rate_limit_rpm: '', expires_in_days: '' },
  });
  const { setFieldValue } = form;
  useEffect(() => {
    if (opened && defaults.rpm !== undefined) setFieldValue('rate_limit_rpm', defaults.rpm);
  }, [opened, defaults.rpm, setFieldValue]);
  const create = useMutation({
    mutationFn: (v: Values) =>
      unwrap(
        api.POST('/api/keys', {
          body: {
            name: v.name,
            allowed_models: v.allowed_models.length > 0 ? v.allowed_models : null,
            rate_limit_rpm: optionalInt(v.rate_limit_rpm) ?? null,
            expires_in_days: optionalInt(v.expires_in_days) ?? null,
          },
        }),
      ),
    onSuccess: (key) => {
      setCreated(key);
      void queryClient.invalidateQueries({ queryKey: KEYS_QUERY });
    },
    onError: (error) => setAlert(applyApiErrors(form, error)),
  });
  const close = () => {
    setCreated(null);
    setAlert(null);
    form.reset();
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={created ? `Key "${created.name}" created` : 'Create API key'}
      size="lg"
    >
      {created ? (
        <Stack>
          <SecretReveal secret={created.key}>
            Use it as a Bearer token against the gateway:{' '}
            {gatewayApi ? <Code data-testid="gateway-base-url">{gatewayApi}</Code> : '/v1'}.
          </SecretReveal>
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form
          onSubmit={form.onSubmit((v) => {
            setAlert(null);
            create.mutate(v);
          })}
        >
          <Stack>
            <FormAlert message={alert} />
            <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
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
              label="Expires in days"
              description="Empty: never expires"
              allowDecimal={false}
              {...form.getInputProps('expires_in_days')}
            />
            <FormActions onCancel={close} submitting={create.isPending} submitLabel="Create key" />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
