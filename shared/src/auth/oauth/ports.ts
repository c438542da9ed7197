import type { UserRole } from '../../db/schema/users';
import type { McpAccessTokens } from './access-token';
import type { ClientStore, FetchDocument } from './clients';

/** Short-lived single-use records (pending consents, authorization codes): Redis. */
export interface OAuthKv {
  get(key: string): Promise<unknown>;
  set(key: string, value: string, options: { ex: number }): Promise<unknown>;
  /** The number of keys removed: a code is redeemed by whoever removes it. */
  del(key: string): Promise<number>;
}

export interface GrantRecord {
  id: string;
  userId: string;
  clientId: string;
  clientName: string;
  resource: string;
  scope: string;
  refreshHash: string | null;
  previousRefreshHash: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface GrantStore {
  create(
    grant: Pick<GrantRecord, 'userId' | 'clientId' | 'clientName' | 'resource' | 'scope'>,
  ): Promise<GrantRecord>;
  find(id: string): Promise<GrantRecord | null>;
  /** Replaces the refresh hash only if it still is `expected` (null: none yet); false otherwise. */
  rotate(id: string, expected: string | null, next: string, now: Date): Promise<boolean>;
  /** Revokes an active grant; false when there was none to revoke. */
  revoke(id: string, reason: string, now: Date): Promise<boolean>;
}

export interface OAuthUsers {
  /** null for a user that no longer exists or may not sign in. */
  active(userId: string): Promise<{ role: UserRole } | null>;
}

export interface OAuthServerDeps {
  issuer: string;
  /** The gateway's public URL; null when not configured (then any …/mcp[/name] resource is taken). */
  gatewayUrl: string | null;
  clients: ClientStore;
  fetchDocument: FetchDocument;
  kv: OAuthKv;
  grants: GrantStore;
  users: OAuthUsers;
  tokens: McpAccessTokens;
  now(): Date;
}
