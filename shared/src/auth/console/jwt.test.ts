import { type JWTPayload, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createJwtSigner, looksLikeJwt } from './jwt';

const SECRET = 'x'.repeat(40);
const claims = {
  userId: '6f1c3a7e-0000-4000-8000-000000000001',
  email: 'a@example.com',
  role: 'admin' as const,
};

/**
 * A token signed with SECRET and the signer's issuer, audience and subject, but built outside
 * the signer, so a test can vary exactly the one thing the signer must refuse.
 */
function handMadeToken(payload: JWTPayload, alg: 'HS256' | 'HS512'): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg })
    .setSubject(claims.userId)
    .setIssuer('sluice')
    .setAudience('sluice')
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
}

describe('JWT signer', () => {
  it('signs and verifies an access token', async () => {
    const jwt = createJwtSigner(SECRET);
    const token = await jwt.signAccess(claims, 900);
    expect(looksLikeJwt(token)).toBe(true);
    expect(await jwt.verifyAccess(token)).toEqual(claims);
  });

  it('refuses tokens from another secret, expired tokens and unsigned tokens', async () => {
    const jwt = createJwtSigner(SECRET);
    const other = createJwtSigner('y'.repeat(40));
    expect(await jwt.verifyAccess(await other.signAccess(claims, 900))).toBeNull();
    expect(await jwt.verifyAccess(await jwt.signAccess(claims, -10))).toBeNull();
    const unsigned = new UnsecuredJWT({ role: 'admin', typ: 'access' }).setSubject(claims.userId).encode();
    expect(await jwt.verifyAccess(unsigned)).toBeNull();
    expect(await jwt.verifyAccess('not.a.jwt')).toBeNull();
  });

  it('pins HS256: the same secret under HS512 is refused', async () => {
    const token = await handMadeToken({ role: 'admin', typ: 'access', email: claims.email }, 'HS512');
    expect(await createJwtSigner(SECRET).verifyAccess(token)).toBeNull();
  });

  it('refuses unknown roles and short secrets', async () => {
    const token = await handMadeToken({ role: 'root', typ: 'access' }, 'HS256');
    expect(await createJwtSigner(SECRET).verifyAccess(token)).toBeNull();
    expect(() => createJwtSigner('short')).toThrow('32');
  });
});
