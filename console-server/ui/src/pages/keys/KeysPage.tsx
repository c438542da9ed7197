import { Anchor, Badge, Button, Code, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap, unwrapPage } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { usePagedQuery } from '../../api/paging';
import type { Schemas } from '../../api/types';
import { useUser } from '../../auth/AuthProvider';
import { isAdmin } from '../../auth/session';
import { ConfirmModal } from '../../components/ConfirmModal';
import { type Column, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';
import { formatDate } from '../../lib/format';
import { KeyCreateModal } from './KeyCreateModal';
import { KeyEditModal } from './KeyEditModal';
import { KeyLimitsCell } from './KeyLimitsCell';
import { KeyRotateModal } from './KeyRotateModal';
import { KEYS_QUERY, keyStatus } from './key-queries';

type ApiKey = Schemas['ApiKey'];
const STATUS_COLOR = {
  active: 'teal',
  expiring: 'yellow',
  expired: 'gray',
  disabled: 'red',
  revoked: 'gray',
} as const;

export function KeysPage() {
  const keys = usePagedQuery(KEYS_QUERY, (page) =>
    unwrapPage(api.GET('/api/keys', { params: { query: page } }), page),
  );
  const queryClient = useQueryClient();
  // Admins read every key's rules and budgets: the keys page lists them with the RPM.
  const admin = isAdmin(useUser());
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ApiKey | null>(null);
  const [rotating, setRotating] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const revoke = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/keys/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      notifications.show({ message: `Key "${revoking?.name}" revoked`, color: 'teal' });
      setRevoking(null);
      void queryClient.invalidateQueries({ queryKey: KEYS_QUERY });
    },
    onError: (error) =>
      notifications.show({ title: 'Revoke failed', message: errorMessage(error), color: 'red' }),
  });
  const columns: Column<ApiKey>[] = [
    { key: 'name', header: 'Name', render: (k) => <Text fw={500}>{k.name}</Text> },
    { key: 'prefix', header: 'Prefix', render: (k) => <Code>{k.prefix}…</Code> },
    {
      key: 'models',
      header: 'Allowed models',
      render: (k) =>
        k.allowed_models ? (
          <Group gap={4}>
            {k.allowed_models.map((m) => (
              <Badge key={m} variant="light" size="sm">
                {m}
              </Badge>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            All models
          </Text>
        ),
    },
    { key: 'limits', header: 'Limits', render: (k) => <KeyLimitsCell apiKey={k} withRules={admin} /> },
    { key: 'expires', header: 'Expires', render: (k) => formatDate(k.expires_at, 'never') },
    { key: 'used', header: 'Last used', render: (k) => formatDate(k.last_used_at, 'never') },
    {
      key: 'status',
      header: 'Status',
      render: (k) => {
        // The server's status; an active key close to its expiry is flagged from expires_at.
        const status = k.status === 'active' ? keyStatus(k.expires_at) : k.status;
        return (
          <Badge color={STATUS_COLOR[status]} variant="light">
            {status === 'expiring' ? 'expiring soon' : status}
          </Badge>
        );
      },
    },
    {
      key: 'actions',
      header: '',
      render: (k) => (
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Button size="compact-sm" variant="subtle" onClick={() => setEditing(k)}>
            Edit
          </Button>
          <Button size="compact-sm" variant="subtle" onClick={() => setRotating(k)}>
            Rotate
          </Button>
          <Button size="compact-sm" variant="subtle" color="red" onClick={() => setRevoking(k)}>
            Revoke
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Keys authenticate calls to the gateway.{' '}
            <Anchor component={Link} to="/keys/expiring" size="sm">
              See keys expiring soon
            </Anchor>
          </>
        }
        actions={<Button onClick={() => setCreating(true)}>Create key</Button>}
      />
      <QueryError error={keys.query.error} />
      <DataTable
        columns={columns}
        rows={keys.rows}
        rowKey={(k) => k.id}
        loading={keys.query.isPending}
        empty="No keys yet."
        testId="keys-table"
      />
      {keys.pager && <Pager {...keys.pager} />}
      <KeyCreateModal opened={creating} onClose={() => setCreating(false)} />
      <KeyEditModal apiKey={editing} onClose={() => setEditing(null)} />
      <KeyRotateModal apiKey={rotating} onClose={() => setRotating(null)} />
      <ConfirmModal
        opened={revoking !== null}
        title="Revoke key"
        confirmLabel="Revoke key"
        danger
        loading={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking.id)}
        onClose={() => setRevoking(null)}
      >
        Revoke <b>{revoking?.name}</b> ({revoking?.prefix}…)? Every client using it gets 401 from now on. This
        cannot be undone.
      </ConfirmModal>
    </>
  );
}
