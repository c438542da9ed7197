import { Badge, Button, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { Schemas } from '../../api/types';
import { ConfirmModal } from '../../components/ConfirmModal';
import { type Column, DataTable } from '../../components/DataTable';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';
import { formatNumber } from '../../lib/format';
import { MCP_VIRTUAL_SERVERS_QUERY, useMcpVirtualServerPage } from './mcp-queries';
import { VirtualServerCreateModal } from './VirtualServerCreateModal';

type VirtualServer = Schemas['McpVirtualServer'];

/** Virtual servers: named, curated sets of tools at /mcp/{name}; create, (de)activate, delete. */
export function VirtualServersSection() {
  const virtuals = useMcpVirtualServerPage();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<VirtualServer | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: MCP_VIRTUAL_SERVERS_QUERY });
  const setActive = useMutation({
    mutationFn: ({ id, is_active }: { id: string; is_active: boolean }) =>
      unwrap(api.PATCH('/api/mcp/virtual-servers/{id}', { params: { path: { id } }, body: { is_active } })),
    onSuccess: refresh,
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/mcp/virtual-servers/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      setDeleting(null);
      refresh();
      notifications.show({ color: 'teal', message: 'Virtual server deleted' });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const columns: Column<VirtualServer>[] = [
    { key: 'name', header: 'Name', render: (v) => v.name },
    { key: 'endpoint', header: 'Endpoint', render: (v) => `/mcp/${v.name}` },
    { key: 'description', header: 'Description', render: (v) => v.description ?? '' },
    {
      key: 'tools',
      header: 'Tools',
      render: (v) => (
        <Badge variant="light" title={v.tools.join(', ')}>
          {formatNumber(v.tools.length)}
        </Badge>
      ),
    },
    {
      key: 'active',
      header: 'Active',
      render: (v) => (
        <Switch
          aria-label={`Active: ${v.name}`}
          checked={v.is_active}
          onChange={(e) => setActive.mutate({ id: v.id, is_active: e.currentTarget.checked })}
        />
      ),
    },
    {
      key: 'actions',
      header: '',
      render: (v) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(v)}>
            Delete
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="sm" mt="xl">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={3}>Virtual servers</Title>
          <Text c="dimmed" size="sm">
            Named sets of tools from several servers, each served at /mcp/&lt;name&gt;.
          </Text>
        </Stack>
        <Button variant="light" onClick={() => setCreating(true)}>
          Create virtual server
        </Button>
      </Group>
      <QueryError error={virtuals.query.error} />
      <DataTable
        columns={columns}
        rows={virtuals.rows}
        rowKey={(v) => v.id}
        loading={virtuals.query.isPending}
        empty="No virtual servers yet."
        testId="mcp-virtual-servers-table"
      />
      {virtuals.pager && <Pager {...virtuals.pager} />}
      <VirtualServerCreateModal opened={creating} onClose={() => setCreating(false)} />
      <ConfirmModal
        opened={deleting !== null}
        title={`Delete virtual server "${deleting?.name ?? ''}"?`}
        confirmLabel="Delete virtual server"
        danger
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      >
        Clients using /mcp/{deleting?.name ?? ''} lose its tools. The tools and their servers stay.
      </ConfirmModal>
    </Stack>
  );
}
