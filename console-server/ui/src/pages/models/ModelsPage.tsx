import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap, unwrapPage } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { type Page, usePagedQuery } from '../../api/paging';
import type { Schemas } from '../../api/types';
import { ConfirmModal } from '../../components/ConfirmModal';
import { type Column, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';
import { formatPrice } from '../../lib/format';
import { ModelEditorModal } from './ModelEditorModal';
import { KIND_LABEL, STRATEGY_LABEL } from './model-form';
import { MODELS_QUERY } from './model-queries';
import { RouteHealthBadge, useRouteHealth } from './RouteHealthBadge';
import { BENCH_EXPLANATION, type RouteHealth } from './route-health';

type Model = Schemas['Model'];
const SOURCE_LABEL = { model: 'own prices', price_table: 'price table', none: 'unpriced' } as const;

/** A model's routes in order, each with its health badge when it failed lately. */
function RoutesCell({ m, health }: { m: Model; health: Map<string, RouteHealth> }) {
  if (m.routes.length === 0)
    return (
      <Text size="sm" c="red">
        no route
      </Text>
    );
  return (
    <Stack gap={0}>
      {[...m.routes]
        .sort((a, b) => a.position - b.position)
        .map((r) => (
          <Group key={r.id} gap={6} wrap="nowrap" data-testid={`model-route-${r.id}`}>
            <Text size="sm" c={r.is_active ? undefined : 'dimmed'}>
              {r.position + 1}. {r.provider_name} → {r.upstream_model}
              {r.rpm_cap !== null && ` · ${r.rpm_cap} rpm`}
              {r.tpm_cap !== null && ` · ${r.tpm_cap} tpm`}
              {r.weight !== 1 && ` · weight ${r.weight}`}
            </Text>
            <RouteHealthBadge health={health.get(r.id)} />
          </Group>
        ))}
    </Stack>
  );
}

function PriceCell({ m }: { m: Model }) {
  const p = m.effective_price;
  return (
    <Stack gap={2}>
      <Text size="sm">
        in {formatPrice(p.input_price_per_mtok)} · out {formatPrice(p.output_price_per_mtok)}
        {p.cached_input_price_per_mtok !== null && ` · cached ${formatPrice(p.cached_input_price_per_mtok)}`}
      </Text>
      {p.cache_write_price_per_mtok !== null && (
        <Text size="xs" c="dimmed" data-testid="model-cache-write-price">
          cache write {formatPrice(p.cache_write_price_per_mtok)}
          {p.cache_write_1h_price_per_mtok !== null &&
            ` · 1 h ${formatPrice(p.cache_write_1h_price_per_mtok)}`}
        </Text>
      )}
      <Badge size="xs" variant="light" color={m.is_priced ? 'gray' : 'red'}>
        {SOURCE_LABEL[p.source]}
      </Badge>
    </Stack>
  );
}

/** The output cap sent when the client sets none, and whether prompt-cache breakpoints are placed. */
function AgentCell({ m }: { m: Model }) {
  return (
    <Stack gap={2}>
      <Text size="sm" data-testid="model-max-output">
        {m.max_output_tokens === null ? "upstream's limit" : `${m.max_output_tokens.toLocaleString()} tokens`}
      </Text>
      <Badge
        size="xs"
        variant="light"
        color={m.cache_breakpoints ? 'teal' : 'gray'}
        data-testid="model-cache-breakpoints"
      >
        {m.cache_breakpoints ? 'cache breakpoints' : 'no cache breakpoints'}
      </Badge>
    </Stack>
  );
}

/** The unpriced models the alert names (the first page); the rest are counted. */
const UNPRICED_PAGE = { offset: 0, limit: 20 };

function UnpricedAlert({ unpriced }: { unpriced: Page<Model> }) {
  const { total, entries } = unpriced;
  const more = total - entries.length;
  return (
    <Alert
      color="orange"
      mb="md"
      title={`${total} unpriced model${total > 1 ? 's' : ''}`}
      data-testid="unpriced-alert"
    >
      Requests to {entries.map((m) => m.name).join(', ')}
      {more > 0 ? ` and ${more} more` : ''} are logged without a cost. Set prices on the model or add a
      price-table entry for its upstream model.
    </Alert>
  );
}

export function ModelsPage() {
  const models = usePagedQuery(MODELS_QUERY, (page) =>
    unwrapPage(api.GET('/api/admin/models', { params: { query: page } }), page),
  );
  // Every unpriced model counts, not only those on the page shown.
  const unpriced = useQuery({
    queryKey: [...MODELS_QUERY, 'unpriced'],
    queryFn: () =>
      unwrapPage(api.GET('/api/admin/models/unpriced', { params: { query: UNPRICED_PAGE } }), UNPRICED_PAGE),
  });
  const health = useRouteHealth();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ model: Model | null } | null>(null);
  const [deleting, setDeleting] = useState<Model | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/admin/models/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: MODELS_QUERY });
      void queryClient.invalidateQueries({ queryKey: ['route-health'] });
    },
    onError: (error) =>
      notifications.show({ title: 'Delete failed', message: errorMessage(error), color: 'red' }),
  });
  const columns: Column<Model>[] = [
    { key: 'name', header: 'Model', render: (m) => <Text fw={500}>{m.name}</Text> },
    {
      key: 'kind',
      header: 'Kind',
      render: (m) => (
        <Group gap={4} wrap="nowrap">
          <Badge variant="light" color={m.kind === 'embedding' ? 'grape' : 'blue'}>
            {KIND_LABEL[m.kind]}
          </Badge>
          {m.strategy !== 'ordered' && (
            <Badge variant="outline" color="gray" title="Routing strategy" data-testid="model-strategy">
              {STRATEGY_LABEL[m.strategy]}
            </Badge>
          )}
        </Group>
      ),
    },
    { key: 'routes', header: 'Routes', render: (m) => <RoutesCell m={m} health={health.byRoute} /> },
    { key: 'price', header: 'Price per 1M tokens', render: (m) => <PriceCell m={m} /> },
    { key: 'output', header: 'Max output', render: (m) => <AgentCell m={m} /> },
    {
      key: 'active',
      header: 'Status',
      render: (m) => (
        <Badge color={m.is_active ? 'teal' : 'gray'} variant="light">
          {m.is_active ? 'active' : 'inactive'}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: '',
      render: (m) => (
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Button size="compact-sm" variant="subtle" onClick={() => setEditing({ model: m })}>
            Edit
          </Button>
          <Button size="compact-sm" variant="subtle" color="red" onClick={() => setDeleting(m)}>
            Delete
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <>
      <PageHeader
        title="Models & routes"
        description="The models clients can call, where each is routed, its caps and its prices."
        actions={
          <>
            {/* The price table prices the models without prices of their own. */}
            <Button variant="default" component={Link} to="/models/prices">
              Price table
            </Button>
            <Button onClick={() => setEditing({ model: null })}>Add model</Button>
          </>
        }
      />
      <QueryError error={models.query.error} />
      <QueryError error={health.error} />
      {unpriced.data && unpriced.data.total > 0 && <UnpricedAlert unpriced={unpriced.data} />}
      {health.byRoute.size > 0 && (
        <Text size="xs" c="dimmed" mb="xs" data-testid="route-health-note">
          {BENCH_EXPLANATION}
        </Text>
      )}
      <DataTable
        columns={columns}
        rows={models.rows}
        rowKey={(m) => m.id}
        loading={models.query.isPending}
        empty="No models yet."
        testId="models-table"
      />
      {models.pager && <Pager {...models.pager} />}
      <ModelEditorModal
        opened={editing !== null}
        model={editing?.model ?? null}
        onClose={() => setEditing(null)}
      />
      <ConfirmModal
        opened={deleting !== null}
        title="Delete model"
        confirmLabel="Delete model"
        danger
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      >
        Delete <b>{deleting?.name}</b> and its routes? Clients calling it get 404.
      </ConfirmModal>
    </>
  );
}
