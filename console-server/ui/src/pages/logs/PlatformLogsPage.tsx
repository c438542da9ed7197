import { api, unwrap } from '../../api/client';
import type { QueryParams } from '../../api/types';
import { AUDIT_COLUMNS } from './audit-columns';
import { useUserDirectory } from './directory';
import { TIME_RANGE_FILTERS, userFilter } from './filter-fields';
import { type FilterField, LogView } from './LogView';

type Query = QueryParams<'/api/admin/platform-logs', 'get'>;

/** The management operations of the audit trail, without sign-ins (GET /api/admin/platform-logs). */
export function PlatformLogsPage() {
  const users = useUserDirectory();
  const filters: FilterField[] = [
    { name: 'action', label: 'Action', kind: 'text', placeholder: 'e.g. key.revoke' },
    { name: 'resource', label: 'Resource type', kind: 'text', placeholder: 'e.g. api_key' },
    { name: 'resource_id', label: 'Resource id', kind: 'text' },
    userFilter(users),
    ...TIME_RANGE_FILTERS,
  ];
  return (
    <LogView
      title="Platform logs"
      description="Changes made to the platform — users, keys, providers, models, MCP servers, limits, settings — and who made them, with exact filters, newest first. Sign-ins are in the audit logs only."
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
