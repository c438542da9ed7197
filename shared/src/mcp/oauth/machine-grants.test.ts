import { decodeProtectedHeader, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  basicAuthorization,
  clientAssertion,
  clientAuthentication,
  clientAuthMethod,
  grantForm,
  isSigningKey,
  JWT_BEARER_GRANT,
} from './machine-grants';

const NOW = new Date();
const ISSUER = 'https://as.example.com/tenant';

async function keyPair(algorithm: string) {
  const { publicKey, privateKey } = await generateKeyPair(algorithm, { extractable: true });
  return { publicKey, pem: await exportPKCS8(privateKey) };
}

describe('client_secret_basic', () => {
  it('form-urlencodes the id and the secret before Base64 (RFC 6749 § 2.3.1)', () => {
    const header = basicAuthorization('client:id é', 'p@ss w+rd/&=~*');
    const decoded = atob(header.replace(/^Basic /, ''));
    expect(decoded).toBe('client%3Aid+%C3%A9:p%40ss+w%2Brd%2F%26%3D%7E*');
    // The authorization server splits at the one colon left and form-decodes each half.
    const [id, secret] = decoded.split(':').map((part) => new URLSearchParams(`v=${part}`).get('v'));
    expect([id, secret]).toEqual(['client:id é', 'p@ss w+rd/&=~*']);
  });

  it('is the default for a secret; client_secret_post only when the server takes nothing else', () => {
    const client = { clientId: 'c', clientSecret: 's', privateKey: null };
    expect(clientAuthMethod(client, null)).toBe('client_secret_basic');
    expect(clientAuthMethod(client, ['client_secret_post', 'client_secret_basic'])).toBe(
      'client_secret_basic',
    );
    expect(clientAuthMethod(client, ['client_secret_post'])).toBe('client_secret_post');
    expect(clientAuthMethod({ ...client, clientSecret: null }, null)).toBe('none');
    expect(clientAuthMethod({ ...client, privateKey: 'pem' }, ['client_secret_basic'])).toBe(
      'private_key_jwt',
    );
  });

  it('puts the credentials where the method says', async () => {
    const rules = { issuer: ISSUER, methods: ['client_secret_post'], signingAlgorithms: null };
    const post = await clientAuthentication(
      { clientId: 'c', clientSecret: 's', privateKey: null },
      rules,
      NOW,
    );
    expect(post).toEqual({ headers: {}, form: { client_id: 'c', client_secret: 's' } });
    const none = await clientAuthentication(
      { clientId: 'c', clientSecret: null, privateKey: null },
      rules,
      NOW,
    );
    expect(none).toEqual({ headers: {}, form: { client_id: 'c' } });
    const anonymous = await clientAuthentication(
      { clientId: null, clientSecret: null, privateKey: null },
      rules,
      NOW,
    );
    expect(anonymous).toEqual({ headers: {}, form: {} });
  });
});

describe('private_key_jwt client assertions (RFC 7523)', () => {
  it('are signed with ES256 by default: iss = sub = the client, aud = the issuer, a jti, a short exp', async () => {
    const { publicKey, pem } = await keyPair('ES256');
    const input = {
      clientId: 'sluice-client',
      audience: ISSUER,
      privateKey: pem,
      algorithms: null,
      now: NOW,
    };
    const assertion = await clientAssertion(input);
    expect(decodeProtectedHeader(assertion).alg).toBe('ES256');
    const { payload } = await jwtVerify(assertion, publicKey, { audience: ISSUER });
    expect(payload).toMatchObject({ iss: 'sluice-client', sub: 'sluice-client', aud: ISSUER });
    expect(typeof payload.jti).toBe('string');
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(60);
    const { payload: second } = await jwtVerify(await clientAssertion(input), publicKey);
    expect(second.jti).not.toBe(payload.jti);
  });

  it('use the first algorithm the server takes that fits the key, and say so when none does', async () => {
    const rsa = await keyPair('PS256');
    const listed = { clientId: 'c', audience: ISSUER, privateKey: rsa.pem, now: NOW };
    const assertion = await clientAssertion({ ...listed, algorithms: ['ES256', 'RS256', 'PS256'] });
    expect(decodeProtectedHeader(assertion).alg).toBe('RS256');
    await expect(clientAssertion({ ...listed, algorithms: ['ES256', 'EdDSA'] })).rejects.toThrow(
      'the private key fits none of the signing algorithms it takes: ES256, EdDSA',
    );
  });

  it('go in the form with their assertion type, and the key is checked when it is stored', async () => {
    const { pem } = await keyPair('ES256');
    const rules = { issuer: ISSUER, methods: ['private_key_jwt'], signingAlgorithms: ['ES256'] };
    const sent = await clientAuthentication(
      { clientId: 'c', clientSecret: null, privateKey: pem },
      rules,
      NOW,
    );
    expect(sent.headers).toEqual({});
    expect(sent.form).toMatchObject({
      client_id: 'c',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    });
    expect(await isSigningKey(pem)).toBe(true);
    expect(await isSigningKey('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----')).toBe(false);
  });
});

describe('the grant', () => {
  it('asks for the resource and the scope; jwt-bearer carries the workload JWT as its assertion', () => {
    expect(grantForm('client_credentials', null, 'https://mcp.example.com/mcp', 'read write')).toEqual({
      grant_type: 'client_credentials',
      resource: 'https://mcp.example.com/mcp',
      scope: 'read write',
    });
    expect(grantForm('jwt_bearer', 'a.b.c', 'https://mcp.example.com/mcp', null)).toEqual({
      grant_type: JWT_BEARER_GRANT,
      assertion: 'a.b.c',
      resource: 'https://mcp.example.com/mcp',
    });
  });
});
