import { and, asc, desc, eq, gte, lte, notLike, type SQL, sql } from 'drizzle-orm';
import { auditLog } from '../schema';
import type { QueryDb } from '../types';

export type AuditLogRow = typeof auditLog.$inferSelect;

export interface AuditSearchFilter {
  /** Raw user text; see searchCondition for how it matches. */
  q?: string;
  from?: Date;
  to?: Date;
  /** Exact matches (the platform-logs view). */
  userId?: string;
  action?: string;
  resourceType?: string;
  resourceId?: string;
  /** Leaves out the actions starting with this (the platform log leaves out `auth.`). */
  excludeActionPrefix?: string;
}

/**
 * The exact expression of the GIN index audit_log_search_idx: Postgres uses the index only
 * when the query repeats it, so keep the two identical.
 */
const searchVector = sql`to_tsvector('simple', ${auditLog.action} || ' ' || coalesce(${auditLog.resourceType}, '') || ' ' || coalesce(${auditLog.resourceId}, '') || ' ' || coalesce(${auditLog.userEmail}, '') || ' ' || ${auditLog.details}::text)`;

/**
 * A row matches when all of q's words appear as words (plainto_tsquery) or when every
 * whitespace-separated part of q is the start of a word: "ada@exa" finds ada@example.com,
 * which the parser keeps as one word. Both are tsqueries, so the GIN index serves both.
 */
function searchCondition(q: string): SQL {
  const prefix = prefixTsQuery(q);
  const query = prefix
    ? sql`(plainto_tsquery('simple', ${q}) || ${prefix}::tsquery)`
    : sql`plainto_tsquery('simple', ${q})`;
  return sql`${searchVector} @@ ${query}`;
}

/** `'word':* & ...` in tsquery syntax, each word quoted so operators in q stay literal. */
export function prefixTsQuery(q: string): string | null {
  const words = q.toLowerCase().split(/\s+/u).filter(Boolean);
  if (words.length === 0) return null;
  return words.map((w) => `'${w.replaceAll('\\', '\\\\').replaceAll("'", "''")}':*`).join(' & ');
}

/** Exported for the test that checks the GIN index serves it. */
export function auditSearchWhere(filter: AuditSearchFilter): SQL | undefined {
  const q = filter.q?.trim();
  return and(
    q ? searchCondition(q) : undefined,
    filter.from ? gte(auditLog.createdAt, filter.from) : undefined,
    filter.to ? lte(auditLog.createdAt, filter.to) : undefined,
    filter.userId ? eq(auditLog.userId, filter.userId) : undefined,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.resourceType ? eq(auditLog.resourceType, filter.resourceType) : undefined,
    filter.resourceId ? eq(auditLog.resourceId, filter.resourceId) : undefined,
    filter.excludeActionPrefix
      ? notLike(auditLog.action, `${filter.excludeActionPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
      : undefined,
  );
}

export async function countAuditLog(db: QueryDb, filter: AuditSearchFilter): Promise<number> {
  const [row] = await db.select({ n: sql<string>`count(*)` }).from(auditLog).where(auditSearchWhere(filter));
  return Number(row?.n ?? 0);
}

/** Newest first; id breaks ties between records of one transaction (same created_at). */
export async function findAuditLog(
  db: QueryDb,
  filter: AuditSearchFilter,
  page: { limit: number; offset: number },
): Promise<AuditLogRow[]> {
  return db
    .select()
    .from(auditLog)
    .where(auditSearchWhere(filter))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** Position in audit_log order (created_at, id); id null means "from ts on, inclusive". */
export interface AuditCursor {
  /** Postgres text of created_at, so microseconds survive the round trip. */
  ts: string;
  id: string | null;
}

/**
 * Oldest-first rows after the cursor, for copying elsewhere. Rows younger than settleMs are
 * left for later: created_at is the writing transaction's start, so a transaction still open
 * can commit rows older than ones already visible, and the wait lets it finish first.
 */
export async function listAuditAfter(
  db: QueryDb,
  cursor: AuditCursor | null,
  options: { limit: number; settleMs: number },
): Promise<Array<{ row: AuditLogRow; cursor: AuditCursor }>> {
  const after = cursor
    ? cursor.id
      ? sql`(${auditLog.createdAt}, ${auditLog.id}) > (${cursor.ts}::timestamptz, ${cursor.id}::uuid)`
      : gte(auditLog.createdAt, sql`${cursor.ts}::timestamptz`)
    : undefined;
  const settled = sql`${auditLog.createdAt} < now() - make_interval(secs => ${options.settleMs / 1000})`;
  const rows = await db
    .select({ row: auditLog, ts: sql<string>`${auditLog.createdAt}::text` })
    .from(auditLog)
    .where(and(settled, after))
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id))
    .limit(options.limit);
  return rows.map(({ row, ts }) => ({ row, cursor: { ts, id: row.id } }));
}
