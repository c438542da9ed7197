import { Badge, Code, Group, NumberInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { api, unwrapPage } from '../../api/client';
import { usePagedQuery } from '../../api/paging';
import type { Schemas } from '../../api/types';
import { type Column, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';
import { formatDate } from '../../lib/format';

type Expiring = Schemas['ExpiringApiKey'];

const columns: Column<Expiring>[] = [
  { key: 'name', header: 'Name', render: (k) => k.name },
  { key: 'prefix', header: 'Prefix', render: (k) => <Code>{k.prefix}…</Code> },
  { key: 'owner', header: 'Owner', render: (k) => k.owner_email },
  { key: 'expires', header: 'Expires', render: (k) => formatDate(k.expires_at) },
  {
    key: 'left',
    header: 'Days left',
    render: (k) => (
      <Badge color={k.days_remaining <= 1 ? 'red' : 'yellow'} variant="light">
        {k.days_remaining}
      </Badge>
    ),
  },
];

export function ExpiringKeysPage() {
  const [days, setDays] = useState<number | string>(7);
  const [debounced] = useDebouncedValue(days, 300);
  const within = typeof debounced === 'number' ? debounced : 7;
  const keys = usePagedQuery(['keys', 'expiring', within], (page) =>
    unwrapPage(api.GET('/api/keys/expiring', { params: { query: { days: within, ...page } } }), page),
  );
  return (
    <>
      <PageHeader
        title="Expiring keys"
        description="Keys that expire soon: rotate them or extend their expiry before clients break."
        actions={
          <Group>
            <NumberInput
              label="Within days"
              w={120}
              min={1}
              allowDecimal={false}
              value={days}
              onChange={setDays}
            />
          </Group>
        }
      />
      <QueryError error={keys.query.error} />
      <DataTable
        columns={columns}
        rows={keys.rows}
        rowKey={(k) => k.id}
        loading={keys.query.isPending}
        empty="No key expires in that window."
      />
      {keys.pager && <Pager {...keys.pager} />}
    </>
  );
}
