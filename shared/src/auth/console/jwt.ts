import { errors, jwtVerify, SignJWT } from 'jose';
import { USER_ROLES, type UserRole } from '../../db/schema/users';

/** HS256 only: the verifier pins the algorithm so a token cannot choose its own. */
const ALGORITHM = 'HS256';
const ISSUER = 'sluice';
const AUDIENCE = 'sluice';

export interface AccessClaims {
  userId: string;
  email: string;
  role: UserRole;
}

export interface JwtSigner {
  signAccess(claims: AccessClaims, ttlSeconds: number): Promise<string>;
  verifyAccess(token: string): Promise<AccessClaims | null>;
}

export function createJwtSigner(secret: string): JwtSigner {
  if (secret.length < 32) throw new Error('SLUICE_JWT_SECRET must be at least 32 characters');
  const key = new TextEncoder().encode(secret);
  return {
    async signAccess(claims, ttlSeconds) {
      return new SignJWT({ email: claims.email, role: claims.role, typ: 'access' })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setJti(crypto.randomUUID())
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(key);
    },
    async verifyAccess(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: AUDIENCE,
        });
        const role = payload.role as UserRole;
        if (payload.typ !== 'access' || !payload.sub || !USER_ROLES.includes(role)) return null;
        return { userId: payload.sub, email: String(payload.email ?? ''), role };
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}

/** A JWT is three base64url segments; anything else is not worth verifying. */
export function looksLikeJwt(value: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value);
}
