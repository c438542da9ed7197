import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { UpstreamOAuthStore } from '../../mcp/oauth/ports';
import { accessTokenRecord, openAccessTokenRecord } from '../../mcp/oauth/token-record';
import type { SecretBox } from '../../secrets/secret-box';
import { fetchPage, type PageQuery } from '../paging';
import { mcpOAuthClients, mcpServers, mcpUserTokens } from '../schema';
import type { QueryDb } from '../types';

/** Upstream OAuth clients and each user's tokens, in Postgres; secrets sealed with `secrets`. */
export function upstreamOAuthStore(db: QueryDb, secrets: SecretBox): UpstreamOAuthStore {
  const seal = (value: string | null) => (value === null ? null : secrets.encrypt(value));
  const open = (value: string | null) => (value === null ? null : secrets.decrypt(value));
  return {
    async client(serverId) {
      const [row] = await db.select().from(mcpOAuthClients).where(eq(mcpOAuthClients.serverId, serverId));
      if (!row) return null;
      const { clientSecretEncrypted, createdAt: _created, ...rest } = row;
      return { ...rest, clientSecret: await open(clientSecretEncrypted) };
    },
    async saveClient({ clientSecret, ...client }) {
      const values = { ...client, clientSecretEncrypted: await seal(clientSecret) };
      await db
        .insert(mcpOAuthClients)
        .values(values)
        .onConflictDoUpdate({ target: mcpOAuthClients.serverId, set: values });
    },
    async tokens(serverId, userId) {
      const [row] = await db
        .select()
        .from(mcpUserTokens)
        .where(and(eq(mcpUserTokens.serverId, serverId), eq(mcpUserTokens.userId, userId)));
      if (!row) return null;
      return {
        ...openAccessTokenRecord((await open(row.accessTokenEncrypted)) as string),
        refreshToken: await open(row.refreshTokenEncrypted),
        idToken: await open(row.idTokenEncrypted),
        expiresAt: row.expiresAt,
      };
    },
    async saveTokens(serverId, userId, tokens) {
      const values = {
        // The DPoP key, if any, is sealed inside the access token's record.
        accessTokenEncrypted: (await seal(accessTokenRecord(tokens))) as string,
        refreshTokenEncrypted: await seal(tokens.refreshToken),
        idTokenEncrypted: await seal(tokens.idToken ?? null),
        expiresAt: tokens.expiresAt,
        updatedAt: sql`now()`,
      };
      await db
        .insert(mcpUserTokens)
        .values({ serverId, userId, ...values })
        .onConflictDoUpdate({ target: [mcpUserTokens.serverId, mcpUserTokens.userId], set: values });
    },
    async deleteTokens(serverId, userId) {
      const rows = await db
        .delete(mcpUserTokens)
        .where(and(eq(mcpUserTokens.serverId, serverId), eq(mcpUserTokens.userId, userId)))
        .returning({ serverId: mcpUserTokens.serverId });
      return rows.length > 0;
    },
  };
}

/** A page of the servers each user connects to on their own (by name), and whether this user has. */
export function listUserConnections(db: QueryDb, userId: string, page: PageQuery) {
  const where = and(
    inArray(mcpServers.authType, ['oauth', 'oauth_token_exchange']),
    eq(mcpServers.isActive, true),
  );
  const query = db
    .select({
      serverId: mcpServers.id,
      serverName: mcpServers.name,
      endpointUrl: mcpServers.endpointUrl,
      authType: mcpServers.authType,
      connectedAt: mcpUserTokens.createdAt,
      expiresAt: mcpUserTokens.expiresAt,
    })
    .from(mcpServers)
    .leftJoin(mcpUserTokens, and(eq(mcpUserTokens.serverId, mcpServers.id), eq(mcpUserTokens.userId, userId)))
    .where(where)
    .orderBy(asc(mcpServers.name));
  return fetchPage(page, query, db.select({ total: count() }).from(mcpServers).where(where));
}
