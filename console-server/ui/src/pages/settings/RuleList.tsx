import { ActionIcon, Button, Card, Group, Stack, Text } from '@mantine/core';
import { type ReactNode, useRef } from 'react';

/**
 * Regexes and globs read best in a monospace font: Mantine's stack (Chromium on Linux draws no
 * underscores in an input set in DejaVu Sans Mono, the generic `monospace` there).
 */
export const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

interface Props<R> {
  title: string;
  help: string;
  rules: readonly R[];
  /** One rule's inputs; the remove button goes after them. */
  renderRule: (rule: R, index: number) => ReactNode;
  onAdd: () => void;
  onRemove: (index: number) => void;
  addLabel: string;
  empty: string;
  /** Rows are `<testId>-<index>`, the add button `<testId>-add`. */
  testId: string;
}

/**
 * Stable React keys for rows that carry no id of their own (the rules are exactly what the API
 * takes): a removed row takes its key with it; rows that appear otherwise (a reset) get new ones.
 */
function useRowKeys(count: number) {
  const next = useRef(0);
  const keys = useRef<number[]>([]);
  while (keys.current.length < count) keys.current.push(next.current++);
  if (keys.current.length > count) keys.current.length = count;
  return { keys: keys.current, remove: (index: number) => keys.current.splice(index, 1) };
}

/** A guardrail's named rules as rows with add and remove. */
export function RuleList<R>({
  title,
  help,
  rules,
  renderRule,
  onAdd,
  onRemove,
  addLabel,
  empty,
  testId,
}: Props<R>) {
  const rows = useRowKeys(rules.length);
  return (
    <Stack gap={6}>
      <div>
        <Text size="sm" fw={500}>
          {title}
        </Text>
        <Text size="xs" c="dimmed">
          {help}
        </Text>
      </div>
      {rules.length === 0 && (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      )}
      {rules.map((rule, index) => (
        <Card key={rows.keys[index]} withBorder p="xs" data-testid={`${testId}-${index}`}>
          <Group align="flex-start" gap="xs" wrap="nowrap">
            <Stack gap={6} style={{ flex: 1 }}>
              {renderRule(rule, index)}
            </Stack>
            <ActionIcon
              variant="subtle"
              color="red"
              mt={26}
              aria-label="Remove rule"
              onClick={() => {
                rows.remove(index);
                onRemove(index);
              }}
            >
              ✕
            </ActionIcon>
          </Group>
        </Card>
      ))}
      <Group>
        <Button size="xs" variant="light" onClick={onAdd} data-testid={`${testId}-add`}>
          {addLabel}
        </Button>
      </Group>
    </Stack>
  );
}
