import { api, unwrap } from '../../api/client';
import type { QueryParams } from '../../api/types';
import { AUDIT_COLUMNS } from './audit-columns';
import { type FilterField, LogView } from './LogView';

type Query = QueryParams<'/api/admin/platform-logs', 'get'>;

const filters: FilterField[] = [
  { name: 'action', label: 'Action', kind: 'text', placeholder: 'e.g. key.revoke' },
  { name: 'resource', label: 'Resource type', kind: 'text', placeholder: 'e.g. api_key' },
  { name: 'resource_id', label: 'Resource id', kind: 'text' },
  { name: 'user_id', label: 'User id', kind: 'text' },
  { name: 'from', label: 'From', kind: 'datetime' },
  { name: 'to', label: 'To', kind: 'datetime' },
];

/** The audit trail with exact filters (GET /api/admin/platform-logs). */
export function PlatformLogsPage() {
  return (
    <LogView
      title="Platform logs"
      description="Platform actions with exact filters, newest first."
      queryKey="platform-logs"
      filters={filters}
      columns={AUDIT_COLUMNS}
      fetchPage={(query) =>
        unwrap(api.GET('/api/admin/platform-logs', { params: { query: query as Query } }))
      }
      rowKey={(e) => e.id}
      drawerTitle={(e) => e.action}
    />
  );
}
