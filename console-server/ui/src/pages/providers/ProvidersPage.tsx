import { Badge, Button, Code, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, unwrapPage } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { usePagedQuery } from '../../api/paging';
import type { Schemas } from '../../api/types';
import { ConfirmModal } from '../../components/ConfirmModal';
import { type Column, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';
import { formatDate } from '../../lib/format';
import { MODELS_QUERY } from '../models/model-queries';
import { PROVIDERS_QUERY, ProviderFormModal } from './ProviderFormModal';
import { PROVIDER_TYPES } from './provider-types';

type Provider = Schemas['Provider'];

export function ProvidersPage() {
  const providers = usePagedQuery(PROVIDERS_QUERY, (page) =>
    unwrapPage(api.GET('/api/admin/providers', { params: { query: page } }), page),
  );
  const queryClient = useQueryClient();
  const [form, setForm] = useState<{ provider: Provider | null } | null>(null);
  const [deleting, setDeleting] = useState<Provider | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: PROVIDERS_QUERY });
  const fail = (error: unknown) =>
    notifications.show({ title: 'Request failed', message: errorMessage(error), color: 'red' });
  const toggle = useMutation({
    mutationFn: (p: Provider) =>
      unwrap(
        api.PATCH('/api/admin/providers/{id}', {
          params: { path: { id: p.id } },
          body: { is_active: !p.is_active },
        }),
      ),
    onSuccess: refresh,
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/admin/providers/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      setDeleting(null);
      refresh();
      void queryClient.invalidateQueries({ queryKey: MODELS_QUERY });
    },
    onError: fail,
  });
  const columns: Column<Provider>[] = [
    {
      key: 'name',
      header: 'Provider',
      render: (p) => (
        <div>
          <Text fw={500}>{p.display_name}</Text>
          <Text size="xs" c="dimmed">
            {p.name}
          </Text>
        </div>
      ),
    },
    { key: 'type', header: 'Type', render: (p) => PROVIDER_TYPES[p.provider_type].label },
    { key: 'url', header: 'Base URL', render: (p) => <Code>{p.base_url}</Code> },
    {
      key: 'status',
      header: 'Status',
      render: (p) => (
        <Badge color={p.is_active ? 'teal' : 'gray'} variant="light">
          {p.is_active ? 'active' : 'inactive'}
        </Badge>
      ),
    },
    { key: 'created', header: 'Created', render: (p) => formatDate(p.created_at) },
    {
      key: 'actions',
      header: '',
      render: (p) => (
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Button size="compact-sm" variant="subtle" onClick={() => setForm({ provider: p })}>
            Edit
          </Button>
          <Button size="compact-sm" variant="subtle" onClick={() => toggle.mutate(p)}>
            {p.is_active ? 'Deactivate' : 'Activate'}
          </Button>
          <Button size="compact-sm" variant="subtle" color="red" onClick={() => setDeleting(p)}>
            Delete
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <>
      <PageHeader
        title="Providers"
        description="Upstream AI providers the gateway forwards to. API keys are write-only."
        actions={<Button onClick={() => setForm({ provider: null })}>Add provider</Button>}
      />
      <QueryError error={providers.query.error} />
      <DataTable
        columns={columns}
        rows={providers.rows}
        rowKey={(p) => p.id}
        loading={providers.query.isPending}
        empty="No providers yet."
      />
      {providers.pager && <Pager {...providers.pager} />}
      <ProviderFormModal
        opened={form !== null}
        provider={form?.provider ?? null}
        onClose={() => setForm(null)}
      />
      <ConfirmModal
        opened={deleting !== null}
        title="Delete provider"
        confirmLabel="Delete provider"
        danger
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      >
        Delete <b>{deleting?.display_name}</b>? Every model route to it is removed too, so models served only
        by it stop resolving.
      </ConfirmModal>
    </>
  );
}
