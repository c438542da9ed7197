import {
  createFamily,
  insertRefreshToken,
  lockRefreshToken,
  markRefreshTokenUsed,
  revokeFamily,
} from '../../db/repos/refresh-tokens-repo';
import { loadSettings } from '../../db/repos/settings-repo';
import { findUserById, type UserRow } from '../../db/repos/users-repo';
import type { Db } from '../../db/types';
import { unauthorized } from '../../http/app-error';
import { randomBytes, sha256Hex, toBase64Url } from '../../util/encoding';
import type { JwtSigner } from '../console/jwt';

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

export interface TokenTtls {
  accessSeconds: number;
  refreshSeconds: number;
}

export async function readTokenTtls(db: Db): Promise<TokenTtls> {
  const s = await loadSettings(db);
  return { accessSeconds: s.jwt_access_ttl_seconds, refreshSeconds: s.jwt_refresh_ttl_seconds };
}

/** Starts a new refresh-token family for a fresh sign-in. */
export async function issueTokenPair(
  db: Db,
  jwt: JwtSigner,
  user: UserRow,
  ttls: TokenTtls,
): Promise<TokenPair> {
  const familyId = await createFamily(db, user.id);
  return issueInFamily(db, jwt, user, familyId, ttls);
}

async function issueInFamily(
  db: Db,
  jwt: JwtSigner,
  user: UserRow,
  familyId: string,
  ttls: TokenTtls,
): Promise<TokenPair> {
  const refreshToken = `rt_${toBase64Url(randomBytes(32))}`;
  const expiresAt = new Date(Date.now() + ttls.refreshSeconds * 1000);
  await insertRefreshToken(db, { familyId, tokenHash: await sha256Hex(refreshToken), expiresAt });
  const accessToken = await jwt.signAccess(
    { userId: user.id, email: user.email, role: user.role },
    ttls.accessSeconds,
  );
  return {
    access_token: accessToken,
    refresh_token: refreshToken,
    token_type: 'Bearer',
    expires_in: ttls.accessSeconds,
  };
}

type RotationOutcome = { ok: true; pair: TokenPair } | { ok: false; reason: string };

/**
 * Single-use refresh: a token may be exchanged once. Presenting a spent token means it
 * leaked, so the whole family is revoked (and stays revoked after this transaction).
 */
export async function rotateRefreshToken(db: Db, jwt: JwtSigner, rawToken: string): Promise<TokenPair> {
  const tokenHash = await sha256Hex(rawToken);
  const outcome = await db.transaction(async (tx): Promise<RotationOutcome> => {
    const row = await lockRefreshToken(tx, tokenHash);
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.familyRevokedAt) return { ok: false, reason: 'family revoked' };
    if (row.usedAt) {
      await revokeFamily(tx, row.familyId, 'refresh token reuse');
      return { ok: false, reason: 'reused' };
    }
    if (row.expiresAt.getTime() <= Date.now()) return { ok: false, reason: 'expired' };
    const user = await findUserById(tx, row.userId);
    if (!user?.isActive) return { ok: false, reason: 'user inactive' };
    await markRefreshTokenUsed(tx, row.id);
    return { ok: true, pair: await issueInFamily(tx, jwt, user, row.familyId, await readTokenTtls(tx)) };
  });
  if (!outcome.ok) throw unauthorized('Invalid or expired refresh token');
  return outcome.pair;
}
