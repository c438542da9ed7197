import { Group, NumberInput, Select, TextInput } from '@mantine/core';
import { DenyRuleList } from './DenyRuleList';
import { EnabledSwitch } from './EnabledSwitch';
import { ACTION_LABELS, GUARDRAIL_HELP } from './guardrail-labels';
import {
  ACTIONS,
  type ContentRule,
  type ContentValue,
  type GuardrailEditorProps,
  withField,
} from './guardrail-values';
import { ModelGlobsTable } from './ModelGlobsTable';
import { MONO } from './RuleList';

const NEW_RULE: ContentRule = { name: '', regex: '' };
const ACTION_OPTIONS = ACTIONS.map((action) => ({ value: action, label: ACTION_LABELS[action] }));
const isAction = (text: string | null): text is NonNullable<ContentRule['action']> =>
  ACTIONS.some((action) => action === text);

/** security.content: deny rules (block or flag), the largest prompt, and models by role. */
export function ContentEditor({ value, onChange, onRowRemoved, error }: GuardrailEditorProps<ContentValue>) {
  return (
    <>
      <EnabledSwitch value={value} onChange={onChange} error={error('enabled')} />
      <DenyRuleList
        value={value}
        onChange={onChange}
        onRowRemoved={onRowRemoved}
        title="Deny rules"
        help={`${GUARDRAIL_HELP.contentDeny} ${GUARDRAIL_HELP.regex}`}
        testId="content-rule"
        addLabel="Add deny rule"
        empty="No deny rules."
        newRule={NEW_RULE}
        renderRule={(rule, index, setRule) => (
          <Group gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              label="Name"
              placeholder="no-codenames"
              w={170}
              value={rule.name}
              onChange={(event) => setRule({ ...rule, name: event.currentTarget.value }, 'name')}
              error={error(`deny.${index}.name`)}
            />
            <TextInput
              label="Regex"
              placeholder="(?i)codename\s+[a-z]+"
              style={{ flex: 1 }}
              styles={MONO}
              value={rule.regex}
              onChange={(event) => setRule({ ...rule, regex: event.currentTarget.value }, 'regex')}
              error={error(`deny.${index}.regex`)}
            />
            <Select
              label="Action"
              w={100}
              data={ACTION_OPTIONS}
              allowDeselect={false}
              value={rule.action ?? 'block'}
              onChange={(action) => isAction(action) && setRule({ ...rule, action }, 'action')}
              error={error(`deny.${index}.action`)}
            />
          </Group>
        )}
      />
      <NumberInput
        label="Largest prompt (tokens)"
        description={GUARDRAIL_HELP.maxPromptTokens}
        placeholder="No bound"
        w={260}
        allowDecimal={false}
        allowNegative={false}
        value={value.max_prompt_tokens ?? ''}
        onChange={(tokens) =>
          onChange(
            withField(value, 'max_prompt_tokens', typeof tokens === 'number' ? tokens : undefined),
            'max_prompt_tokens',
          )
        }
        error={error('max_prompt_tokens')}
      />
      <ModelGlobsTable value={value} onChange={onChange} error={error} />
    </>
  );
}
