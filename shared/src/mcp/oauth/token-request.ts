import { type DpopKey, dpopProof } from './dpop';
import { dpopNonces, tokenEndpointWantsNonce } from './dpop-nonces';
import type { UpstreamClient, UpstreamOAuthDeps, UpstreamTokens } from './ports';
import { authenticateTokenRequest } from './register';

const TOKEN_TIMEOUT_MS = 10_000;

interface TokenAnswer {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  token_type?: string;
  error?: string;
  error_description?: string;
}

/**
 * A token request at the upstream's token endpoint (authorization code or refresh). With the
 * connection's DPoP key, it carries a proof, and is sent once more with the server's nonce when
 * it asks for one. The answer's token_type says whether the token is bound to the key.
 */
export async function tokenRequest(
  client: UpstreamClient,
  deps: UpstreamOAuthDeps,
  form: Record<string, string>,
  dpopKey: DpopKey | null,
): Promise<UpstreamTokens> {
  const body = new URLSearchParams(form);
  const credentials = authenticateTokenRequest(client, body);
  const send = async () => {
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      ...credentials,
    };
    if (dpopKey) {
      const nonce = dpopNonces.get(client.tokenEndpoint);
      headers.dpop = await dpopProof(dpopKey, { method: 'POST', url: client.tokenEndpoint, nonce });
    }
    const response = await deps.fetch(client.tokenEndpoint, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
    if (dpopKey) dpopNonces.note(client.tokenEndpoint, response);
    return { response, answer: (await response.json().catch(() => ({}))) as TokenAnswer };
  };
  let { response, answer } = await send();
  if (dpopKey && tokenEndpointWantsNonce(response, answer.error)) ({ response, answer } = await send());
  if (!response.ok || !answer.access_token)
    throw new Error(`token request failed: ${answer.error_description ?? answer.error ?? response.status}`);
  // token_type DPoP: the token is bound to the key and useless without proofs; Bearer: it is not.
  const bound = answer.token_type?.toLowerCase() === 'dpop';
  if (bound && !dpopKey) throw new Error('token request failed: a DPoP-bound token, but no key was offered');
  return {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token ?? null,
    expiresAt:
      typeof answer.expires_in === 'number'
        ? new Date(deps.now().getTime() + answer.expires_in * 1000)
        : null,
    dpopKey,
    tokenType: bound ? 'DPoP' : 'Bearer',
  };
}
