import { Alert, Badge, Button, Group } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, unwrap, unwrapPage } from '../../api/client';
import { usePagedQuery } from '../../api/paging';
import type { Schemas } from '../../api/types';
import { type Column, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';
import { type IdTokenConnected, IdTokenConnectModal } from './IdTokenConnectModal';

type Connection = Schemas['McpConnection'];

/**
 * The MCP servers where each user connects their own account. For auth_type oauth (connect_with
 * sign_in), Connect sends the browser to the server's own sign-in; it comes back here with
 * ?connected=<name> (or ?error=…). For oauth_token_exchange (connect_with id_token) there is no
 * sign-in to go to: the user pastes their ID token from the company's identity provider.
 * Calls through /mcp then act as you on that server.
 */
export function McpConnectionsPage() {
  const [params] = useSearchParams();
  const client = useQueryClient();
  const [pastingFor, setPastingFor] = useState<Connection | null>(null);
  // The subject is only in the connect answer, not in the list: shown once, as the redirect's alert is.
  const [connectedAs, setConnectedAs] = useState<{ server: string; subject: string } | null>(null);
  const connections = usePagedQuery(['mcp-connections'], (page) =>
    unwrapPage(api.GET('/api/mcp/connections', { params: { query: page } }), page),
  );
  const connect = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/mcp/connections/{id}', { params: { path: { id } } })),
    onSuccess: ({ authorization_url }) => window.location.assign(authorization_url),
  });
  const disconnect = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/mcp/connections/{id}', { params: { path: { id } } })),
    onSettled: () => {
      // A "connected as" line would outlive the connection it reports.
      setConnectedAs(null);
      return client.invalidateQueries({ queryKey: ['mcp-connections'] });
    },
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
          {c.connect_with === 'id_token' ? (
            <Button size="xs" variant="light" onClick={() => setPastingFor(c)}>
              {c.connected ? 'Reconnect with ID token' : 'Connect with ID token'}
            </Button>
          ) : (
            <Button
              size="xs"
              variant="light"
              onClick={() => connect.mutate(c.server_id)}
              loading={connect.isPending}
            >
              {c.connected ? 'Reconnect' : 'Connect'}
            </Button>
          )}
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
  const idTokenAccepted = (to: Connection, answer: IdTokenConnected) => {
    setConnectedAs({ server: to.server_name, subject: answer.subject });
    void client.invalidateQueries({ queryKey: ['mcp-connections'] });
  };
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
      {connectedAs && (
        <Alert color="green" mb="md">
          Connected to {connectedAs.server} as {connectedAs.subject}.
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
        empty="No MCP server asks users to connect their account."
        testId="mcp-connections-table"
      />
      {connections.pager && <Pager {...connections.pager} />}
      <IdTokenConnectModal
        connection={pastingFor}
        onClose={() => setPastingFor(null)}
        onConnected={idTokenAccepted}
      />
    </>
  );
}
