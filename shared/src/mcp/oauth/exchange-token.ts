import type { MachineCredentials } from '../ports';
import { issuerMetadata } from './discovery';
import { clientAuthentication, type MachineClient } from './machine-grants';
import {
  findAuthorizationServer,
  type MachineServer,
  MachineSignInFailed,
  reasonOf,
  requestMachineToken,
} from './machine-token';

/**
 * Enterprise-managed authorization (MCP's extension, built on RFC 8693 and RFC 7523): a user's
 * ID token from the company's identity provider is exchanged there for an identity assertion
 * JWT authorization grant (ID-JAG) naming the server's authorization server and the server;
 * Sluice, as its own client there, presents that grant (jwt-bearer) for the user's access token.
 * No browser is involved: the identity provider decides who may reach which server.
 */

const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
const EXCHANGE_TIMEOUT_MS = 10_000;

/** A server of auth_type oauth_token_exchange: its two clients, their secrets opened. */
export interface ExchangeCredentials {
  /** Sluice at the server's authorization server: presents the grant. */
  client: MachineClient;
  /** The identity provider and Sluice's client there: exchanges the ID token. */
  idp: { issuer: string; clientId: string; clientSecret: string | null };
}

export interface ExchangedToken {
  accessToken: string;
  /** When it is fetched again (shortly before it expires). */
  expiresAt: Date;
}

/** Why a user's ID token did not give a token: the identity provider (or the server) refused it. */
export class ExchangeRefused extends MachineSignInFailed {
  override name = 'ExchangeRefused';
}

interface ExchangeAnswer {
  access_token?: unknown;
  issued_token_type?: unknown;
  error?: unknown;
  error_description?: unknown;
}

/** The user's access token for `server`, from their ID token: the exchange, then the grant. */
export async function exchangeIdToken(
  server: MachineServer,
  credentials: ExchangeCredentials,
  idToken: string,
  deps: { fetch: typeof fetch; now(): Date },
): Promise<ExchangedToken> {
  const found = await findAuthorizationServer(server, deps.fetch);
  const grant = await requestIdJag(server, credentials.idp, idToken, found, deps);
  const machine: MachineCredentials = { grant: 'jwt_bearer', ...credentials.client, assertion: grant };
  const token = await requestMachineToken(server, machine, deps, found);
  return { accessToken: token.accessToken, expiresAt: new Date(token.refreshAt) };
}

/** RFC 8693 at the identity provider: the ID token for an ID-JAG, audience the authorization server. */
async function requestIdJag(
  server: MachineServer,
  idp: ExchangeCredentials['idp'],
  idToken: string,
  target: { issuer: string; resource: string; scope: string | null },
  deps: { fetch: typeof fetch; now(): Date },
): Promise<string> {
  const failed = (reason: string, data: Record<string, string> = {}) =>
    new ExchangeRefused(server, reason, { identity_provider: idp.issuer, ...data });
  const metadata = await issuerMetadata(idp.issuer, deps.fetch).catch((error: unknown) => {
    throw failed(`the identity provider ${idp.issuer} was not found (${reasonOf(error)})`);
  });
  const client = await clientAuthentication(
    { clientId: idp.clientId, clientSecret: idp.clientSecret, privateKey: null },
    {
      issuer: metadata.issuer,
      methods: metadata.token_endpoint_auth_methods_supported ?? null,
      signingAlgorithms: null,
    },
    deps.now(),
  );
  const form: Record<string, string> = {
    grant_type: TOKEN_EXCHANGE_GRANT,
    requested_token_type: ID_JAG_TOKEN_TYPE,
    audience: target.issuer,
    resource: target.resource,
    subject_token: idToken,
    subject_token_type: ID_TOKEN_TYPE,
    ...client.form,
  };
  if (target.scope) form.scope = target.scope;
  let response: Response;
  try {
    response = await deps.fetch(metadata.token_endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        ...client.headers,
      },
      body: new URLSearchParams(form),
      signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
    });
  } catch (error) {
    throw failed(`the identity provider ${idp.issuer} could not be reached (${reasonOf(error)})`);
  }
  const answer = ((await response.json().catch(() => null)) ?? {}) as ExchangeAnswer;
  if (response.ok && typeof answer.access_token === 'string' && answer.access_token !== '') {
    if (answer.issued_token_type !== undefined && answer.issued_token_type !== ID_JAG_TOKEN_TYPE)
      throw failed(
        `the identity provider ${idp.issuer} issued ${String(answer.issued_token_type)}, not an ID-JAG`,
      );
    return answer.access_token;
  }
  const error = typeof answer.error === 'string' ? answer.error : null;
  const description = typeof answer.error_description === 'string' ? answer.error_description : null;
  const said = error ? `${error}${description ? `: ${description}` : ''}` : `HTTP ${response.status}`;
  throw failed(`the identity provider ${idp.issuer} refused the exchange (${said})`, {
    ...(error && { error }),
    ...(description && { error_description: description }),
  });
}
