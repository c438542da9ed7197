import { api, unwrap } from '../../api/client';
import type { QueryParams } from '../../api/types';
import { AUDIT_COLUMNS } from './audit-columns';
import { TIME_RANGE_FILTERS } from './filter-fields';
import { type FilterField, LogView } from './LogView';

const filters: FilterField[] = [
  { name: 'q', label: 'Search', kind: 'text', placeholder: 'Words or prefixes, e.g. key.revoke' },
  ...TIME_RANGE_FILTERS,
];

/** Full-text search over the audit trail (GET /api/audit/logs). */
export function AuditLogsPage() {
  return (
    <LogView
      title="Audit logs"
      description="The whole audit trail: every management action and every sign-in (successful or not), newest first. Search matches words of the action, resource, user email and details. The platform logs list the management actions alone."
      queryKey="audit-logs"
      filters={filters}
      columns={AUDIT_COLUMNS}
      fetchPage={(query) =>
        unwrap(
          api.GET('/api/audit/logs', { params: { query: query as QueryParams<'/api/audit/logs', 'get'> } }),
        )
      }
      rowKey={(e) => e.id}
      drawerTitle={(e) => e.action}
      pageSizes={[25, 50, 100, 200, 500, 1000]}
    />
  );
}
