import type { OAuthKv } from '../../auth/oauth/ports';
import type { DpopKey } from './dpop';

/** The client Sluice registered at an upstream's authorization server (one per server). */
export interface UpstreamClient {
  serverId: string;
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  clientId: string;
  clientSecret: string | null;
  /** The resource tokens are for (RFC 8707): as the server's metadata names it, else its URL. */
  resource: string;
  scope: string | null;
  tokenAuthMethod: 'none' | 'client_secret_basic' | 'client_secret_post';
  /** The authorization server puts `iss` in its responses (RFC 9207): it must be there and match. */
  issSupported: boolean;
}

/** A user's tokens for one server, opened. */
export interface UpstreamTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  /** The connection's DPoP key, when its authorization server takes proofs: every token request carries one. */
  dpopKey?: DpopKey | null;
  /** DPoP: the access token is bound to dpopKey (sent as `Authorization: DPoP` with a proof); else Bearer. */
  tokenType?: 'Bearer' | 'DPoP';
  /** auth_type oauth_token_exchange: the user's ID token, exchanged for the next access token. */
  idToken?: string | null;
}

export interface UpstreamOAuthStore {
  client(serverId: string): Promise<UpstreamClient | null>;
  saveClient(client: UpstreamClient): Promise<void>;
  tokens(serverId: string, userId: string): Promise<UpstreamTokens | null>;
  saveTokens(serverId: string, userId: string, tokens: UpstreamTokens): Promise<void>;
  deleteTokens(serverId: string, userId: string): Promise<boolean>;
}

export interface UpstreamOAuthDeps {
  store: UpstreamOAuthStore;
  kv: OAuthKv;
  fetch: typeof fetch;
  /** The console's callback, registered as the redirect URI. */
  callbackUrl: string;
  /** Sluice's client ID metadata document (https only); null: register instead. */
  clientMetadataUrl: string | null;
  now(): Date;
}
