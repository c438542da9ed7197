import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { ClientStore, OAuthClient } from '../../auth/oauth/clients';
import type { GrantRecord, GrantStore, OAuthUsers } from '../../auth/oauth/ports';
import { fetchPage, type PageQuery } from '../paging';
import { oauthClients, oauthGrants, users } from '../schema';
import type { QueryDb } from '../types';

/** The authorization server's stores in Postgres: clients, grants, and who may sign in. */
export function oauthClientStore(db: QueryDb): ClientStore {
  return {
    async find(clientId) {
      const [row] = await db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId));
      return row ? { ...row, redirectUris: row.redirectUris } : null;
    },
    async save(client: OAuthClient) {
      const values = { ...client };
      await db
        .insert(oauthClients)
        .values(values)
        .onConflictDoUpdate({
          target: oauthClients.clientId,
          set: {
            clientName: client.clientName,
            redirectUris: client.redirectUris,
            fetchedAt: client.fetchedAt,
          },
        });
    },
  };
}

export function oauthGrantStore(db: QueryDb): GrantStore {
  return {
    async create(grant) {
      const [row] = await db.insert(oauthGrants).values(grant).returning();
      if (!row) throw new Error('grant not created');
      return row;
    },
    async find(id) {
      const [row] = await db.select().from(oauthGrants).where(eq(oauthGrants.id, id));
      return row ?? null;
    },
    async rotate(id, expected, next, now) {
      const current =
        expected === null ? isNull(oauthGrants.refreshHash) : eq(oauthGrants.refreshHash, expected);
      const rows = await db
        .update(oauthGrants)
        .set({ refreshHash: next, previousRefreshHash: expected, lastUsedAt: now })
        .where(and(eq(oauthGrants.id, id), isNull(oauthGrants.revokedAt), current))
        .returning({ id: oauthGrants.id });
      return rows.length === 1;
    },
    async revoke(id, reason, now) {
      const rows = await db
        .update(oauthGrants)
        .set({ revokedAt: now, revokedReason: reason, refreshHash: null })
        .where(and(eq(oauthGrants.id, id), isNull(oauthGrants.revokedAt)))
        .returning({ id: oauthGrants.id });
      return rows.length === 1;
    },
  };
}

export function oauthUsers(db: QueryDb): OAuthUsers {
  return {
    async active(userId) {
      const [row] = await db
        .select({ role: users.role, isActive: users.isActive })
        .from(users)
        .where(eq(users.id, userId));
      return row?.isActive ? { role: row.role } : null;
    },
  };
}

/** A grant as the console lists it, with its user's email. */
export interface GrantListing extends Omit<GrantRecord, 'refreshHash' | 'previousRefreshHash'> {
  userEmail: string;
  revokedReason: string | null;
}

/** A page of grants: active first, newest first, ties by id; one user's, or everyone's (userId null). */
export function listGrants(
  db: QueryDb,
  userId: string | null,
  page: PageQuery,
): Promise<{ rows: GrantListing[]; total: number }> {
  const where = userId === null ? undefined : eq(oauthGrants.userId, userId);
  const query = db
    .select({
      id: oauthGrants.id,
      userId: oauthGrants.userId,
      userEmail: users.email,
      clientId: oauthGrants.clientId,
      clientName: oauthGrants.clientName,
      resource: oauthGrants.resource,
      scope: oauthGrants.scope,
      createdAt: oauthGrants.createdAt,
      lastUsedAt: oauthGrants.lastUsedAt,
      revokedAt: oauthGrants.revokedAt,
      revokedReason: oauthGrants.revokedReason,
    })
    .from(oauthGrants)
    .innerJoin(users, eq(users.id, oauthGrants.userId))
    .where(where)
    .orderBy(sql`${oauthGrants.revokedAt} is not null`, desc(oauthGrants.createdAt), desc(oauthGrants.id));
  return fetchPage(page, query, db.select({ total: count() }).from(oauthGrants).where(where));
}
