import { Group, Paper, Stack, Switch, Text, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { ContentEditor } from './ContentEditor';
import { GUARDRAIL_SUMMARY } from './guardrail-labels';
import {
  fitsForm,
  type GuardrailEditorProps,
  type GuardrailKey,
  type GuardrailValue,
  parseJson,
} from './guardrail-values';
import { InspectToolsEditor } from './InspectToolsEditor';
import { RedactEditor } from './RedactEditor';
import { MONO } from './RuleList';
import { SettingLabel } from './SettingInput';
import type { SettingField } from './setting-fields';
import type { SettingsValues } from './setting-values';

interface Props {
  field: SettingField;
  settingKey: GuardrailKey;
  form: UseFormReturnType<SettingsValues>;
}

type EditorProps = Omit<GuardrailEditorProps<GuardrailValue>, 'value'> & {
  settingKey: GuardrailKey;
  value: unknown;
};

/** The structured editor of one guardrail setting. */
function StructuredEditor({ settingKey, value, ...props }: EditorProps) {
  if (settingKey === 'redact' && fitsForm('redact', value)) return <RedactEditor value={value} {...props} />;
  if (settingKey === 'content' && fitsForm('content', value))
    return <ContentEditor value={value} {...props} />;
  if (settingKey === 'inspect_tools' && fitsForm('inspect_tools', value))
    return <InspectToolsEditor value={value} {...props} />;
  return null;
}

/**
 * A guardrail setting (security.redact, .content, .inspect_tools): a structured form, or with
 * "Edit as JSON" the setting's JSON as text. The form value is the setting itself in the form
 * view and its JSON text in the JSON view, so both edit one value; the API's issues land at the
 * input they name (settings.content.deny.0.regex), or on the setting in the JSON view.
 */
export function GuardrailSettingInput({ field, settingKey, form }: Props) {
  const base = `settings.${settingKey}`;
  const value = form.values.settings[settingKey];
  const json = typeof value === 'string';
  const error = (input: string) => form.errors[input ? `${base}.${input}` : base];
  const clearErrorsBelow = (prefix: string) =>
    form.setErrors((errors) =>
      Object.fromEntries(Object.entries(errors).filter(([path]) => !path.startsWith(`${base}.${prefix}`))),
    );
  const onChange = (next: GuardrailValue, input: string) => {
    form.setFieldValue(base, next);
    form.clearFieldError(`${base}.${input}`);
  };
  const toggle = () => {
    if (!json) {
      form.setFieldValue(base, JSON.stringify(value, null, 2));
      clearErrorsBelow('');
      return;
    }
    const parsed = parseJson(value);
    if (!parsed) form.setFieldError(base, 'must be valid JSON to show as a form');
    else if (!fitsForm(settingKey, parsed.value))
      form.setFieldError(base, 'has fields or types the form cannot show: edit it as JSON');
    else form.setFieldValue(base, parsed.value);
  };
  return (
    <Stack gap={6} data-testid={`guardrail-${settingKey}`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Text size="sm" fw={500}>
            <SettingLabel field={field} />
          </Text>
          <Text size="xs" c="dimmed">
            {json ? field.description : GUARDRAIL_SUMMARY[settingKey]}
          </Text>
        </div>
        <Switch size="xs" label="Edit as JSON" checked={json} onChange={toggle} style={{ flexShrink: 0 }} />
      </Group>
      {json ? (
        <Textarea
          aria-label={`${field.label} ${field.key}`}
          autosize
          minRows={2}
          maxRows={14}
          styles={MONO}
          value={value}
          onChange={(event) => form.setFieldValue(base, event.currentTarget.value)}
          error={error('')}
        />
      ) : (
        <Paper withBorder p="sm">
          <Stack gap="sm">
            <StructuredEditor
              settingKey={settingKey}
              value={value}
              onChange={onChange}
              onRowRemoved={(list) => clearErrorsBelow(`${list}.`)}
              error={error}
            />
            {error('') && (
              <Text size="xs" c="red" data-testid={`guardrail-${settingKey}-error`}>
                {error('')}
              </Text>
            )}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
