import type { ApiKeyAuthRecord } from '../../db/repos/api-keys-repo';
import { unauthorized } from '../../http/app-error';
import { type Background, detached } from '../../util/background';
import { hashPresentedKey, looksLikeApiKey } from '../api-keys/api-key';
import { refuseKey } from '../api-keys/key-state';
import { type JwtSigner, looksLikeJwt } from '../console/jwt';
import type { Principal } from './principal';

export const INVALID_CREDENTIALS = 'Missing or invalid API key';

export interface GatewayAuthDeps {
  /** May schedule work (a cache fill) through `background` instead of awaiting it. */
  findKeyByHash(hash: string, background: Background): Promise<ApiKeyAuthRecord | undefined>;
  jwt: JwtSigner;
  now(): Date;
  /** Persists the disabled state of a key found inactive (run in the background). */
  disableInactiveKey?(keyId: string, now: Date): Promise<unknown>;
  /**
   * Records a use of the key for last_used_at (run in the background, coalesced); null when
   * there is nothing to record (a use this isolate recorded a moment ago).
   */
  recordKeyUse?(keyId: string, now: Date): Promise<unknown> | null;
  /**
   * Makes sure the isolate's key records are current before one is used (reads the cache
   * versions). Skipped where the request's own admission round trip checks them (the model
   * endpoints), so the hot path pays nothing for it.
   */
  refreshVersions?(): Promise<void>;
}

export interface AuthOptions {
  allowJwt: boolean;
  /** False for calls that must not count as a use of the key (GET /v1/usage). Default true. */
  countsAsUse?: boolean;
  /** True where the admission round trip checks the key's version afterwards. Default false. */
  checkedByAdmission?: boolean;
  /** An OAuth access token's user (/mcp, auth/oauth/resource-server.ts); null when it is not one. */
  accessToken?(token: string): Promise<Principal | null>;
}

/** Resolves an Authorization header to a principal, or throws the gateway's 401. */
export async function authenticateGatewayRequest(
  deps: GatewayAuthDeps,
  authorization: string | undefined,
  options: AuthOptions,
  background: Background = detached,
): Promise<Principal> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!token) throw unauthorized(INVALID_CREDENTIALS);
  if (looksLikeApiKey(token)) return authenticateKey(deps, token, options, background);
  if (options.accessToken && looksLikeJwt(token)) {
    const principal = await options.accessToken(token);
    if (principal) return principal;
  }
  if (options.allowJwt && looksLikeJwt(token)) {
    const claims = await deps.jwt.verifyAccess(token);
    if (claims) return { kind: 'user', userId: claims.userId, role: claims.role };
  }
  throw unauthorized(INVALID_CREDENTIALS);
}

async function authenticateKey(
  deps: GatewayAuthDeps,
  key: string,
  options: AuthOptions,
  background: Background,
): Promise<Principal> {
  const hash = await hashPresentedKey(key);
  if (!options.checkedByAdmission) await deps.refreshVersions?.();
  const record = await deps.findKeyByHash(hash, background);
  if (!record) throw unauthorized(INVALID_CREDENTIALS);
  const now = deps.now();
  const refusal = refuseKey(record, hash, now);
  if (refusal) {
    // Inactivity is noticed here first; persisting it makes the console show the key disabled
    // without waiting for the periodic sweep.
    if (refusal === 'inactive' && deps.disableInactiveKey)
      background(deps.disableInactiveKey(record.id, now));
    throw unauthorized(INVALID_CREDENTIALS);
  }
  const use = options.countsAsUse === false ? null : (deps.recordKeyUse?.(record.id, now) ?? null);
  if (use) background(use);
  return {
    kind: 'api_key',
    keyId: record.id,
    userId: record.userId,
    role: record.userRole,
    allowedModels: record.allowedModels,
    rateLimitRpm: record.rateLimitRpm,
    expiresAt: record.expiresAt,
    gracePeriodEndsAt: record.gracePeriodEndsAt,
  };
}
