import { and, count, desc, eq, ilike, ne, or, type SQL, sql } from 'drizzle-orm';
import * as z from 'zod';
import { containsPattern } from '../db/contains';
import { fetchPage, type Page, pageOf, pageQuerySchema } from '../db/paging';
import { API_KEY_STATUSES, apiKeys, users } from '../db/schema';
import type { QueryDb } from '../db/types';
import { type KeyView, toKeyView } from './views';

/** GET /api/admin/keys: every user's keys, for an admin picking one (limits, audits). */
export const adminKeyListQuerySchema = pageQuerySchema.extend({
  user_id: z.uuid().optional(),
  status: z.enum(API_KEY_STATUSES).optional(),
  /** Case-insensitive substring of the key's name, its prefix or its owner's email. */
  q: z.string().min(1).max(200).optional(),
});
export type AdminKeyListQuery = z.infer<typeof adminKeyListQuerySchema>;

export type AdminKeyView = KeyView & { user_id: string; owner_email: string };

export type AdminKeyPage = Page<AdminKeyView>;

/**
 * The owners' emails are matched first, into an array: `user_id = any(array(...))` is an index
 * condition, so the three matches combine as one bitmap over the trigram and owner indexes
 * instead of a join filtered row by row.
 */
function matching(q: string): SQL | undefined {
  // ILIKE matches literally: the user's %, _ and \ are not wildcards.
  const pattern = containsPattern(q);
  const owners = sql`${apiKeys.userId} = any(array(select ${users.id} from ${users} where ${ilike(users.email, pattern)}))`;
  return or(ilike(apiKeys.name, pattern), ilike(apiKeys.prefix, pattern), owners);
}

/** Newest first, ties by id (the api_keys_created_idx order); revoked keys only when asked for by status. */
export async function listAllKeys(db: QueryDb, query: AdminKeyListQuery): Promise<AdminKeyPage> {
  const where = and(
    query.user_id === undefined ? undefined : eq(apiKeys.userId, query.user_id),
    query.status === undefined ? ne(apiKeys.status, 'revoked') : eq(apiKeys.status, query.status),
    query.q === undefined ? undefined : matching(query.q),
  );
  // A search's matches are collected first (the indexes, as the count finds them), then sorted:
  // filtered as it is, the newest-first walk would read every key when few match.
  const pageWhere =
    query.q === undefined
      ? where
      : sql`${apiKeys.id} = any(array(${db.select({ id: apiKeys.id }).from(apiKeys).where(where)}))`;
  const { rows, total } = await fetchPage(
    query,
    db
      .select({ key: apiKeys, ownerEmail: users.email })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(pageWhere)
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)),
    db.select({ total: count() }).from(apiKeys).where(where),
  );
  const entries = rows.map(({ key, ownerEmail }) => ({
    ...toKeyView(key),
    user_id: key.userId,
    owner_email: ownerEmail,
  }));
  return pageOf(query, total, entries);
}
