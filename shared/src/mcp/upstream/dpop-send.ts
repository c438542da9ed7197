import { type DpopKey, dpopProof } from '../oauth/dpop';
import { dpopNonces, resourceWantsNonce } from '../oauth/dpop-nonces';

/**
 * A request with a DPoP-bound token (RFC 9449 § 7): `Authorization: DPoP <token>` and a fresh
 * proof of this request (with `ath` and the server's latest nonce). A 401 asking for a nonce is
 * sent once more with it, so the body is read first: MCP requests are small JSON-RPC messages.
 * `endpoint` names the server whose nonce this is.
 */
export async function sendWithDpop(
  request: Request,
  url: URL,
  token: string,
  key: DpopKey,
  endpoint: string,
  base: typeof fetch,
): Promise<Response> {
  const body = request.body ? await request.arrayBuffer() : null;
  const send = async () => {
    const headers = new Headers(request.headers);
    headers.set('authorization', `DPoP ${token}`);
    const nonce = dpopNonces.get(endpoint);
    headers.set(
      'dpop',
      await dpopProof(key, { method: request.method, url: url.toString(), accessToken: token, nonce }),
    );
    const response = await base(
      new Request(url, {
        method: request.method,
        body,
        headers,
        signal: request.signal,
        redirect: request.redirect,
      }),
    );
    dpopNonces.note(endpoint, response);
    return response;
  };
  const first = await send();
  if (!resourceWantsNonce(first)) return first;
  await first.body?.cancel().catch(() => {});
  return send();
}
