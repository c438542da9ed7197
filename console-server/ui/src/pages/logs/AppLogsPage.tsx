import { Badge } from '@mantine/core';
import { api, unwrap } from '../../api/client';
import type { QueryParams, Schemas } from '../../api/types';
import type { Column } from '../../components/DataTable';
import { formatLogTime } from '../../lib/format';
import { TIME_RANGE_FILTERS } from './filter-fields';
import { type FilterField, LogView } from './LogView';

type Entry = Schemas['AppLogEntry'];
type Query = QueryParams<'/api/admin/app-logs', 'get'>;

const LEVEL_COLORS: Record<Entry['level'], string> = {
  TRACE: 'gray',
  DEBUG: 'gray',
  INFO: 'blue',
  WARN: 'yellow',
  ERROR: 'red',
};

const columns: Column<Entry>[] = [
  { key: 'created_at', header: 'Time', render: (e) => formatLogTime(e.created_at) },
  { key: 'level', header: 'Level', render: (e) => <Badge color={LEVEL_COLORS[e.level]}>{e.level}</Badge> },
  { key: 'source', header: 'Server', render: (e) => e.source },
  { key: 'target', header: 'Target', render: (e) => e.target },
  { key: 'message', header: 'Message', render: (e) => e.message },
];

const filters: FilterField[] = [
  {
    name: 'level',
    label: 'Minimum level',
    kind: 'select',
    options: (Object.keys(LEVEL_COLORS) as Entry['level'][]).map((l) => ({ value: l, label: l })),
  },
  { name: 'target', label: 'Target contains', kind: 'text' },
  { name: 'q', label: 'Message contains', kind: 'text' },
  ...TIME_RANGE_FILTERS,
];

/** Both servers' structured application logs (GET /api/admin/app-logs). */
export function AppLogsPage() {
  return (
    <LogView
      title="App logs"
      description="Structured logs of the gateway and the console, newest first. A level lists that level and above."
      queryKey="app-logs"
      filters={filters}
      columns={columns}
      fetchPage={(query) => unwrap(api.GET('/api/admin/app-logs', { params: { query: query as Query } }))}
      rowKey={(e) => e.id}
      drawerTitle={(e) => `${e.level} ${e.target}`}
    />
  );
}
