import { createHash } from 'node:crypto';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { accessTokenHash, dpopAlgorithmFor, dpopProof, htuOf, newDpopKey } from './dpop';
import { accessTokenRecord, openAccessTokenRecord } from './token-record';

/** A proof as a server checks it: the signature by the header's own key, then its claims. */
async function verified(proof: string) {
  const header = decodeProtectedHeader(proof);
  const key = await importJWK(header.jwk as Record<string, unknown>, header.alg);
  const { payload } = await jwtVerify(proof, key, { typ: 'dpop+jwt' });
  return { header, payload };
}

describe('DPoP proofs', () => {
  it('picks ES256 when the server takes it, another supported algorithm else, none without DPoP', () => {
    expect(dpopAlgorithmFor(['RS256', 'ES256', 'none'])).toBe('ES256');
    expect(dpopAlgorithmFor(['EdDSA', 'PS256'])).toBe('PS256');
    expect(dpopAlgorithmFor(['none', 'HS256'])).toBeNull();
    expect(dpopAlgorithmFor([])).toBeNull();
    expect(dpopAlgorithmFor(undefined)).toBeNull();
  });

  it('signs a token request proof with its public key alone in the header', async () => {
    const key = await newDpopKey('ES256');
    const now = new Date('2026-11-29T12:00:00Z');
    const proof = await dpopProof(key, { method: 'post', url: 'https://as.example.com/token' }, now);
    const { header, payload } = await verified(proof);
    expect(header).toEqual({
      typ: 'dpop+jwt',
      alg: 'ES256',
      jwk: { kty: 'EC', crv: 'P-256', x: key.publicJwk.x, y: key.publicJwk.y },
    });
    expect(payload).toEqual({
      jti: expect.stringMatching(/^[\w-]{36}$/),
      htm: 'POST',
      htu: 'https://as.example.com/token',
      iat: now.getTime() / 1000,
    });
    expect(key.privateJwk.d).toEqual(expect.any(String));
  });

  it('binds a resource request to its token (ath) and the nonce, with a fresh jti each time', async () => {
    const key = await newDpopKey('ES256');
    const token = 'eyJhbGciOiJFUzI1NiJ9.e30.sig-~+/';
    const target = { method: 'GET', url: 'https://mcp.example.com/mcp', accessToken: token, nonce: 'n-1' };
    const [a, b] = await Promise.all([dpopProof(key, target), dpopProof(key, target)]);
    const first = (await verified(a)).payload;
    expect(first).toMatchObject({ htm: 'GET', nonce: 'n-1' });
    expect(first.ath).toBe(createHash('sha256').update(token, 'ascii').digest('base64url'));
    expect(await accessTokenHash(token)).toBe(first.ath);
    expect((await verified(b)).payload.jti).not.toBe(first.jti);
  });

  it('names the URL without its query and fragment (htu)', async () => {
    expect(htuOf('https://mcp.example.com/mcp?session=1&x=2#frag')).toBe('https://mcp.example.com/mcp');
    expect(htuOf('https://as.example.com:8443/oauth/token')).toBe('https://as.example.com:8443/oauth/token');
    const key = await newDpopKey('PS256');
    const proof = await dpopProof(key, { method: 'POST', url: 'https://mcp.example.com/m?a=1#b' });
    const { header, payload } = await verified(proof);
    expect(payload.htu).toBe('https://mcp.example.com/m');
    expect(Object.keys(header.jwk ?? {}).sort()).toEqual(['e', 'kty', 'n']);
  });
});

describe('the sealed token record', () => {
  it('keeps a token without a key as the token alone, and one with a key as a record of both', async () => {
    const plain = { accessToken: 'at-1', dpopKey: null, tokenType: 'Bearer' as const };
    expect(accessTokenRecord(plain)).toBe('at-1');
    expect(openAccessTokenRecord('at-1')).toEqual(plain);
    const bound = { accessToken: 'at-2', dpopKey: await newDpopKey('ES256'), tokenType: 'DPoP' as const };
    const sealed = accessTokenRecord(bound);
    expect(JSON.parse(sealed)).toMatchObject({ access_token: 'at-2', token_type: 'DPoP' });
    expect(openAccessTokenRecord(sealed)).toEqual(bound);
    expect(() => openAccessTokenRecord('{"access_token":1}')).toThrow(/malformed/);
  });
});
