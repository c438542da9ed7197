import { Badge } from '@mantine/core';
import { api, unwrap } from '../../api/client';
import type { QueryParams, Schemas } from '../../api/types';
import type { Column } from '../../components/DataTable';
import { formatLogTime, formatNumber } from '../../lib/format';
import { useAllMcpServers } from '../mcp/mcp-queries';
import { useUserDirectory } from './directory';
import { TIME_RANGE_FILTERS, userFilter } from './filter-fields';
import { type FilterField, LogView } from './LogView';

type Entry = Schemas['McpLogEntry'];

const columns: Column<Entry>[] = [
  { key: 'created_at', header: 'Time', render: (e) => formatLogTime(e.created_at) },
  { key: 'server', header: 'Server', render: (e) => e.server_name },
  { key: 'tool', header: 'Tool', render: (e) => e.tool_name },
  {
    key: 'status',
    header: 'Status',
    render: (e) => <Badge color={e.status === 'success' ? 'teal' : 'red'}>{e.status}</Badge>,
  },
  { key: 'duration', header: 'Duration (ms)', render: (e) => formatNumber(e.duration_ms) },
  { key: 'error', header: 'Error', render: (e) => e.error ?? '' },
];

/** The gateway's tools/call log (GET /api/mcp/logs). */
export function McpLogsPage() {
  const servers = useAllMcpServers();
  const users = useUserDirectory();
  const filters: FilterField[] = [
    {
      name: 'server_id',
      label: 'Server',
      kind: 'select',
      options: servers.data?.map((s) => ({ value: s.id, label: s.name })) ?? [],
    },
    { name: 'tool_name', label: 'Tool name (exact)', kind: 'text' },
    {
      name: 'status',
      label: 'Status',
      kind: 'select',
      options: [
        { value: 'success', label: 'success' },
        { value: 'error', label: 'error' },
      ],
    },
    userFilter(users),
    ...TIME_RANGE_FILTERS,
    {
      name: 'sort_by',
      label: 'Sort by',
      kind: 'select',
      placeholder: 'Newest first',
      options: [
        { value: 'created_at', label: 'Newest first' },
        { value: 'duration_ms', label: 'Slowest first' },
      ],
    },
  ];
  return (
    <LogView
      title="MCP logs"
      description="Every tools/call through the gateway's /mcp endpoint."
      queryKey="mcp-logs"
      filters={filters}
      columns={columns}
      fetchPage={(query) =>
        unwrap(api.GET('/api/mcp/logs', { params: { query: query as QueryParams<'/api/mcp/logs', 'get'> } }))
      }
      rowKey={(e) => e.id}
      drawerTitle={(e) => `${e.server_name} / ${e.tool_name}`}
    />
  );
}
