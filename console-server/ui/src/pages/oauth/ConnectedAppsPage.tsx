import { Badge, Button, Switch } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, unwrapPage } from '../../api/client';
import { usePagedQuery } from '../../api/paging';
import type { Schemas } from '../../api/types';
import { useAuth } from '../../auth/AuthProvider';
import { isAdmin } from '../../auth/session';
import { type Column, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';

type Grant = Schemas['OAuthGrant'];

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/**
 * MCP clients signed in through OAuth: yours, or (admins) everyone's. Revoking stops the
 * client's tokens at once; it must sign in again.
 */
export function ConnectedAppsPage() {
  const { session } = useAuth();
  const admin = isAdmin(session?.user);
  const [all, setAll] = useState(false);
  const client = useQueryClient();
  const grants = usePagedQuery(['oauth-grants', all], (page) =>
    unwrapPage(
      api.GET('/api/oauth/grants', { params: { query: all ? { all: 'true', ...page } : page } }),
      page,
    ),
  );
  const revoke = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/oauth/grants/{id}', { params: { path: { id } } })),
    onSettled: () => client.invalidateQueries({ queryKey: ['oauth-grants'] }),
  });
  const columns: Column<Grant>[] = [
    { key: 'client', header: 'Client', render: (g) => g.client_name },
    ...(all ? [{ key: 'user', header: 'User', render: (g: Grant) => g.user_email }] : []),
    { key: 'resource', header: 'Access to', render: (g) => g.resource },
    { key: 'created', header: 'Allowed', render: (g) => when(g.created_at) },
    { key: 'used', header: 'Last refresh', render: (g) => when(g.last_used_at) },
    {
      key: 'state',
      header: 'State',
      render: (g) =>
        g.revoked_at ? (
          <Badge color="gray" title={g.revoked_reason ?? ''}>
            revoked
          </Badge>
        ) : (
          <Button
            size="xs"
            color="red"
            variant="light"
            onClick={() => revoke.mutate(g.id)}
            loading={revoke.isPending}
          >
            Revoke
          </Button>
        ),
    },
  ];
  return (
    <>
      <PageHeader
        title="Connected apps"
        description="MCP clients (Claude Code, Codex, editors) you let call the gateway's /mcp by signing in. Revoke one to sign it out."
      />
      {admin && (
        <Switch mb="md" label="All users" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} />
      )}
      <QueryError error={grants.query.error ?? revoke.error} />
      <DataTable
        columns={columns}
        rows={grants.rows}
        rowKey={(g) => g.id}
        loading={grants.query.isPending}
        empty="No MCP client has signed in yet."
        testId="connected-apps-table"
      />
      {grants.pager && <Pager {...grants.pager} />}
    </>
  );
}
