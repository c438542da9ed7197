import {
  Button,
  Group,
  NumberInput,
  PasswordInput,
  Select,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { SECRET_MASK, type SettingField } from './setting-fields';

interface Props {
  field: SettingField;
  stored: unknown;
  inputProps: GetInputPropsReturnType;
  onClearSecret: () => void;
  clearing: boolean;
}

function help(field: SettingField): string | undefined {
  const parts = [field.description, field.range && `Range: ${field.range}`].filter(Boolean);
  return parts.length > 0 ? parts.join('. ') : undefined;
}

/**
 * The human label with the API's key beside it, small and monospace. Both are the input's
 * accessible label ("Site name site_name"), so the input is found by either.
 */
export function SettingLabel({ field }: { field: SettingField }) {
  return (
    <>
      {field.label}{' '}
      <Text span size="xs" c="dimmed" ff="monospace" fw={400} data-testid="setting-key">
        {field.key}
      </Text>
    </>
  );
}

/** One setting's input, chosen by its kind; its help (description, range) sits under the label. */
export function SettingInput({ field, stored, inputProps, onClearSecret, clearing }: Props) {
  const label = <SettingLabel field={field} />;
  const description = help(field);
  switch (field.kind) {
    case 'secret': {
      const isSet = stored === SECRET_MASK;
      return (
        <Group align="flex-end" wrap="nowrap">
          <PasswordInput
            style={{ flex: 1 }}
            label={label}
            description={`${description ? `${description}. ` : ''}Write-only: ${isSet ? 'a value is stored; type a new one to replace it' : 'not set'}.`}
            placeholder={isSet ? 'Stored (hidden)' : 'Not set'}
            autoComplete="new-password"
            {...inputProps}
          />
          {isSet && (
            <Button variant="default" color="red" onClick={onClearSecret} loading={clearing}>
              Clear
            </Button>
          )}
        </Group>
      );
    }
    case 'boolean':
      return <Switch label={label} description={description} {...inputProps} />;
    case 'number':
      return <NumberInput label={label} description={description} {...inputProps} />;
    case 'select':
      return (
        <Select
          label={label}
          description={description}
          data={field.options ?? []}
          allowDeselect={false}
          {...inputProps}
        />
      );
    case 'list':
      return (
        <TagsInput
          label={label}
          description={description}
          placeholder="Type and press Enter"
          {...inputProps}
        />
      );
    case 'json':
      return (
        <Textarea
          label={label}
          description={description}
          autosize
          minRows={2}
          maxRows={14}
          styles={{ input: { fontFamily: 'monospace' } }}
          {...inputProps}
        />
      );
    default:
      return <TextInput label={label} description={description} {...inputProps} />;
  }
}
