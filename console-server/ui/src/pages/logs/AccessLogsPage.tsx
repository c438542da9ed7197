import { Badge } from '@mantine/core';
import { api, unwrap } from '../../api/client';
import type { QueryParams, Schemas } from '../../api/types';
import type { Column } from '../../components/DataTable';
import { formatDate, formatNumber } from '../../lib/format';
import { type FilterField, LogView } from './LogView';

type Entry = Schemas['AccessLogEntry'];
type Query = QueryParams<'/api/admin/access-logs', 'get'>;

function statusColor(status: number): string {
  if (status >= 500) return 'red';
  if (status >= 400) return 'orange';
  return 'teal';
}

const columns: Column<Entry>[] = [
  { key: 'created_at', header: 'Time', render: (e) => formatDate(e.created_at) },
  {
    key: 'server',
    header: 'Server',
    render: (e) => (e.port === 3000 ? 'gateway' : e.port === 3001 ? 'console' : e.port),
  },
  { key: 'method', header: 'Method', render: (e) => e.method },
  { key: 'path', header: 'Path', render: (e) => e.path },
  {
    key: 'status',
    header: 'Status',
    render: (e) => <Badge color={statusColor(e.status_code)}>{e.status_code}</Badge>,
  },
  { key: 'latency', header: 'Latency (ms)', render: (e) => formatNumber(e.latency_ms) },
  { key: 'user', header: 'User', render: (e) => e.user_id ?? '' },
];

const filters: FilterField[] = [
  { name: 'q', label: 'Search', kind: 'text', placeholder: 'Path or user agent' },
  { name: 'method', label: 'Method', kind: 'text', placeholder: 'GET, POST, …' },
  { name: 'path', label: 'Path contains', kind: 'text' },
  { name: 'status_code', label: 'Status code', kind: 'text', placeholder: 'e.g. 404' },
  {
    name: 'port',
    label: 'Server',
    kind: 'select',
    options: [
      { value: '3000', label: 'gateway (3000)' },
      { value: '3001', label: 'console (3001)' },
    ],
  },
  { name: 'user_id', label: 'User id', kind: 'text' },
  { name: 'from', label: 'From', kind: 'datetime' },
  { name: 'to', label: 'To', kind: 'datetime' },
];

/** Every HTTP request to either server (GET /api/admin/access-logs). */
export function AccessLogsPage() {
  return (
    <LogView
      title="Access logs"
      description="Every HTTP request to the gateway and the console, newest first."
      queryKey="access-logs"
      filters={filters}
      columns={columns}
      fetchPage={(query) => unwrap(api.GET('/api/admin/access-logs', { params: { query: query as Query } }))}
      rowKey={(e) => e.id}
      drawerTitle={(e) => `${e.method} ${e.path}`}
    />
  );
}
