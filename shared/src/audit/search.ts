import * as z from 'zod';
import {
  type AuditLogRow,
  type AuditSearchFilter,
  countAuditLog,
  findAuditLog,
} from '../db/repos/audit-search-repo';
import type { QueryDb } from '../db/types';

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 1000;

/** An instant with an explicit zone, or a date (00:00 UTC of that day). */
const isoInstant = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be a valid ISO 8601 date or date-time');

/** GET /api/audit/logs query; a limit above the maximum is refused (422), not clamped. */
export const auditQuerySchema = z
  .object({
    q: z.string().max(256).optional(),
    from: isoInstant.optional(),
    to: isoInstant.optional(),
    limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(AUDIT_PAGE_DEFAULT),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .refine((v) => !v.from || !v.to || Date.parse(v.from) <= Date.parse(v.to), {
    path: ['from'],
    message: 'must not be after to',
  });
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export interface AuditEntry {
  id: string;
  timestamp: string;
  user_id: string | null;
  user_email: string | null;
  action: string;
  resource_type: string | null;
  resource_id: string | null;
  details: Record<string, unknown>;
  ip_address: string | null;
  user_agent: string | null;
}

export interface AuditPage {
  total: number;
  offset: number;
  limit: number;
  entries: AuditEntry[];
}

export function toAuditEntry(row: AuditLogRow): AuditEntry {
  return {
    id: row.id,
    timestamp: row.createdAt.toISOString(),
    user_id: row.userId,
    user_email: row.userEmail,
    action: row.action,
    resource_type: row.resourceType,
    resource_id: row.resourceId,
    details: row.details,
    ip_address: row.ipAddress,
    user_agent: row.userAgent,
  };
}

export const PLATFORM_LOG_PAGE_MAX = 200;

/**
 * The audit trail records management operations and authentication (auth.login,
 * auth.login_failed, auth.register, key.create, provider.delete…). The platform log is its
 * management operations only: every change made to the platform's users, keys, providers,
 * models, MCP servers, limits and settings, by whom, without the sign-ins, which would
 * outnumber them. Authentication actions are the ones under this prefix.
 */
export const AUTHENTICATION_ACTION_PREFIX = 'auth.';

/**
 * GET /api/admin/platform-logs: the management operations of the audit trail (no `auth.*`
 * action) with exact filters (user_id, action, resource = the resource type, resource_id),
 * paged like the other log views (default 50, max 200; above → 422).
 */
export const platformLogQuerySchema = z
  .object({
    user_id: z.uuid().optional(),
    action: z.string().min(1).max(128).optional(),
    resource: z.string().min(1).max(128).optional(),
    resource_id: z.string().min(1).max(256).optional(),
    from: isoInstant.optional(),
    to: isoInstant.optional(),
    limit: z.coerce.number().int().min(1).max(PLATFORM_LOG_PAGE_MAX).default(AUDIT_PAGE_DEFAULT),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .refine((v) => !v.from || !v.to || Date.parse(v.from) <= Date.parse(v.to), {
    path: ['from'],
    message: 'must not be after to',
  });
export type PlatformLogQuery = z.infer<typeof platformLogQuerySchema>;

export function searchPlatformLog(db: QueryDb, query: PlatformLogQuery): Promise<AuditPage> {
  return searchAuditLog(db, {
    ...query,
    userId: query.user_id,
    resourceType: query.resource,
    resourceId: query.resource_id,
    excludeActionPrefix: AUTHENTICATION_ACTION_PREFIX,
  });
}

/** Postgres is the source of truth for audit search; the ClickHouse mirror is for analytics. */
export async function searchAuditLog(
  db: QueryDb,
  query: Pick<AuditQuery, 'limit' | 'offset' | 'from' | 'to'> &
    Partial<Pick<AuditQuery, 'q'>> &
    Pick<AuditSearchFilter, 'userId' | 'action' | 'resourceType' | 'resourceId' | 'excludeActionPrefix'>,
): Promise<AuditPage> {
  const filter: AuditSearchFilter = {
    q: query.q,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
    userId: query.userId,
    action: query.action,
    resourceType: query.resourceType,
    resourceId: query.resourceId,
    excludeActionPrefix: query.excludeActionPrefix,
  };
  const [total, rows] = await Promise.all([
    countAuditLog(db, filter),
    findAuditLog(db, filter, { limit: query.limit, offset: query.offset }),
  ]);
  return { total, offset: query.offset, limit: query.limit, entries: rows.map(toAuditEntry) };
}
