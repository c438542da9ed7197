import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap, unwrapPage } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { usePagedQuery } from '../../api/paging';
import type { Schemas } from '../../api/types';
import { ConfirmModal } from '../../components/ConfirmModal';
import { type Column, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';
import { formatDate, formatPrice } from '../../lib/format';
import { MODELS_QUERY } from '../models/model-queries';
import { PRICES_QUERY, PriceEditorModal } from './PriceEditorModal';

type Price = Schemas['ModelPrice'];

/** The price table: what requests of models without their own prices are billed at. */
export function PricesPage() {
  const prices = usePagedQuery(PRICES_QUERY, (page) =>
    unwrapPage(api.GET('/api/admin/model-prices', { params: { query: page } }), page),
  );
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ entry: Price | null } | null>(null);
  const [deleting, setDeleting] = useState<Price | null>(null);
  const remove = useMutation({
    mutationFn: (model: string) =>
      unwrap(api.DELETE('/api/admin/model-prices/{model}', { params: { path: { model } } })),
    onSuccess: () => {
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: PRICES_QUERY });
      void queryClient.invalidateQueries({ queryKey: MODELS_QUERY });
    },
    onError: (error) =>
      notifications.show({ title: 'Delete failed', message: errorMessage(error), color: 'red' }),
  });
  const columns: Column<Price>[] = [
    { key: 'model', header: 'Upstream model', render: (p) => <Text fw={500}>{p.model}</Text> },
    { key: 'vendor', header: 'Vendor', render: (p) => p.vendor },
    { key: 'input', header: 'Input', render: (p) => formatPrice(p.input_price_per_mtok) },
    { key: 'output', header: 'Output', render: (p) => formatPrice(p.output_price_per_mtok) },
    { key: 'cached', header: 'Cache read', render: (p) => formatPrice(p.cached_input_price_per_mtok) },
    { key: 'write', header: 'Cache write', render: (p) => formatPrice(p.cache_write_price_per_mtok) },
    {
      key: 'write-1h',
      header: 'Cache write 1 h',
      render: (p) => formatPrice(p.cache_write_1h_price_per_mtok),
    },
    { key: 'updated', header: 'Updated', render: (p) => formatDate(p.updated_at) },
    {
      key: 'actions',
      header: '',
      render: (p) => (
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Button size="compact-sm" variant="subtle" onClick={() => setEditing({ entry: p })}>
            Edit
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
        title="Price table"
        description="USD per 1M tokens by upstream model, for models without prices of their own. An empty cache read or write price bills those tokens at the input price; an empty 1-hour write price, at the cache write price."
        actions={
          <>
            <Button variant="default" component={Link} to="/models">
              Models & routes
            </Button>
            <Button onClick={() => setEditing({ entry: null })}>Add price</Button>
          </>
        }
      />
      <QueryError error={prices.query.error} />
      <DataTable
        columns={columns}
        rows={prices.rows}
        rowKey={(p) => p.model}
        loading={prices.query.isPending}
        empty="The price table is empty."
        testId="prices-table"
      />
      {prices.pager && <Pager {...prices.pager} />}
      <PriceEditorModal
        opened={editing !== null}
        entry={editing?.entry ?? null}
        onClose={() => setEditing(null)}
      />
      <ConfirmModal
        opened={deleting !== null}
        title="Delete price"
        confirmLabel="Delete price"
        danger
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.model)}
        onClose={() => setDeleting(null)}
      >
        Delete the price of <b>{deleting?.model}</b>? Models priced by it log their requests unpriced until
        another entry or their own prices price them.
      </ConfirmModal>
    </>
  );
}
