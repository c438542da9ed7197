import { Alert, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { errorMessage } from '../../api/errors';
import type { Schemas } from '../../api/types';

export interface DiscoverOutcome {
  serverName: string;
  result?: Schemas['McpDiscovery'];
  error?: unknown;
}

/** What a discovery found (tools with their input schemas), or why it failed (502: unreachable). */
export function DiscoverResultModal({
  outcome,
  onClose,
}: {
  outcome: DiscoverOutcome | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={outcome !== null}
      onClose={onClose}
      title={outcome ? `Discovery: ${outcome.serverName}` : ''}
      size="xl"
    >
      {outcome?.error !== undefined && (
        <Alert color="red" title="Discovery failed" data-testid="discover-error">
          {errorMessage(outcome.error)}. Nothing was changed.
        </Alert>
      )}
      {outcome?.result && (
        <Stack data-testid="discover-result">
          <Text>
            Found <b>{outcome.result.tools_discovered}</b> tool
            {outcome.result.tools_discovered === 1 ? '' : 's'}; they replace the stored ones.
          </Text>
          {outcome.result.tools.map((tool) => (
            <Stack key={tool.name} gap={4}>
              <Text fw={600}>{tool.name}</Text>
              {tool.description && (
                <Text size="sm" c="dimmed">
                  {tool.description}
                </Text>
              )}
              <Code block>{JSON.stringify(tool.input_schema, null, 2)}</Code>
            </Stack>
          ))}
        </Stack>
      )}
      <Group justify="flex-end" mt="md">
        <Button onClick={onClose}>Close</Button>
      </Group>
    </Modal>
  );
}
