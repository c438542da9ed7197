import { Alert, Badge, Button, Group } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { usePagedQuery } from '../../api/paging';
import type { Schemas } from '../../api/types';
import { type Column, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';

type Connection = Schemas['McpConnection'];

/**
 * The MCP servers where each user signs in with their own account (auth_type oauth). Connect
 * sends the browser to the server's own sign-in; it comes back here with ?connected=<name>
 * (or ?error=…). Calls through /mcp then act as you on that server.
 */
export function McpConnectionsPage() {
  const [params] = useSearchParams();
  const client = useQueryClient();
  const connections = usePagedQuery(['mcp-connections'], (page) =>
    unwrap(api.GET('/api/mcp/connections', { params: { query: page } })),
  );
  const connect = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/mcp/connections/{id}', { params: { path: { id } } })),
    onSuccess: ({ authorization_url }) => window.location.assign(authorization_url),
  });
  const disconnect = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/mcp/connections/{id}', { params: { path: { id } } })),
    onSettled: () => client.invalidateQueries({ queryKey: ['mcp-connections'] }),
  });
  const columns: Column<Connection>[] = [
    { key: 'server', header: 'Server', render: (c) => c.server_name },
    { key: 'endpoint', header: 'Endpoint', render: (c) => c.endpoint_url },
    {
      key: 'state',
      header: 'Your account',
      render: (c) =>
        c.connected ? <Badge color="green">connected</Badge> : <Badge color="gray">not connected</Badge>,
    },
    {
      key: 'action',
      header: '',
      render: (c) => (
        <Group gap="xs">
          <Button
            size="xs"
            variant="light"
            onClick={() => connect.mutate(c.server_id)}
            loading={connect.isPending}
          >
            {c.connected ? 'Reconnect' : 'Connect'}
          </Button>
          {c.connected && (
            <Button size="xs" color="red" variant="subtle" onClick={() => disconnect.mutate(c.server_id)}>
              Disconnect
            </Button>
          )}
        </Group>
      ),
    },
  ];
  const connected = params.get('connected');
  const failed = params.get('error');
  return (
    <>
      <PageHeader
        title="Connections"
        description="MCP servers that act for you with your own account. Connect once; the gateway keeps your tokens sealed and refreshes them."
      />
      {connected && (
        <Alert color="green" mb="md">
          Connected to {connected}.
        </Alert>
      )}
      {failed && (
        <Alert color="red" mb="md">
          {failed}
        </Alert>
      )}
      <QueryError error={connections.query.error ?? connect.error ?? disconnect.error} />
      <DataTable
        columns={columns}
        rows={connections.rows}
        rowKey={(c) => c.server_id}
        loading={connections.query.isPending}
        empty="No MCP server asks users to sign in."
        testId="mcp-connections-table"
      />
      {connections.pager && <Pager {...connections.pager} />}
    </>
  );
}
