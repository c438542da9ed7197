import {
  Button,
  Checkbox,
  Group,
  PasswordInput,
  Select,
  Stack,
  Stepper,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import { applyApiErrors, FormAlert } from '../../api/forms';
import { SETUP_STATUS_QUERY, useDocumentTitle } from '../../api/site';
import type { RequestBody } from '../../api/types';
import { useAuth } from '../../auth/AuthProvider';
import { HOME_PATH } from '../../pages';
import { PROVIDER_TYPE_OPTIONS, PROVIDER_TYPES, type ProviderType } from '../providers/provider-types';
import { AuthCard } from './AuthCard';

type SetupBody = RequestBody<'/api/setup/initialize', 'post'>;

const initialValues = {
  admin: { email: '', display_name: '', password: '' },
  withProvider: false,
  provider: {
    name: '',
    display_name: '',
    provider_type: 'openai' as ProviderType,
    base_url: '',
    api_key: '',
  },
};

/** First run: the admin account, optionally a first provider, then straight into the app. */
export function SetupWizard() {
  const [step, setStep] = useState(0);
  const [alert, setAlert] = useState<string | null>(null);
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm({ mode: 'controlled', initialValues });
  const initialize = useMutation({
    mutationFn: (body: SetupBody) => unwrap(api.POST('/api/setup/initialize', { body })),
    onSuccess: (tokens) => {
      signIn(tokens);
      queryClient.setQueryData(
        SETUP_STATUS_QUERY,
        (old) => old && { ...old, initialized: true, needs_setup: false },
      );
      navigate(HOME_PATH, { replace: true });
    },
    onError: (error) => {
      setAlert(applyApiErrors(form, error));
      // Issues on the admin fields: show the step they are on.
      if (error instanceof ApiError && error.issues.some((i) => i.path.startsWith('admin.'))) setStep(0);
    },
  });
  const submit = form.onSubmit((v) => {
    setAlert(null);
    initialize.mutate({ admin: v.admin, ...(v.withProvider ? { provider: v.provider } : {}) });
  });
  const type = PROVIDER_TYPES[form.values.provider.provider_type];
  useDocumentTitle('Setup');
  return (
    <AuthCard
      title="Welcome to Sluice"
      subtitle="Create the first administrator to finish setting up."
      width={560}
    >
      <form onSubmit={submit}>
        <Stepper active={step} onStepClick={setStep} size="sm" mb="md">
          <Stepper.Step label="Administrator">
            <Stack>
              <TextInput label="Email" autoComplete="username" {...form.getInputProps('admin.email')} />
              <TextInput label="Display name" {...form.getInputProps('admin.display_name')} />
              <PasswordInput
                label="Password"
                description="At least 8 characters"
                autoComplete="new-password"
                {...form.getInputProps('admin.password')}
              />
              <Group justify="flex-end">
                <Button onClick={() => setStep(1)}>Next</Button>
              </Group>
            </Stack>
          </Stepper.Step>
          <Stepper.Step label="First provider" description="Optional">
            <Stack>
              <Checkbox
                label="Add an upstream provider now (you can also do it later under Providers)"
                {...form.getInputProps('withProvider', { type: 'checkbox' })}
              />
              {form.values.withProvider && (
                <>
                  <Select
                    label="Provider type"
                    data={PROVIDER_TYPE_OPTIONS}
                    allowDeselect={false}
                    {...form.getInputProps('provider.provider_type')}
                  />
                  <Text size="sm" c="dimmed">
                    {type.help}
                    {type.config.length > 0 &&
                      ' Type-specific options can be set afterwards under Providers.'}
                  </Text>
                  <TextInput
                    label="Name"
                    description="Lower-case identifier, e.g. openai-main"
                    {...form.getInputProps('provider.name')}
                  />
                  <TextInput label="Display name" {...form.getInputProps('provider.display_name')} />
                  <TextInput
                    label="Base URL"
                    placeholder={type.baseUrl}
                    {...form.getInputProps('provider.base_url')}
                  />
                  <PasswordInput
                    label="API key"
                    description={type.keyHelp}
                    {...form.getInputProps('provider.api_key')}
                  />
                </>
              )}
              <FormAlert message={alert} />
              <Group justify="space-between">
                <Button variant="default" onClick={() => setStep(0)}>
                  Back
                </Button>
                <Button type="submit" loading={initialize.isPending}>
                  Finish setup
                </Button>
              </Group>
            </Stack>
          </Stepper.Step>
        </Stepper>
      </form>
    </AuthCard>
  );
}
