import { Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useUsers } from './limits-queries';
import { SubjectLimitsForm } from './SubjectLimitsForm';
import { UsageBars } from './UsageBars';
import { UserRolesForm } from './UserRolesForm';

/** Per-user limits: extra roles, own overrides, and live usage over all of the user's keys. */
export function UserLimitsTab() {
  const users = useUsers();
  const [userId, setUserId] = useState<string | null>(null);
  const user = users.data?.find((u) => u.id === userId);
  return (
    <Stack>
      <Select
        label="User"
        placeholder="Pick a user"
        searchable
        maw={420}
        data={users.data?.map((u) => ({ value: u.id, label: `${u.email} (${u.role})` })) ?? []}
        value={userId}
        onChange={setUserId}
      />
      {user ? (
        <SimpleGrid cols={{ base: 1, lg: 2 }} key={user.id}>
          <Stack>
            <UserRolesForm userId={user.id} userRole={user.role} />
            <SubjectLimitsForm subject="user" id={user.id} />
          </Stack>
          <UsageBars subject="user" id={user.id} />
        </SimpleGrid>
      ) : (
        <Text c="dimmed">Pick a user to see and edit their limits.</Text>
      )}
    </Stack>
  );
}
