import { Button, Group, NumberInput, Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { QueryParams, Schemas } from '../../api/types';
import { DataTable } from '../../components/DataTable';
import { DetailDrawer } from '../../components/DetailDrawer';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';
import { localInputToIso, optionalInt } from '../../lib/format';
import { gatewayLogColumns } from './gateway-log-columns';

type Entry = Schemas['GatewayLogEntry'];
type Query = QueryParams<'/api/gateway/logs', 'get'>;

interface Filters {
  model: string;
  provider: string;
  user_id: string;
  api_key_id: string;
  status_code: number | string;
  client_name: string;
  error_type: string;
  from: string;
  to: string;
  sort_by: NonNullable<Query['sort_by']>;
}

const EMPTY: Filters = {
  model: '',
  provider: '',
  user_id: '',
  api_key_id: '',
  status_code: '',
  client_name: '',
  error_type: '',
  from: '',
  to: '',
  sort_by: 'created_at',
};

function toQuery(f: Filters, page: { offset: number; limit: number }): Query {
  const q: Query = { sort_by: f.sort_by, limit: page.limit, offset: page.offset };
  if (f.model) q.model = f.model;
  if (f.provider) q.provider = f.provider;
  if (f.user_id) q.user_id = f.user_id;
  if (f.api_key_id) q.api_key_id = f.api_key_id;
  if (f.client_name) q.client_name = f.client_name;
  if (f.error_type) q.error_type = f.error_type;
  const status = optionalInt(f.status_code);
  if (status !== undefined) q.status_code = status;
  const from = localInputToIso(f.from);
  const to = localInputToIso(f.to);
  if (from) q.from = from;
  if (to) q.to = to;
  return q;
}

export function GatewayLogsPage() {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState({ offset: 0, limit: 50 });
  const [selected, setSelected] = useState<Entry | null>(null);
  const query = toQuery(filters, page);
  const logs = useQuery({
    queryKey: ['gateway-logs', query],
    queryFn: () => unwrap(api.GET('/api/gateway/logs', { params: { query } })),
    placeholderData: (previous) => previous,
  });
  // A 422 names the query parameter it refused: show its message under that filter.
  const issues = logs.error instanceof ApiError ? logs.error.issues : [];
  const fieldError = (field: keyof Filters) => issues.find((i) => i.path === field)?.message;
  const set = (field: keyof Filters) => (value: string | number | null) =>
    setDraft((d) => ({ ...d, [field]: value ?? '' }));
  const apply = () => {
    setFilters(draft);
    setPage((p) => ({ ...p, offset: 0 }));
  };
  return (
    <>
      <PageHeader
        title="Gateway logs"
        description="Every model request through the gateway, refused ones included, with the client that sent it. A cost of $0, or — when unknown, comes with its reason: a cache hit, an unpriced model, a request that failed before any tokens."
      />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
      >
        <Group align="flex-end" mb="md" wrap="wrap" gap="xs">
          <TextInput
            label="Model"
            w={150}
            value={draft.model}
            error={fieldError('model')}
            onChange={(e) => set('model')(e.currentTarget.value)}
          />
          <TextInput
            label="Provider"
            w={150}
            value={draft.provider}
            error={fieldError('provider')}
            onChange={(e) => set('provider')(e.currentTarget.value)}
          />
          <TextInput
            label="API key id"
            w={150}
            value={draft.api_key_id}
            error={fieldError('api_key_id')}
            onChange={(e) => set('api_key_id')(e.currentTarget.value)}
          />
          <TextInput
            label="User id"
            w={150}
            value={draft.user_id}
            error={fieldError('user_id')}
            onChange={(e) => set('user_id')(e.currentTarget.value)}
          />
          <NumberInput
            label="Status"
            w={90}
            allowDecimal={false}
            value={draft.status_code}
            onChange={set('status_code')}
            error={fieldError('status_code')}
          />
          <TextInput
            label="Client"
            placeholder="e.g. codex"
            w={130}
            value={draft.client_name}
            error={fieldError('client_name')}
            onChange={(e) => set('client_name')(e.currentTarget.value)}
          />
          <TextInput
            label="Error type"
            placeholder="e.g. rate_limit_error"
            w={170}
            value={draft.error_type}
            error={fieldError('error_type')}
            onChange={(e) => set('error_type')(e.currentTarget.value)}
          />
          <TextInput
            type="datetime-local"
            label="From"
            value={draft.from}
            onChange={(e) => set('from')(e.currentTarget.value)}
            error={fieldError('from')}
          />
          <TextInput
            type="datetime-local"
            label="To"
            value={draft.to}
            onChange={(e) => set('to')(e.currentTarget.value)}
            error={fieldError('to')}
          />
          <Select
            label="Sort by"
            w={130}
            allowDeselect={false}
            data={[
              { value: 'created_at', label: 'Newest' },
              { value: 'cost_usd', label: 'Cost' },
              { value: 'latency_ms', label: 'Latency' },
            ]}
            value={draft.sort_by}
            onChange={set('sort_by')}
          />
          <Button type="submit">Apply</Button>
          <Button
            variant="default"
            onClick={() => {
              setDraft(EMPTY);
              setFilters(EMPTY);
            }}
          >
            Reset
          </Button>
          <Button variant="subtle" onClick={() => void logs.refetch()} loading={logs.isFetching}>
            Refresh
          </Button>
        </Group>
      </form>
      <QueryError error={issues.length > 0 ? null : logs.error} />
      <DataTable
        columns={gatewayLogColumns}
        rows={logs.data?.entries}
        rowKey={(e) => e.id}
        loading={logs.isPending}
        empty="No requests match."
        onRowClick={setSelected}
        testId="gateway-logs-table"
      />
      {logs.data && (
        <Pager total={logs.data.total} offset={logs.data.offset} limit={page.limit} onChange={setPage} />
      )}
      <DetailDrawer title="Gateway request" record={selected} onClose={() => setSelected(null)} />
    </>
  );
}
