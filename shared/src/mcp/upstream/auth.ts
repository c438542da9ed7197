import type { McpServerTarget } from '../ports';
import { sendWithDpop } from './dpop-send';
import { renewingBearer } from './renewing-bearer';

/**
 * A fetch that carries the server's credential on every request to the server's origin:
 * bearer → `Authorization: Bearer <secret>` (`DPoP <secret>` and a proof when the token is bound
 * to a key); header → `<auth_name>: <secret>`; query → `?<auth_name>=<secret>` (also on the
 * message URL an SSE server hands out). Requests to other origins go out untouched. The secret
 * is never logged: failures are reported with the endpoint as registered.
 */
export function authenticatedFetch(server: McpServerTarget, base: typeof fetch = fetch): typeof fetch {
  const origin = new URL(server.endpointUrl).origin;
  const secret = server.authSecret ?? '';
  // A token Sluice got for itself is fetched again when the server refuses it (once a request).
  const renewing =
    server.authType === 'bearer' && server.renewSecret
      ? renewingBearer(secret, server.renewSecret, base)
      : null;
  return ((input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== origin || server.authType === 'none') return base(request);
    if (server.authType === 'bearer' && server.dpopKey)
      return refusedAs(server, sendWithDpop(request, url, secret, server.dpopKey, server.endpointUrl, base));
    if (renewing) return refusedAs(server, renewing(request, url));
    const headers = new Headers(request.headers);
    if (server.authType === 'bearer') headers.set('authorization', `Bearer ${secret}`);
    if (server.authType === 'header' && server.authName) headers.set(server.authName, secret);
    if (server.authType === 'query' && server.authName) url.searchParams.set(server.authName, secret);
    return refusedAs(server, base(new Request(url, { ...requestInitOf(request), headers })));
  }) as typeof fetch;
}

function requestInitOf(request: Request): RequestInit {
  const init: RequestInit & { duplex?: 'half' } = {
    method: request.method,
    body: request.body,
    signal: request.signal,
    redirect: request.redirect,
  };
  // A streamed body needs half duplex in Node's fetch; workerd ignores the field.
  if (request.body) init.duplex = 'half';
  return init;
}

/**
 * A 401 to a credential the target knows what to do about (onUnauthorized) becomes that; so does
 * a 403 whose challenge says the token's scope is short (step-up authorization).
 */
async function refusedAs(server: McpServerTarget, sent: Promise<Response>): Promise<Response> {
  const response = await sent;
  if (!server.onUnauthorized) return response;
  const challenge = response.headers.get('www-authenticate');
  const stepUp = response.status === 403 && /error\s*=\s*"?insufficient_scope/i.test(challenge ?? '');
  if (response.status !== 401 && !stepUp) return response;
  await response.body?.cancel().catch(() => {});
  return server.onUnauthorized({ status: stepUp ? 403 : 401, scope: challengeScope(challenge) });
}

/** The `scope="…"` of a Bearer challenge, or null. */
export function challengeScope(challenge: string | null): string | null {
  return /\bscope\s*=\s*"([^"]*)"/i.exec(challenge ?? '')?.[1] ?? null;
}
