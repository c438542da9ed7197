import type { Schemas } from '../../api/types';
import type { Column } from '../../components/DataTable';
import { formatLogTime } from '../../lib/format';

export type AuditEntry = Schemas['AuditEntry'];

/** Columns shared by the audit search and the platform log (the same records). */
export const AUDIT_COLUMNS: Column<AuditEntry>[] = [
  { key: 'timestamp', header: 'Time', render: (e) => formatLogTime(e.timestamp) },
  { key: 'action', header: 'Action', render: (e) => e.action },
  { key: 'user', header: 'User', render: (e) => e.user_email ?? e.user_id ?? '' },
  {
    key: 'resource',
    header: 'Resource',
    render: (e) => [e.resource_type, e.resource_id].filter(Boolean).join(' '),
  },
  { key: 'ip', header: 'IP', render: (e) => e.ip_address ?? '' },
];
