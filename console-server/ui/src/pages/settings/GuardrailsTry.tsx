import { Alert, Button, Code, Group, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';

interface Props {
  /**
   * The rules as typed in the security form, saved or not: the value of the structured editor,
   * or the JSON text of its "Edit as JSON" view.
   */
  redact: unknown;
  content: unknown;
}

function parsed(typed: unknown): Record<string, unknown> | undefined {
  let value = typed;
  if (typeof typed === 'string') {
    try {
      value = JSON.parse(typed);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** What a sample text becomes under the redact and content rules as typed, before they are saved. */
export function GuardrailsTry({ redact, content }: Props) {
  const [text, setText] = useState('');
  const attempt = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/admin/settings/guardrails/try', {
          body: { text, redact: parsed(redact), content: parsed(content) },
        }),
      ),
  });
  const error = attempt.error instanceof ApiError ? attempt.error : null;
  const result = attempt.data;
  return (
    <Stack gap="xs" data-testid="guardrails-try">
      <Title order={4}>Try the guardrails</Title>
      <Text size="sm" c="dimmed">
        What a sample text becomes under the redact and content rules above, as typed (nothing is saved).
      </Text>
      <Textarea
        label="Sample text"
        autosize
        minRows={2}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
      />
      <Group>
        <Button variant="default" onClick={() => attempt.mutate()} loading={attempt.isPending}>
          Try it
        </Button>
      </Group>
      {error && (
        <Alert color="red" title="These rules would not save" data-testid="guardrails-try-error">
          {error.issues.length > 0
            ? error.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')
            : error.message}
        </Alert>
      )}
      {result && (
        <Table withTableBorder data-testid="guardrails-try-result">
          <Table.Tbody>
            {(['request', 'response', 'logs'] as const).map((place) => (
              <Table.Tr key={place}>
                <Table.Th w={140}>Redacted ({place})</Table.Th>
                <Table.Td>
                  <Code data-testid={`try-${place}`}>{result.redact[place]}</Code>
                </Table.Td>
              </Table.Tr>
            ))}
            <Table.Tr>
              <Table.Th>Content rules</Table.Th>
              <Table.Td data-testid="try-content">
                {result.content.blocked
                  ? result.content.message
                  : result.content.flagged.length > 0
                    ? `Allowed, flagged by ${result.content.flagged.map((rule) => `"${rule}"`).join(', ')}`
                    : 'Allowed'}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
