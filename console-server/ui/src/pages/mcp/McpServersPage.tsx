import { Badge, Button, Group, Switch } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { Schemas } from '../../api/types';
import { ConfirmModal } from '../../components/ConfirmModal';
import { type Column, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';
import { formatNumber } from '../../lib/format';
import { type DiscoverOutcome, DiscoverResultModal } from './DiscoverResultModal';
import { McpServerCreateModal } from './McpServerCreateModal';
import { MCP_SERVERS_QUERY, MCP_TOOLS_QUERY, useMcpServerPage } from './mcp-queries';
import { VirtualServersSection } from './VirtualServersSection';

type Server = Schemas['McpServerListItem'];

/** Registered MCP servers: register, discover tools, (de)activate, delete; then the virtual servers. */
export function McpServersPage() {
  const servers = useMcpServerPage();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Server | null>(null);
  const [outcome, setOutcome] = useState<DiscoverOutcome | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: MCP_SERVERS_QUERY });
    void queryClient.invalidateQueries({ queryKey: MCP_TOOLS_QUERY });
  };
  const discover = useMutation({
    mutationFn: (server: Server) =>
      unwrap(api.POST('/api/mcp/servers/{id}/discover', { params: { path: { id: server.id } } })),
    onSuccess: (result, server) => {
      setOutcome({ serverName: server.name, result });
      refresh();
    },
    onError: (error, server) => setOutcome({ serverName: server.name, error }),
  });
  const setActive = useMutation({
    mutationFn: ({ id, is_active }: { id: string; is_active: boolean }) =>
      unwrap(api.PATCH('/api/mcp/servers/{id}', { params: { path: { id } }, body: { is_active } })),
    onSuccess: refresh,
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/mcp/servers/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      setDeleting(null);
      refresh();
      notifications.show({ color: 'teal', message: 'Server deleted' });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const columns: Column<Server>[] = [
    { key: 'name', header: 'Name', render: (s) => s.name },
    { key: 'endpoint', header: 'Endpoint', render: (s) => s.endpoint_url },
    { key: 'transport', header: 'Transport', render: (s) => s.transport_type },
    {
      key: 'auth',
      header: 'Auth',
      render: (s) =>
        s.auth_name
          ? `${s.auth_type} (${s.auth_name})`
          : s.oauth_client_id
            ? `${s.auth_type} (client ${s.oauth_client_id})`
            : s.auth_type,
    },
    {
      key: 'tools',
      header: 'Tools',
      render: (s) => <Badge variant="light">{formatNumber(s.tool_count)}</Badge>,
    },
    {
      key: 'active',
      header: 'Active',
      render: (s) => (
        <Switch
          aria-label={`Active: ${s.name}`}
          checked={s.is_active}
          onChange={(e) => setActive.mutate({ id: s.id, is_active: e.currentTarget.checked })}
        />
      ),
    },
    {
      key: 'actions',
      header: '',
      render: (s) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button
            size="xs"
            variant="light"
            loading={discover.isPending && discover.variables?.id === s.id}
            onClick={() => discover.mutate(s)}
          >
            Discover
          </Button>
          <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(s)}>
            Delete
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <>
      <PageHeader
        title="MCP servers"
        description="Upstream MCP servers whose tools the gateway exposes on /mcp."
        actions={<Button onClick={() => setCreating(true)}>Register server</Button>}
      />
      <QueryError error={servers.query.error} />
      <DataTable
        columns={columns}
        rows={servers.rows}
        rowKey={(s) => s.id}
        loading={servers.query.isPending}
        empty="No MCP servers yet."
        testId="mcp-servers-table"
      />
      {servers.pager && <Pager {...servers.pager} />}
      <VirtualServersSection />
      <McpServerCreateModal opened={creating} onClose={() => setCreating(false)} />
      <DiscoverResultModal outcome={outcome} onClose={() => setOutcome(null)} />
      <ConfirmModal
        opened={deleting !== null}
        title={`Delete MCP server "${deleting?.name ?? ''}"?`}
        confirmLabel="Delete server"
        danger
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      >
        Its {deleting?.tool_count ?? 0} tools are removed and{' '}
        <b>live MCP sessions using this server are terminated</b>: connected clients must reconnect and lose
        its tools.
      </ConfirmModal>
    </>
  );
}
