/**
 * A company's identity provider for enterprise-managed authorization: it issues users' ID tokens
 * (to one client) and, at its token endpoint, exchanges a valid one (RFC 8693, the ID token as
 * the subject token) for an identity assertion JWT authorization grant (ID-JAG, typ
 * oauth-id-jag+jwt) for the audience and resource asked, naming the client the user may reach the
 * resource with. It publishes OpenID discovery metadata; users can be barred (invalid_grant).
 */
import { createServer } from 'node:http';
import { type CryptoKey, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { listenLocally } from './mcp-servers';
import { json, readBody } from './oauth-mcp-common';

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

export interface EnterpriseIdpOptions {
  /** Sluice's client at the identity provider: the ID tokens' audience. */
  clientId: string;
  /** The client at the resource's authorization server that the grants name. */
  grantClientId: string;
}

export interface EnterpriseIdp {
  issuer: string;
  /** What an authorization server trusts the grants with. */
  grantKey: CryptoKey;
  exchanges: Array<Record<string, string>>;
  idToken(
    email: string,
    options?: { audience?: string; expiresIn?: string; issuer?: string },
  ): Promise<string>;
  /** The user may no longer reach anything: their exchanges are refused. */
  bar(email: string): void;
  close(): Promise<void>;
}

export async function startEnterpriseIdp(options: EnterpriseIdpOptions): Promise<EnterpriseIdp> {
  const idTokenKeys = await generateKeyPair('ES256');
  const grantKeys = await generateKeyPair('ES256');
  const exchanges: Array<Record<string, string>> = [];
  const barred = new Set<string>();
  let issuer = '';

  async function exchange(form: Record<string, string>) {
    const missing = ['subject_token', 'audience', 'resource'].filter((name) => !form[name]);
    if (form.grant_type !== TOKEN_EXCHANGE) return { status: 400, body: { error: 'unsupported_grant_type' } };
    if (
      missing.length > 0 ||
      form.subject_token_type !== 'urn:ietf:params:oauth:token-type:id_token' ||
      form.requested_token_type !== 'urn:ietf:params:oauth:token-type:id-jag' ||
      form.client_id !== options.clientId
    )
      return {
        status: 400,
        body: { error: 'invalid_request', error_description: `missing ${missing.join(', ')}` },
      };
    try {
      const { payload } = await jwtVerify(form.subject_token ?? '', idTokenKeys.publicKey, {
        issuer,
        audience: options.clientId,
      });
      const user = String(payload.email);
      if (barred.has(user))
        return { status: 400, body: { error: 'invalid_grant', error_description: `${user} is barred` } };
      const grant = await new SignJWT({ resource: form.resource, client_id: options.grantClientId })
        .setProtectedHeader({ alg: 'ES256', typ: 'oauth-id-jag+jwt' })
        .setIssuer(issuer)
        .setSubject(user)
        .setAudience(form.audience as string)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(grantKeys.privateKey);
      const issued = 'urn:ietf:params:oauth:token-type:id-jag';
      return { status: 200, body: { access_token: grant, issued_token_type: issued, token_type: 'N_A' } };
    } catch (error) {
      return { status: 400, body: { error: 'invalid_grant', error_description: (error as Error).message } };
    }
  }

  const server = createServer(async (req, res) => {
    const route = `${req.method} ${new URL(req.url ?? '/', 'http://idp').pathname}`;
    if (route === 'GET /.well-known/openid-configuration')
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        grant_types_supported: [TOKEN_EXCHANGE],
        token_endpoint_auth_methods_supported: ['none'],
      });
    if (route !== 'POST /token') return json(res, 404, { error: 'not_found' });
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    exchanges.push(form);
    const answer = await exchange(form);
    return json(res, answer.status, answer.body);
  });
  issuer = (await listenLocally(server, '')).replace(/\/$/, '');

  return {
    issuer,
    grantKey: grantKeys.publicKey,
    exchanges,
    idToken: (email, made = {}) =>
      new SignJWT({ email })
        .setProtectedHeader({ alg: 'ES256' })
        .setIssuer(made.issuer ?? issuer)
        .setSubject(`sub-${email}`)
        .setAudience(made.audience ?? options.clientId)
        .setIssuedAt()
        .setExpirationTime(made.expiresIn ?? '1h')
        .sign(idTokenKeys.privateKey),
    bar: (email) => void barred.add(email),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
