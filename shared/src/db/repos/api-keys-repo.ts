import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { fetchPage, type PageQuery } from '../paging';
import { apiKeys, auditLog, users } from '../schema';
import type { QueryDb } from '../types';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export interface ApiKeyAuthRecord {
  id: string;
  userId: string;
  userRole: (typeof users.$inferSelect)['role'];
  userActive: boolean;
  keyHash: string;
  previousKeyHash: string | null;
  status: (typeof apiKeys.$inferSelect)['status'];
  allowedModels: string[] | null;
  rateLimitRpm: number | null;
  expiresAt: Date | null;
  gracePeriodEndsAt: Date | null;
  lastUsedAt: Date | null;
  inactivityTimeoutDays: number | null;
  createdAt: Date;
}

/** One indexed lookup matching the current value or the value replaced by the last rotation. */
export async function findApiKeyForAuth(db: QueryDb, hash: string): Promise<ApiKeyAuthRecord | undefined> {
  const [row] = await db
    .select({
      id: apiKeys.id,
      userId: apiKeys.userId,
      userRole: users.role,
      userActive: users.isActive,
      keyHash: apiKeys.keyHash,
      previousKeyHash: apiKeys.previousKeyHash,
      status: apiKeys.status,
      allowedModels: apiKeys.allowedModels,
      rateLimitRpm: apiKeys.rateLimitRpm,
      expiresAt: apiKeys.expiresAt,
      gracePeriodEndsAt: apiKeys.gracePeriodEndsAt,
      lastUsedAt: apiKeys.lastUsedAt,
      inactivityTimeoutDays: apiKeys.inactivityTimeoutDays,
      createdAt: apiKeys.createdAt,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(or(eq(apiKeys.keyHash, hash), eq(apiKeys.previousKeyHash, hash)))
    .limit(1);
  return row;
}

export async function insertApiKeyRow(db: QueryDb, values: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [row] = await db.insert(apiKeys).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/**
 * A key of this owner that has not been revoked. Revoked keys are gone as far as the API is
 * concerned; their rows stay for audit and usage history. `forUpdate` locks the row for the
 * rest of the caller's transaction.
 */
export async function findOwnedKey(
  db: QueryDb,
  userId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ApiKeyRow | undefined> {
  const query = db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), ne(apiKeys.status, 'revoked')))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

/** A page of the owner's keys (not revoked), newest first, ties by id: the api_keys_user_created_idx order. */
export async function listOwnedKeys(
  db: QueryDb,
  userId: string,
  page: PageQuery,
): Promise<{ rows: ApiKeyRow[]; total: number }> {
  const where = and(eq(apiKeys.userId, userId), ne(apiKeys.status, 'revoked'));
  return fetchPage(
    page,
    db.select().from(apiKeys).where(where).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)),
    db.select({ total: count() }).from(apiKeys).where(where),
  );
}

export async function updateKeyRow(
  db: QueryDb,
  id: string,
  set: PgUpdateSetSource<typeof apiKeys>,
): Promise<ApiKeyRow> {
  const [row] = await db.update(apiKeys).set(set).where(eq(apiKeys.id, id)).returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

export interface ExpiringKeyRow {
  id: string;
  name: string;
  prefix: string;
  expiresAt: Date;
  ownerEmail: string;
}

/**
 * When a key stops working: its expiry, or, after an automatic rotation left it without an
 * issued value, the end of the grace period of the value its consumers still use.
 */
const stopsWorkingAt = sql<Date>`case when ${apiKeys.keyHash} like 'unissued:%' and ${apiKeys.gracePeriodEndsAt} is not null
  then least(coalesce(${apiKeys.expiresAt}, 'infinity'::timestamptz), ${apiKeys.gracePeriodEndsAt})
  else ${apiKeys.expiresAt} end`;

/** A page of the owner's active keys that stop working in (now, until], soonest first, ties by id. */
export async function listExpiringOwnedKeys(
  db: QueryDb,
  userId: string,
  window: { now: Date; until: Date },
  page: PageQuery,
): Promise<{ rows: ExpiringKeyRow[]; total: number }> {
  const where = and(
    eq(apiKeys.userId, userId),
    eq(apiKeys.status, 'active'),
    isNotNull(stopsWorkingAt),
    gt(stopsWorkingAt, window.now),
    lte(stopsWorkingAt, window.until),
  );
  const { rows, total } = await fetchPage(
    page,
    db
      .select({
        id: apiKeys.id,
        name: apiKeys.name,
        prefix: apiKeys.prefix,
        expiresAt: stopsWorkingAt.mapWith(apiKeys.expiresAt),
        ownerEmail: users.email,
      })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(where)
      .orderBy(asc(stopsWorkingAt), asc(apiKeys.id)),
    db.select({ total: count() }).from(apiKeys).where(where),
  );
  return { rows: rows.map((r) => ({ ...r, expiresAt: r.expiresAt as Date })), total };
}

export interface KeyHashes {
  id: string;
  keyHash: string;
  previousKeyHash: string | null;
}

/** Ids and both hashes of the keys matching `where`: what a cache invalidation needs. */
export function selectKeyHashes(db: QueryDb, where: SQL | undefined, limit: number): Promise<KeyHashes[]> {
  return db
    .select({ id: apiKeys.id, keyHash: apiKeys.keyHash, previousKeyHash: apiKeys.previousKeyHash })
    .from(apiKeys)
    .where(where)
    .orderBy(asc(apiKeys.id))
    .limit(limit);
}

export interface KeyAuditSpec {
  action: string;
  details: Record<string, unknown>;
  now: Date;
}

/**
 * Applies `set` to the keys matching `where` and writes one audit row per changed key, all in
 * one statement (a data-modifying CTE), so it stays atomic on the gateway's HTTP driver too,
 * which has no interactive transactions. The audit subject is the key's owner.
 */
export async function updateKeysAudited(
  db: QueryDb,
  change: { where: SQL | undefined; set: PgUpdateSetSource<typeof apiKeys> },
  audit: KeyAuditSpec,
): Promise<string[]> {
  const at = audit.now.toISOString();
  const changed = db
    .$with('changed')
    .as(
      db
        .update(apiKeys)
        .set(change.set)
        .where(change.where)
        .returning({ id: apiKeys.id, userId: apiKeys.userId }),
    );
  // insert … select matches columns by position, so every audit_log column is listed in order.
  const audited = db.$with('audited').as(
    db
      .insert(auditLog)
      .select((qb) =>
        qb
          .select({
            id: sql`gen_random_uuid()`.as('id'),
            createdAt: sql`${at}::timestamptz`.as('created_at'),
            userId: changed.userId,
            userEmail: users.email,
            action: sql`${audit.action}::text`.as('action'),
            resourceType: sql`'api_key'::text`.as('resource_type'),
            resourceId: sql`${changed.id}::text`.as('resource_id'),
            details: sql`${JSON.stringify(audit.details)}::jsonb`.as('details'),
            ipAddress: sql`null::text`.as('ip_address'),
            userAgent: sql`null::text`.as('user_agent'),
          })
          .from(changed)
          .innerJoin(users, eq(users.id, changed.userId)),
      )
      .returning({ id: auditLog.id }),
  );
  const rows = await db.with(changed, audited).select({ id: changed.id }).from(changed);
  return rows.map((r) => r.id);
}

/** Every hash (current and previous) of one owner's keys, for invalidating after owner changes. */
export function selectOwnerKeyHashes(db: QueryDb, userId: string): Promise<KeyHashes[]> {
  return selectKeyHashes(db, eq(apiKeys.userId, userId), 10_000);
}

/** Moves last_used_at forward only; a late write never moves it back. */
export async function touchLastUsed(db: QueryDb, id: string, now: Date): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, now))));
}
