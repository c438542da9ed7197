import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createJwtSigner, looksLikeJwt } from './jwt';

const SECRET = 'x'.repeat(40);
const claims = {
  userId: '6f1c3a7e-0000-4000-8000-000000000001',
  email: 'a@example.com',
  role: 'admin' as const,
};

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
    const token = await new SignJWT({ role: 'admin', typ: 'access', email: claims.email })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(claims.userId)
      .setIssuer('sluice')
      .setAudience('sluice')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(SECRET));
    expect(await createJwtSigner(SECRET).verifyAccess(token)).toBeNull();
  });

  it('refuses unknown roles and short secrets', async () => {
    const token = await new SignJWT({ role: 'root', typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setIssuer('sluice')
      .setAudience('sluice')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(SECRET));
    expect(await createJwtSigner(SECRET).verifyAccess(token)).toBeNull();
    expect(() => createJwtSigner('short')).toThrow('32');
  });
});
