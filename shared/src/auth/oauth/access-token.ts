import { errors, jwtVerify, SignJWT } from 'jose';
import { USER_ROLES, type UserRole } from '../../db/schema/users';

/**
 * Access tokens Sluice's authorization server issues for /mcp (RFC 9068's shape): HS256 with
 * SLUICE_JWT_SECRET, which the gateway shares. `typ` and the audience set them apart from the
 * console's own tokens (typ access, aud sluice): neither is accepted where the other belongs.
 */
const ALGORITHM = 'HS256';
const TYPE = 'at+jwt';
export const MCP_SCOPE = 'mcp';
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

export interface McpAccessClaims {
  userId: string;
  role: UserRole;
  grantId: string;
  clientId: string;
  scope: string;
}

export interface McpTokenCheck {
  issuer: string;
  /** The resource the request is for: the token's audience must be exactly it (RFC 8707). */
  audience: string;
}

export interface McpAccessTokens {
  sign(claims: McpAccessClaims, issuer: string, audience: string): Promise<string>;
  /** null for a token that is not one of ours, expired, or for another issuer or resource. */
  verify(token: string, check: McpTokenCheck): Promise<McpAccessClaims | null>;
}

export function createMcpAccessTokens(secret: string): McpAccessTokens {
  const key = new TextEncoder().encode(secret);
  return {
    sign(claims, issuer, audience) {
      return new SignJWT({
        role: claims.role,
        gid: claims.grantId,
        client_id: claims.clientId,
        scope: claims.scope,
      })
        .setProtectedHeader({ alg: ALGORITHM, typ: TYPE })
        .setSubject(claims.userId)
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt()
        .setJti(crypto.randomUUID())
        .setExpirationTime(Math.floor(Date.now() / 1000) + ACCESS_TOKEN_TTL_SECONDS)
        .sign(key);
    },
    async verify(token, check) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          typ: TYPE,
          issuer: check.issuer,
          audience: check.audience,
        });
        const role = payload.role as UserRole;
        const { sub, gid, client_id: clientId, scope } = payload;
        if (!sub || !USER_ROLES.includes(role) || typeof gid !== 'string' || typeof clientId !== 'string')
          return null;
        return { userId: sub, role, grantId: gid, clientId, scope: typeof scope === 'string' ? scope : '' };
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}

/** Redis key set when a grant is revoked, for as long as its access tokens can live. */
export const revokedGrantKey = (grantId: string) => `sluice:oauth:revoked:${grantId}`;
