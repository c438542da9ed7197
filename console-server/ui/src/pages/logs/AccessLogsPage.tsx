import { Badge, Text } from '@mantine/core';
import { api, unwrap } from '../../api/client';
import type { QueryParams, Schemas } from '../../api/types';
import type { Column } from '../../components/DataTable';
import { formatLogTime, formatNumber } from '../../lib/format';
import { useUserDirectory } from './directory';
import { TIME_RANGE_FILTERS, userFilter } from './filter-fields';
import { type FilterField, LogView } from './LogView';
import { ACCESS_STATUS_OPTIONS } from './status-options';

type Entry = Schemas['AccessLogEntry'];
type Query = QueryParams<'/api/admin/access-logs', 'get'>;

function statusColor(status: number): string {
  if (status >= 500) return 'red';
  if (status >= 400) return 'orange';
  return 'teal';
}

/**
 * The server that answered and the port it listens on: "console :9401". Rows written before
 * the server was recorded carry only the default port it had then.
 */
function serverOf(e: Entry): string {
  const server = e.source ?? (e.port === 3000 ? 'gateway' : e.port === 3001 ? 'console' : null);
  return server ? `${server} :${e.port}` : `:${e.port}`;
}

/** Every HTTP request to either server (GET /api/admin/access-logs). */
export function AccessLogsPage() {
  const users = useUserDirectory();
  const columns: Column<Entry>[] = [
    { key: 'created_at', header: 'Time', render: (e) => formatLogTime(e.created_at) },
    { key: 'server', header: 'Server', render: serverOf },
    { key: 'method', header: 'Method', render: (e) => e.method },
    { key: 'path', header: 'Path', render: (e) => e.path },
    {
      key: 'status',
      header: 'Status',
      render: (e) => <Badge color={statusColor(e.status_code)}>{e.status_code}</Badge>,
    },
    { key: 'latency', header: 'Latency (ms)', render: (e) => formatNumber(e.latency_ms) },
    {
      key: 'user',
      header: 'User',
      // The name and email; the id on hover (and in the drawer).
      render: (e) => (
        <Text size="sm" title={e.user_id ?? undefined} data-testid="access-log-user">
          {users.label(e.user_id)}
        </Text>
      ),
    },
  ];
  const filters: FilterField[] = [
    { name: 'q', label: 'Search', kind: 'text', placeholder: 'Path or user agent' },
    { name: 'method', label: 'Method', kind: 'text', placeholder: 'GET, POST, …' },
    { name: 'path', label: 'Path contains', kind: 'text' },
    { name: 'status_code', label: 'Status', kind: 'select', options: ACCESS_STATUS_OPTIONS },
    {
      name: 'source',
      label: 'Server',
      kind: 'select',
      options: [
        { value: 'gateway', label: 'gateway' },
        { value: 'console', label: 'console' },
      ],
    },
    { name: 'port', label: 'Port', kind: 'text', placeholder: 'e.g. 3000' },
    userFilter(users),
    ...TIME_RANGE_FILTERS,
  ];
  return (
    <LogView
      title="Access logs"
      description="Every HTTP request to the gateway and the console, newest first, with the port each server listens on. The web UI's own asset loads (scripts, styles, icons) are not recorded; its page loads are."
      queryKey="access-logs"
      filters={filters}
      columns={columns}
      fetchPage={(query) => unwrap(api.GET('/api/admin/access-logs', { params: { query: query as Query } }))}
      rowKey={(e) => e.id}
      drawerTitle={(e) => `${e.method} ${e.path}`}
    />
  );
}
