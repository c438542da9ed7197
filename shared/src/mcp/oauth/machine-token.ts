import { RPC, RpcFault } from '../gateway/jsonrpc';
import type { MachineCredentials } from '../ports';
import { type AuthorizationServerFound, discoverAuthorizationServer } from './discovery';
import { clientAuthentication, grantForm, grantTypeOf } from './machine-grants';

/**
 * One token for a server Sluice signs in to as itself (auth_type oauth_client_credentials or
 * oauth_jwt_bearer): the server's authorization server found as a client does (its protected
 * resource metadata, then the authorization server's), then one token request. A refusal is
 * not retried and no other grant is tried: it is the caller's answer.
 */

export interface MachineToken {
  accessToken: string;
  /** Epoch ms: used until then, fetched again after. */
  refreshAt: number;
}

export interface MachineServer {
  name: string;
  endpointUrl: string;
}

const TOKEN_TIMEOUT_MS = 10_000;
/** A token that does not say when it expires is kept this long at most (and renewed on a 401). */
const DEFAULT_LIFETIME_S = 3600;
/** A token is fetched again this long before it expires (a quarter of a short lifetime). */
const EARLY_MS = 30_000;

/** Sluice could not get its token: a JSON-RPC error naming the server and its authorization server's answer. */
export class MachineSignInFailed extends RpcFault {
  override name = 'MachineSignInFailed';
  constructor(server: MachineServer, reason: string, data: Record<string, string>) {
    super(RPC.internalError, `Sluice cannot sign in to MCP server ${server.name}: ${reason}`, {
      server: server.name,
      ...data,
    });
  }
}

interface TokenAnswer {
  access_token?: unknown;
  token_type?: unknown;
  expires_in?: unknown;
  error?: unknown;
  error_description?: unknown;
}

/** The server's authorization server, found as a client finds it; a failure names the server. */
export function findAuthorizationServer(
  server: MachineServer,
  fetchImpl: typeof fetch,
): Promise<AuthorizationServerFound> {
  return discoverAuthorizationServer(server.endpointUrl, fetchImpl).catch((error: unknown) => {
    throw new MachineSignInFailed(server, `its authorization server was not found (${reasonOf(error)})`, {});
  });
}

/** `found`: the server's authorization server when the caller has already found it. */
export async function requestMachineToken(
  server: MachineServer,
  credentials: MachineCredentials,
  deps: { fetch: typeof fetch; now(): Date },
  found?: AuthorizationServerFound,
): Promise<MachineToken> {
  found ??= await findAuthorizationServer(server, deps.fetch);
  const issuer = found.issuer;
  const failed = (reason: string) =>
    new MachineSignInFailed(server, reason, { authorization_server: issuer });
  const grantType = grantTypeOf(credentials.grant);
  const offered = found.metadata.grant_types_supported;
  if (offered && !offered.includes(grantType))
    throw failed(`its authorization server ${issuer} does not offer the ${grantType} grant`);
  const request = await tokenRequest(found, credentials, deps.now()).catch((error: unknown) => {
    throw failed(`no client assertion for ${issuer} (${reasonOf(error)})`);
  });
  let response: Response;
  try {
    response = await deps.fetch(request);
  } catch (error) {
    throw failed(`its authorization server ${issuer} could not be reached (${reasonOf(error)})`);
  }
  const answer = ((await response.json().catch(() => null)) ?? {}) as TokenAnswer;
  if (!response.ok || typeof answer.access_token !== 'string' || answer.access_token === '')
    throw refusal(server, issuer, response.status, answer);
  const type = typeof answer.token_type === 'string' ? answer.token_type : 'Bearer';
  if (type.toLowerCase() !== 'bearer')
    throw failed(
      `its authorization server ${issuer} answered a token of type ${type}; Sluice sends bearer tokens`,
    );
  return { accessToken: answer.access_token, refreshAt: refreshTime(answer.expires_in, deps.now()) };
}

/** The token request: the grant's fields and the client's credentials, as the server's metadata says. */
async function tokenRequest(found: AuthorizationServerFound, credentials: MachineCredentials, now: Date) {
  const { metadata } = found;
  const client = await clientAuthentication(
    credentials,
    {
      issuer: found.issuer,
      methods: metadata.token_endpoint_auth_methods_supported ?? null,
      signingAlgorithms: metadata.token_endpoint_auth_signing_alg_values_supported ?? null,
    },
    now,
  );
  const grant = grantForm(credentials.grant, credentials.assertion, found.resource, found.scope);
  return new Request(metadata.token_endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      ...client.headers,
    },
    body: new URLSearchParams({ ...grant, ...client.form }),
    signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
  });
}

export const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The authorization server's error (RFC 6749 § 5.2), as it said it: error, then its description. */
function refusal(
  server: MachineServer,
  issuer: string,
  status: number,
  answer: TokenAnswer,
): MachineSignInFailed {
  const error = typeof answer.error === 'string' ? answer.error : null;
  const description = typeof answer.error_description === 'string' ? answer.error_description : null;
  const said = error ? `${error}${description ? `: ${description}` : ''}` : `HTTP ${status} without a token`;
  return new MachineSignInFailed(server, `its authorization server ${issuer} answered ${said}`, {
    authorization_server: issuer,
    ...(error && { error }),
    ...(description && { error_description: description }),
  });
}

function refreshTime(expiresIn: unknown, now: Date): number {
  const seconds = typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : DEFAULT_LIFETIME_S;
  return now.getTime() + seconds * 1000 - Math.min(EARLY_MS, (seconds * 1000) / 4);
}
