import { Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { SubjectLimitsForm } from './SubjectLimitsForm';
import { UsageBars } from './UsageBars';

/**
 * Per-key rules and budgets with the key's live usage. GET /api/keys lists only the caller's
 * own keys, so any other key is opened by its id (e.g. from a gateway log entry).
 */
export function KeyLimitsTab() {
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => unwrap(api.GET('/api/keys')) });
  const [keyId, setKeyId] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  return (
    <Stack>
      <Group align="flex-end">
        <Select
          label="Your keys"
          placeholder="Pick a key"
          searchable
          w={320}
          data={keys.data?.map((k) => ({ value: k.id, label: `${k.name} (${k.prefix}…)` })) ?? []}
          value={keys.data?.some((k) => k.id === keyId) ? keyId : null}
          onChange={(v) => {
            setKeyId(v);
            setTyped('');
          }}
        />
        <Text c="dimmed" pb={8}>
          or
        </Text>
        <TextInput
          label="Key id"
          placeholder="Any key's id"
          w={340}
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
        />
        <Button variant="light" onClick={() => setKeyId(typed.trim() || null)} disabled={!typed.trim()}>
          Open
        </Button>
      </Group>
      {keyId ? (
        <SimpleGrid cols={{ base: 1, lg: 2 }} key={keyId}>
          <SubjectLimitsForm subject="api_key" id={keyId} />
          <UsageBars subject="api_key" id={keyId} />
        </SimpleGrid>
      ) : (
        <Text c="dimmed">
          Pick a key to see and edit its own limits. Without any, its owner's limits apply.
        </Text>
      )}
    </Stack>
  );
}
