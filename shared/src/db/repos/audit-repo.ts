import { auditLog } from '../schema';
import type { QueryDb } from '../types';

export interface AuditRecord {
  action: string;
  userId?: string | null;
  userEmail?: string | null;
  resourceType?: string | null;
  resourceId?: string | null;
  details?: Record<string, unknown>;
  ipAddress?: string | null;
  userAgent?: string | null;
}

/** Written with the same `db` (or transaction) as the change it records. */
export async function writeAudit(db: QueryDb, record: AuditRecord): Promise<void> {
  await db.insert(auditLog).values({
    action: record.action,
    userId: record.userId ?? null,
    userEmail: record.userEmail ?? null,
    resourceType: record.resourceType ?? null,
    resourceId: record.resourceId ?? null,
    details: record.details ?? {},
    ipAddress: record.ipAddress ?? null,
    userAgent: record.userAgent ?? null,
  });
}
