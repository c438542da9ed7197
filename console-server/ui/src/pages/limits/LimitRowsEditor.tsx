import { ActionIcon, Button, Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';
import {
  type BudgetRow,
  KIND_OPTIONS,
  NEW_BUDGET,
  NEW_RULE,
  PERIOD_OPTIONS,
  type RuleRow,
  WINDOW_OPTIONS,
} from './limit-kinds';

export interface LimitRowsValues {
  rules: RuleRow[];
  budgets: BudgetRow[];
}

/** A whole-row issue (a duplicate kind and window) is reported on `rules.<i>` itself. */
function RowError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Text size="xs" c="red">
      {String(error)}
    </Text>
  );
}

/**
 * Sliding-window rules and calendar budgets as editable rows. Field names are the API's
 * paths (rules.0.limit, budgets.1.limit_tokens), so 422 issues land on the right input.
 */
export function LimitRowsEditor<V extends LimitRowsValues>({
  form,
  fixedRules,
}: {
  form: UseFormReturnType<V>;
  /** Rules that apply but are set elsewhere (a key's RPM), listed read-only above the editable ones. */
  fixedRules?: ReactNode;
}) {
  // The form is generic over V; these paths exist on every V (LimitRowsValues).
  const f = form as unknown as UseFormReturnType<LimitRowsValues>;
  const { rules, budgets } = f.getValues();
  return (
    <Stack gap="sm">
      <Text fw={600} size="sm">
        Rate limits (sliding windows)
      </Text>
      {fixedRules}
      {rules.length === 0 && (
        <Text size="sm" c="dimmed">
          {fixedRules ? 'No other rate limits.' : 'No rate limits.'}
        </Text>
      )}
      {rules.map((_, i) => (
        <Stack key={f.key(`rules.${i}`)} gap={2} data-testid="rule-row">
          <Group align="flex-start" wrap="nowrap">
            <Select
              aria-label="Kind"
              data={KIND_OPTIONS}
              allowDeselect={false}
              w={170}
              {...f.getInputProps(`rules.${i}.kind`)}
            />
            <Select
              aria-label="Window"
              data={WINDOW_OPTIONS}
              allowDeselect={false}
              w={130}
              {...f.getInputProps(`rules.${i}.window`)}
            />
            <NumberInput
              aria-label="Limit"
              placeholder="Limit"
              allowDecimal={false}
              style={{ flex: 1 }}
              {...f.getInputProps(`rules.${i}.limit`)}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              mt={6}
              aria-label="Remove rule"
              onClick={() => f.removeListItem('rules', i)}
            >
              ✕
            </ActionIcon>
          </Group>
          <RowError error={f.errors[`rules.${i}`]} />
        </Stack>
      ))}
      <Group>
        <Button size="xs" variant="light" onClick={() => f.insertListItem('rules', { ...NEW_RULE })}>
          Add rate limit
        </Button>
      </Group>
      <Text fw={600} size="sm" mt="sm">
        Budgets (weighted tokens per calendar period, UTC)
      </Text>
      {budgets.length === 0 && (
        <Text size="sm" c="dimmed">
          No budgets.
        </Text>
      )}
      {budgets.map((_, i) => (
        <Stack key={f.key(`budgets.${i}`)} gap={2} data-testid="budget-row">
          <Group align="flex-start" wrap="nowrap">
            <Select
              aria-label="Period"
              data={PERIOD_OPTIONS}
              allowDeselect={false}
              w={170}
              {...f.getInputProps(`budgets.${i}.period`)}
            />
            <NumberInput
              aria-label="Token budget"
              placeholder="Tokens"
              allowDecimal={false}
              style={{ flex: 1 }}
              {...f.getInputProps(`budgets.${i}.limit_tokens`)}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              mt={6}
              aria-label="Remove budget"
              onClick={() => f.removeListItem('budgets', i)}
            >
              ✕
            </ActionIcon>
          </Group>
          <RowError error={f.errors[`budgets.${i}`]} />
        </Stack>
      ))}
      <Group>
        <Button size="xs" variant="light" onClick={() => f.insertListItem('budgets', { ...NEW_BUDGET })}>
          Add budget
        </Button>
      </Group>
    </Stack>
  );
}
