import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import { SETUP_STATUS_QUERY } from '../../api/site';
import { GuardrailSettingInput } from './GuardrailSettingInput';
import { GuardrailsTry } from './GuardrailsTry';
import { isGuardrailKey } from './guardrail-values';
import { SettingInput } from './SettingInput';
import type { SettingField } from './setting-fields';
import { categoryLabel } from './setting-labels';
import { type SettingsValues, settingIssueRenames, settingsPatch, toFormValue } from './setting-values';

export const SETTINGS_QUERY = ['settings'] as const;
/** Settings GET /api/setup/status publishes. */
const PUBLIC_SETTINGS = new Set(['site_name', 'gateway_base_url']);

interface Props {
  category: string;
  fields: SettingField[];
  stored: Record<string, unknown>;
}

function initial(fields: SettingField[], stored: Record<string, unknown>): SettingsValues {
  return { settings: Object.fromEntries(fields.map((f) => [f.key, toFormValue(f, stored[f.key])])) };
}

/** One category's settings; saving sends only the changed keys and shows the API's issues per field. */
export function SettingsCategoryForm({ category, fields, stored }: Props) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<SettingsValues>({ initialValues: initial(fields, stored) });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    const values = initial(fields, stored);
    setValues(values);
    resetDirty(values);
  }, [fields, stored, setValues, resetDirty]);
  const save = useMutation({
    mutationFn: (settings: Record<string, unknown>) =>
      unwrap(api.PATCH('/api/admin/settings', { body: { settings } })),
    onSuccess: (result) => {
      // A secret still reads as the mask, so the refetch changes nothing: empty its input here.
      for (const key of result.updated) {
        if (fields.some((f) => f.key === key && f.kind === 'secret'))
          form.setFieldValue(`settings.${key}`, '');
      }
      void queryClient.invalidateQueries({ queryKey: SETTINGS_QUERY });
      // The header, the tab title and the new-key dialog read the public status.
      if (result.updated.some((key) => PUBLIC_SETTINGS.has(key)))
        void queryClient.invalidateQueries({ queryKey: SETUP_STATUS_QUERY });
      const keys = result.updated.join(', ');
      notifications.show({ color: 'teal', message: keys ? `Saved: ${keys}` : 'Nothing to change' });
    },
    onError: (error) =>
      setAlert(applyApiErrors(form, error, settingIssueRenames(error, form.getValues().settings))),
  });
  const submit = form.onSubmit((values) => {
    setAlert(null);
    const { patch, errors } = settingsPatch(fields, stored, values.settings);
    if (Object.keys(errors).length > 0) return form.setErrors(errors);
    if (Object.keys(patch).length === 0) {
      notifications.show({ message: 'No changes to save' });
      return;
    }
    save.mutate(patch);
  });
  return (
    <form onSubmit={submit} data-testid={`settings-form-${category}`}>
      <Stack maw={720}>
        <FormAlert message={alert} />
        {fields.map((field) =>
          field.kind === 'guardrail' && isGuardrailKey(field.key) ? (
            <GuardrailSettingInput key={field.key} field={field} settingKey={field.key} form={form} />
          ) : (
            <SettingInput
              key={field.key}
              field={field}
              stored={stored[field.key]}
              inputProps={form.getInputProps(`settings.${field.key}`, {
                type: field.kind === 'boolean' ? 'checkbox' : 'input',
              })}
              clearing={save.isPending && save.variables?.[field.key] === null}
              onClearSecret={() => save.mutate({ [field.key]: null })}
            />
          ),
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            Save {categoryLabel(category)}
          </Button>
        </Group>
        {category === 'security' && (
          <GuardrailsTry redact={form.values.settings.redact} content={form.values.settings.content} />
        )}
      </Stack>
    </form>
  );
}
