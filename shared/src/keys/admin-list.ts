import { and, count, desc, eq, ilike, ne, or, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import { API_KEY_STATUSES, apiKeys, users } from '../db/schema';
import type { QueryDb } from '../db/types';
import { type KeyView, toKeyView } from './views';

export const ADMIN_KEY_PAGE_MAX = 200;

/** GET /api/admin/keys: every user's keys, for an admin picking one (limits, audits). */
export const adminKeyListQuerySchema = z.object({
  user_id: z.uuid().optional(),
  status: z.enum(API_KEY_STATUSES).optional(),
  /** Case-insensitive substring of the key's name, its prefix or its owner's email. */
  q: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(ADMIN_KEY_PAGE_MAX).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type AdminKeyListQuery = z.infer<typeof adminKeyListQuerySchema>;

export type AdminKeyView = KeyView & { user_id: string; owner_email: string };

export interface AdminKeyPage {
  total: number;
  offset: number;
  limit: number;
  entries: AdminKeyView[];
}

/** ILIKE matches literally: the user's %, _ and \ are not wildcards. */
function contains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Newest first, ties by id; revoked keys only when asked for by status. */
export async function listAllKeys(db: QueryDb, query: AdminKeyListQuery): Promise<AdminKeyPage> {
  const conditions: (SQL | undefined)[] = [
    query.user_id === undefined ? undefined : eq(apiKeys.userId, query.user_id),
    query.status === undefined ? ne(apiKeys.status, 'revoked') : eq(apiKeys.status, query.status),
    query.q === undefined
      ? undefined
      : or(
          ilike(apiKeys.name, contains(query.q)),
          ilike(apiKeys.prefix, contains(query.q)),
          ilike(users.email, contains(query.q)),
        ),
  ];
  const where = and(...conditions);
  const [rows, [counted]] = await Promise.all([
    db
      .select({ key: apiKeys, ownerEmail: users.email })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(where)
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ total: count() }).from(apiKeys).innerJoin(users, eq(users.id, apiKeys.userId)).where(where),
  ]);
  return {
    total: Number(counted?.total ?? 0),
    offset: query.offset,
    limit: query.limit,
    entries: rows.map(({ key, ownerEmail }) => ({
      ...toKeyView(key),
      user_id: key.userId,
      owner_email: ownerEmail,
    })),
  };
}
