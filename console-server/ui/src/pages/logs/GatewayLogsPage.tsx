import { Autocomplete, Button, Checkbox, Group, Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { QueryParams, Schemas } from '../../api/types';
import { DataTable } from '../../components/DataTable';
import { DetailDrawer } from '../../components/DetailDrawer';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';
import { localInputToIso, toLocalInput } from '../../lib/format';
import { FilterError, useKeyDirectory, useModelSuggestions, useUserDirectory } from './directory';
import { gatewayLogColumns } from './gateway-log-columns';
import { GATEWAY_STATUS_OPTIONS } from './status-options';

type Entry = Schemas['GatewayLogEntry'];
type Query = QueryParams<'/api/gateway/logs', 'get'>;

/** What the form holds: names as typed (the key and user filters), ids only once applied. */
interface Filters {
  model: string;
  provider: string;
  user: string;
  api_key: string;
  status_code: string;
  unpriced: boolean;
  client_name: string;
  error_type: string;
  from: string;
  to: string;
  sort_by: NonNullable<Query['sort_by']>;
}

/** The filters applied: the key and user as the ids the API filters on. */
interface Applied extends Omit<Filters, 'user' | 'api_key'> {
  user_id: string;
  api_key_id: string;
}

const EMPTY: Filters = {
  model: '',
  provider: '',
  user: '',
  api_key: '',
  status_code: '',
  unpriced: false,
  client_name: '',
  error_type: '',
  from: '',
  to: '',
  sort_by: 'created_at',
};
const NOTHING_APPLIED: Applied = { ...EMPTY, user_id: '', api_key_id: '' };

/** An ISO instant of a link (?from=…) as the datetime input shows it; '' when absent or bad. */
function localOf(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : toLocalInput(date);
}

/**
 * Filters a link may set (the analytics page links here with unpriced=true and its range):
 * model, status_code, unpriced, from, to.
 */
function fromLink(params: URLSearchParams): Filters {
  return {
    ...EMPTY,
    model: params.get('model') ?? '',
    status_code: params.get('status_code') ?? '',
    unpriced: params.get('unpriced') === 'true',
    from: localOf(params.get('from')),
    to: localOf(params.get('to')),
  };
}

function toQuery(f: Applied, page: { offset: number; limit: number }): Query {
  const q: Query = { sort_by: f.sort_by, limit: page.limit, offset: page.offset };
  if (f.model) q.model = f.model;
  if (f.provider) q.provider = f.provider;
  if (f.user_id) q.user_id = f.user_id;
  if (f.api_key_id) q.api_key_id = f.api_key_id;
  if (f.client_name) q.client_name = f.client_name;
  if (f.error_type) q.error_type = f.error_type;
  if (f.status_code) q.status_code = f.status_code;
  if (f.unpriced) q.unpriced = 'true';
  const from = localInputToIso(f.from);
  const to = localInputToIso(f.to);
  if (from) q.from = from;
  if (to) q.to = to;
  return q;
}

export function GatewayLogsPage() {
  const [params] = useSearchParams();
  const [draft, setDraft] = useState<Filters>(() => fromLink(params));
  const [filters, setFilters] = useState<Applied>(() => ({ ...NOTHING_APPLIED, ...fromLink(params) }));
  const [nameErrors, setNameErrors] = useState<Partial<Record<'user' | 'api_key', string>>>({});
  const [page, setPage] = useState({ offset: 0, limit: 50 });
  const [selected, setSelected] = useState<Entry | null>(null);
  const users = useUserDirectory();
  const keys = useKeyDirectory(draft.api_key);
  const models = useModelSuggestions();
  const query = toQuery(filters, page);
  const logs = useQuery({
    queryKey: ['gateway-logs', query],
    queryFn: () => unwrap(api.GET('/api/gateway/logs', { params: { query } })),
    placeholderData: (previous) => previous,
  });
  // A 422 names the query parameter it refused: show its message under that filter.
  const issues = logs.error instanceof ApiError ? logs.error.issues : [];
  const apiError = (param: string) => issues.find((i) => i.path === param)?.message;
  const fieldError = (field: keyof Filters) => apiError(field);
  const set = (field: keyof Filters) => (value: string | boolean | null) =>
    setDraft((d) => ({ ...d, [field]: value ?? '' }));
  /** A name that matches nothing stays in the form with its message; nothing is sent. */
  const resolved = async (field: 'user' | 'api_key', resolve: (text: string) => Promise<string>) => {
    const text = draft[field].trim();
    if (!text) return '';
    try {
      return await resolve(text);
    } catch (error) {
      if (error instanceof FilterError) return { error: error.message };
      throw error;
    }
  };
  const apply = async () => {
    const [user, key] = await Promise.all([
      resolved('user', users.resolve),
      resolved('api_key', keys.resolve),
    ]);
    const errors = {
      ...(typeof user === 'object' ? { user: user.error } : {}),
      ...(typeof key === 'object' ? { api_key: key.error } : {}),
    };
    setNameErrors(errors);
    if (typeof user === 'object' || typeof key === 'object') return;
    const { user: _user, api_key: _key, ...rest } = draft;
    setFilters({ ...rest, user_id: user, api_key_id: key });
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
          void apply();
        }}
      >
        <Group align="flex-end" mb="md" wrap="wrap" gap="xs">
          <Autocomplete
            label="Model"
            w={170}
            data={models}
            limit={20}
            value={draft.model}
            error={fieldError('model')}
            onChange={set('model')}
          />
          <TextInput
            label="Provider"
            w={130}
            value={draft.provider}
            error={fieldError('provider')}
            onChange={(e) => set('provider')(e.currentTarget.value)}
          />
          <Autocomplete
            label="API key"
            placeholder="Name or prefix"
            w={230}
            data={keys.suggestions}
            limit={20}
            // Suggestions are the server's search for what is typed: no second filtering here.
            filter={({ options }) => options}
            value={draft.api_key}
            error={nameErrors.api_key ?? apiError('api_key_id')}
            onChange={set('api_key')}
          />
          <Autocomplete
            label="User"
            placeholder="Name or email"
            w={220}
            data={users.suggestions}
            limit={20}
            value={draft.user}
            error={nameErrors.user ?? apiError('user_id')}
            onChange={set('user')}
          />
          <Select
            label="Status"
            placeholder="Any"
            w={200}
            clearable
            data={GATEWAY_STATUS_OPTIONS}
            value={draft.status_code || null}
            error={fieldError('status_code')}
            onChange={set('status_code')}
          />
          <TextInput
            label="Client"
            placeholder="e.g. codex"
            w={120}
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
            w={120}
            allowDeselect={false}
            data={[
              { value: 'created_at', label: 'Newest' },
              { value: 'cost_usd', label: 'Cost' },
              { value: 'latency_ms', label: 'Latency' },
            ]}
            value={draft.sort_by}
            onChange={set('sort_by')}
          />
          <Checkbox
            label="Unpriced models only"
            mb={8}
            checked={draft.unpriced}
            onChange={(e) => set('unpriced')(e.currentTarget.checked)}
          />
          <Button type="submit">Apply</Button>
          <Button
            variant="default"
            onClick={() => {
              setDraft(EMPTY);
              setFilters(NOTHING_APPLIED);
              setNameErrors({});
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
