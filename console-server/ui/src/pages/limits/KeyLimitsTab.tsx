import { Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useAdminKeySearch } from './limits-queries';
import { SubjectLimitsForm } from './SubjectLimitsForm';
import { UsageBars } from './UsageBars';

/**
 * Per-key rules and budgets with the key's live usage. Any user's key can be picked: the list
 * comes from GET /api/admin/keys, searched by key name, prefix or owner email.
 */
export function KeyLimitsTab() {
  const [search, setSearch] = useState('');
  // The key's rate_limit_rpm comes with it from the list: one of its limits, set with the key.
  const [picked, setPicked] = useState<{ value: string; label: string; rpm: number | null } | null>(null);
  // Once a key is picked the box shows its label: that is not a search.
  const [q] = useDebouncedValue(search === picked?.label ? '' : search.trim(), 250);
  const keys = useAdminKeySearch(q);
  const keyId = picked?.value ?? null;
  const found =
    keys.data?.entries.map((k) => ({
      value: k.id,
      label: `${k.name} (${k.prefix}…) — ${k.owner_email}${k.status === 'active' ? '' : ` [${k.status}]`}`,
    })) ?? [];
  const options =
    picked && !found.some((o) => o.value === picked.value)
      ? [{ value: picked.value, label: picked.label }, ...found]
      : found;
  const pick = (option: { value: string; label: string } | null) => {
    if (!option) return setPicked(null);
    // An option not in the current search results is the key picked before.
    const key = keys.data?.entries.find((k) => k.id === option.value);
    setPicked({ ...option, rpm: key ? key.rate_limit_rpm : (picked?.rpm ?? null) });
  };
  return (
    <Stack>
      <Select
        label="API key"
        description={
          keys.data ? `${keys.data.total} key(s) match; search by name, prefix or owner email` : undefined
        }
        placeholder="Search keys"
        searchable
        w={560}
        data={options}
        value={keyId}
        onChange={(_, option) => pick(option ? { value: option.value, label: option.label } : null)}
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options: all }) => all}
        nothingFoundMessage={keys.isFetching ? 'Searching…' : 'No key matches'}
      />
      {keyId ? (
        <SimpleGrid cols={{ base: 1, lg: 2 }} key={keyId}>
          <SubjectLimitsForm subject="api_key" id={keyId} rpm={picked?.rpm} />
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
