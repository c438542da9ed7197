import { Group, TextInput } from '@mantine/core';
import { DenyRuleList } from './DenyRuleList';
import { EnabledSwitch } from './EnabledSwitch';
import { GUARDRAIL_HELP } from './guardrail-labels';
import {
  type GuardrailEditorProps,
  optionalText,
  type ToolRule,
  type ToolsValue,
  withField,
} from './guardrail-values';
import { MONO } from './RuleList';

const NEW_RULE: ToolRule = { name: '', tool: '' };

/** security.inspect_tools: tool calls refused by a <server>__<tool> glob and an optional argument regex. */
export function InspectToolsEditor({
  value,
  onChange,
  onRowRemoved,
  error,
}: GuardrailEditorProps<ToolsValue>) {
  return (
    <>
      <EnabledSwitch value={value} onChange={onChange} error={error('enabled')} />
      <DenyRuleList
        value={value}
        onChange={onChange}
        onRowRemoved={onRowRemoved}
        title="Deny rules"
        help={`${GUARDRAIL_HELP.toolDeny} ${GUARDRAIL_HELP.regex}`}
        testId="tool-rule"
        addLabel="Add tool rule"
        empty="No tool rules."
        newRule={NEW_RULE}
        renderRule={(rule, index, setRule) => (
          <Group gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              label="Name"
              placeholder="no-prod"
              w={150}
              value={rule.name}
              onChange={(event) => setRule({ ...rule, name: event.currentTarget.value }, 'name')}
              error={error(`deny.${index}.name`)}
            />
            <TextInput
              label="Tool"
              placeholder="db__*"
              w={170}
              styles={MONO}
              value={rule.tool}
              onChange={(event) => setRule({ ...rule, tool: event.currentTarget.value }, 'tool')}
              error={error(`deny.${index}.tool`)}
            />
            <TextInput
              label="Argument regex"
              placeholder="None: refuse the tool outright"
              style={{ flex: 1 }}
              styles={MONO}
              value={rule.argument_regex ?? ''}
              onChange={(event) =>
                setRule(
                  withField(rule, 'argument_regex', optionalText(event.currentTarget.value)),
                  'argument_regex',
                )
              }
              error={error(`deny.${index}.argument_regex`)}
            />
          </Group>
        )}
      />
    </>
  );
}
