import createClient, { type Middleware } from 'openapi-fetch';
import { sessionStore, type TokenPair } from '../auth/session';
import { toApiError } from './errors';
import type { paths } from './schema.gen';

/**
 * The typed console client: every path, parameter and body comes from the generated
 * OpenAPI types. Call it through `unwrap` so failures throw ApiError:
 *   const keys = await unwrap(api.GET('/api/keys'));
 */
export const api = createClient<paths>({ baseUrl: window.location.origin });

const PUBLIC_AUTH = /\/api\/(auth\/(login|refresh|register|sso\/)|setup\/)/;
const retries = new WeakMap<Request, Request>();
let refreshing: Promise<boolean> | null = null;

/** One refresh at a time: parallel 401s wait for the same new pair. */
function refreshOnce(): Promise<boolean> {
  refreshing ??= (async () => {
    const session = sessionStore.get();
    if (!session) return false;
    const response = await fetch('/api/auth/refresh', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: session.refresh_token }),
    });
    if (!response.ok) return false;
    sessionStore.replaceTokens((await response.json()) as TokenPair);
    return true;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

const auth: Middleware = {
  onRequest({ request }) {
    const token = sessionStore.get()?.access_token;
    if (token && !PUBLIC_AUTH.test(request.url)) request.headers.set('authorization', `Bearer ${token}`);
    retries.set(request, request.clone());
    return request;
  },
  async onResponse({ request, response }) {
    if (response.status !== 401 || PUBLIC_AUTH.test(request.url) || !sessionStore.get()) return response;
    const retry = retries.get(request);
    // The access token expired: refresh and replay once, so the page keeps its state.
    if (retry && (await refreshOnce())) {
      retry.headers.set('authorization', `Bearer ${sessionStore.get()?.access_token}`);
      const replayed = await fetch(retry);
      if (replayed.status !== 401) return replayed;
    }
    sessionStore.set(null); // the refresh token is gone too: back to the sign-in page
    return response;
  },
};
api.use(auth);

/** Resolves the data of a typed call or throws the console's error envelope as ApiError. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw toApiError(response.status, error);
  return data as T;
}
