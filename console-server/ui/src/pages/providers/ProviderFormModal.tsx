import { Alert, Modal, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import type { RequestBody, Schemas } from '../../api/types';
import { FormActions } from '../../components/FormActions';
import { PROVIDER_TYPE_OPTIONS, PROVIDER_TYPES, type ProviderType } from './provider-types';

export const PROVIDERS_QUERY = ['providers'] as const;

type Provider = Schemas['Provider'];
type Config = NonNullable<RequestBody<'/api/admin/providers', 'post'>['config']>;

interface Values {
  name: string;
  display_name: string;
  provider_type: ProviderType;
  base_url: string;
  api_key: string;
  config: { region: string; api_version: string; deployment: string; max_tokens_field: string; api: string };
}

function initial(p: Provider | null): Values {
  const c = (p?.config ?? {}) as Record<string, unknown>;
  const s = (k: string) => (typeof c[k] === 'string' ? (c[k] as string) : '');
  return {
    name: p?.name ?? '',
    display_name: p?.display_name ?? '',
    provider_type: p?.provider_type ?? 'openai',
    base_url: p?.base_url ?? '',
    api_key: '',
    config: {
      region: s('region'),
      api_version: s('api_version'),
      deployment: s('deployment'),
      max_tokens_field: s('max_tokens_field'),
      api: s('api'),
    },
  };
}

/** Only the options the type reads, and only those filled in; other keys (deployments) are kept. */
function configOf(v: Values, previous: Record<string, unknown>): Config {
  const config: Record<string, unknown> = { ...previous };
  for (const field of ['region', 'api_version', 'deployment', 'max_tokens_field', 'api'] as const) {
    delete config[field];
    if (PROVIDER_TYPES[v.provider_type].config.includes(field) && v.config[field])
      config[field] = v.config[field];
  }
  return config as Config;
}

/** Create (provider null) or edit a provider. The API key is write-only: empty keeps the stored one. */
export function ProviderFormModal({
  opened,
  provider,
  onClose,
}: {
  opened: boolean;
  provider: Provider | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={provider ? `Edit provider "${provider.name}"` : 'Add provider'}
      size="lg"
    >
      {opened && <ProviderForm provider={provider} onClose={onClose} />}
    </Modal>
  );
}

function ProviderForm({ provider, onClose }: { provider: Provider | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<Values>({ initialValues: initial(provider) });
  const type = PROVIDER_TYPES[form.values.provider_type];
  const save = useMutation({
    mutationFn: (v: Values) => {
      const config = configOf(v, provider?.config ?? {});
      if (!provider) {
        const { config: _, ...rest } = v;
        return unwrap(api.POST('/api/admin/providers', { body: { ...rest, config } }));
      }
      return unwrap(
        api.PATCH('/api/admin/providers/{id}', {
          params: { path: { id: provider.id } },
          body: {
            display_name: v.display_name,
            base_url: v.base_url,
            config,
            ...(v.api_key ? { api_key: v.api_key } : {}),
          },
        }),
      );
    },
    onSuccess: (p) => {
      void queryClient.invalidateQueries({ queryKey: PROVIDERS_QUERY });
      notifications.show({ message: `Provider "${p.name}" saved`, color: 'teal' });
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
        <Select
          label="Provider type"
          data={PROVIDER_TYPE_OPTIONS}
          allowDeselect={false}
          disabled={!!provider}
          {...form.getInputProps('provider_type')}
        />
        <Alert variant="light" color="blue" p="xs">
          {type.help}
        </Alert>
        <TextInput
          label="Name"
          description="Lower-case identifier clients may address it by; fixed once created"
          disabled={!!provider}
          {...form.getInputProps('name')}
        />
        <TextInput label="Display name" {...form.getInputProps('display_name')} />
        <TextInput
          label="Base URL"
          placeholder={type.baseUrl}
          description={`e.g. ${type.baseUrl}`}
          {...form.getInputProps('base_url')}
        />
        <PasswordInput
          label="API key"
          description={`${type.keyHelp} ${provider ? 'Write-only: leave empty to keep the stored key.' : 'Stored encrypted; never shown again.'}`}
          autoComplete="new-password"
          {...form.getInputProps('api_key')}
        />
        {type.config.includes('region') && (
          <TextInput label="AWS region" placeholder="us-east-1" {...form.getInputProps('config.region')} />
        )}
        {type.config.includes('api_version') && (
          <TextInput
            label="API version"
            placeholder="2024-10-21"
            {...form.getInputProps('config.api_version')}
          />
        )}
        {type.config.includes('deployment') && (
          <TextInput
            label="Deployment"
            description="Empty: the route's upstream model is the deployment name"
            {...form.getInputProps('config.deployment')}
          />
        )}
        {type.config.includes('max_tokens_field') && (
          <Select
            label="Max tokens field"
            description="Newer OpenAI models want max_completion_tokens"
            clearable
            data={['max_tokens', 'max_completion_tokens']}
            {...form.getInputProps('config.max_tokens_field')}
            value={form.values.config.max_tokens_field || null}
            onChange={(v) => form.setFieldValue('config.max_tokens_field', v ?? '')}
          />
        )}
        {type.config.includes('api') && (
          <Select
            label="API for translated requests"
            description="Where requests of other formats go: the Responses API keeps reasoning between turns"
            clearable
            data={['responses', 'chat_completions']}
            {...form.getInputProps('config.api')}
            value={form.values.config.api || null}
            onChange={(v) => form.setFieldValue('config.api', v ?? '')}
          />
        )}
        <FormActions
          onCancel={onClose}
          submitting={save.isPending}
          submitLabel={provider ? 'Save' : 'Add provider'}
        />
      </Stack>
    </form>
  );
}
