import { importPKCS8, SignJWT } from 'jose';
import { randomBytes, toBase64Url } from '../../util/encoding';
import type { MachineCredentials } from '../ports';

/**
 * The token requests of a server Sluice signs in to as itself: the grant (client credentials,
 * or a workload's JWT under RFC 7523) and how the client authenticates at the token endpoint
 * (its secret, Basic or in the form, or an assertion signed with its private key).
 */

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** A client assertion is good for one token request: it expires a minute after it is made. */
const ASSERTION_LIFETIME_S = 60;
/** What a PKCS#8 key may sign with, in the order tried when the server names none (ES256 first). */
const KEY_ALGORITHMS = [
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
] as const;

export type MachineGrant = MachineCredentials['grant'];
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

/** The client Sluice is at the authorization server, its secrets opened. */
export type MachineClient = Pick<MachineCredentials, 'clientId' | 'clientSecret' | 'privateKey'>;

/** What the authorization server's metadata says about authenticating at its token endpoint. */
export interface TokenEndpointRules {
  issuer: string;
  /** token_endpoint_auth_methods_supported; null when it does not say. */
  methods: readonly string[] | null;
  /** token_endpoint_auth_signing_alg_values_supported; null when it does not say. */
  signingAlgorithms: readonly string[] | null;
}

/** RFC 6749 § 2.3.1 (Appendix B): the id and the secret are form-urlencoded before Basic. */
export function formUrlEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

export function basicAuthorization(clientId: string, clientSecret: string): string {
  return `Basic ${btoa(`${formUrlEncode(clientId)}:${formUrlEncode(clientSecret)}`)}`;
}

/**
 * A key signs (private_key_jwt); a secret goes in Basic unless the server takes it only in the
 * form; a client without either just names itself (none).
 */
export function clientAuthMethod(client: MachineClient, methods: readonly string[] | null): ClientAuthMethod {
  if (client.clientId === null) return 'none';
  if (client.privateKey !== null) return 'private_key_jwt';
  if (client.clientSecret === null) return 'none';
  const postOnly =
    methods !== null && !methods.includes('client_secret_basic') && methods.includes('client_secret_post');
  return postOnly ? 'client_secret_post' : 'client_secret_basic';
}

/**
 * RFC 7523 § 3 client assertion: iss and sub the client id, aud the authorization server's issuer
 * identifier, a fresh jti, a short exp. Signed with the first algorithm the server takes that the
 * key fits (any the key fits, ES256 first, when the server names none).
 */
export async function clientAssertion(input: {
  clientId: string;
  audience: string;
  privateKey: string;
  algorithms: readonly string[] | null;
  now: Date;
}): Promise<string> {
  const signer = await signingKey(input.privateKey, input.algorithms);
  const issuedAt = Math.floor(input.now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: signer.algorithm })
    .setIssuer(input.clientId)
    .setSubject(input.clientId)
    .setAudience(input.audience)
    .setJti(toBase64Url(randomBytes(16)))
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ASSERTION_LIFETIME_S)
    .sign(signer.key);
}

async function signingKey(pem: string, algorithms: readonly string[] | null) {
  const tried = algorithms?.length ? algorithms : KEY_ALGORITHMS;
  for (const algorithm of tried) {
    const key = await importPKCS8(pem, algorithm).catch(() => null);
    if (key) return { algorithm, key };
  }
  throw new Error(
    algorithms?.length
      ? `the private key fits none of the signing algorithms it takes: ${algorithms.join(', ')}`
      : 'the private key is not a PKCS#8 key Sluice can sign with',
  );
}

/** Whether a PEM is a private key Sluice can sign client assertions with (checked when it is stored). */
export async function isSigningKey(pem: string): Promise<boolean> {
  return signingKey(pem, null).then(
    () => true,
    () => false,
  );
}

/** The client's credentials on a token request: headers to add, and form fields. */
export async function clientAuthentication(
  client: MachineClient,
  rules: TokenEndpointRules,
  now: Date,
): Promise<{ headers: Record<string, string>; form: Record<string, string> }> {
  const method = clientAuthMethod(client, rules.methods);
  const id = client.clientId;
  if (id === null) return { headers: {}, form: {} };
  if (method === 'client_secret_basic')
    return { headers: { authorization: basicAuthorization(id, client.clientSecret as string) }, form: {} };
  if (method === 'client_secret_post')
    return { headers: {}, form: { client_id: id, client_secret: client.clientSecret as string } };
  if (method === 'private_key_jwt') {
    const assertion = await clientAssertion({
      clientId: id,
      audience: rules.issuer,
      privateKey: client.privateKey as string,
      algorithms: rules.signingAlgorithms,
      now,
    });
    return {
      headers: {},
      form: { client_id: id, client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: assertion },
    };
  }
  return { headers: {}, form: { client_id: id } };
}

/** The grant's own fields, with the resource (RFC 8707) and the scope the server's metadata asks for. */
export function grantForm(
  grant: MachineGrant,
  assertion: string | null,
  resource: string,
  scope: string | null,
): Record<string, string> {
  const form: Record<string, string> = { grant_type: grantTypeOf(grant) };
  if (grant === 'jwt_bearer') form.assertion = assertion ?? '';
  form.resource = resource;
  if (scope) form.scope = scope;
  return form;
}

/** The grant_type value a grant is sent as (and looked for in grant_types_supported). */
export function grantTypeOf(grant: MachineGrant): string {
  return grant === 'jwt_bearer' ? JWT_BEARER_GRANT : 'client_credentials';
}
