import createClient, { type Middleware } from 'openapi-fetch';
import { sessionStore, type TokenPair } from '../auth/session';
import { toApiError } from './errors';
import type { Page, PageParams } from './paging';
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

/** What an openapi-fetch call settles to. */
interface CallResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a settled call, or the console's error envelope thrown as ApiError. */
function dataOf<T>({ data, error, response }: CallResult<T>): T {
  if (!response.ok) throw toApiError(response.status, error);
  return data as T;
}

/** Resolves the data of a typed call or throws the console's error envelope as ApiError. */
export async function unwrap<T>(call: Promise<CallResult<T>>): Promise<T> {
  return dataOf(await call);
}

/** The header a list answers its total in: the body is only the page's entries. */
const TOTAL_COUNT = 'x-total-count';

/** A list's total from its X-Total-Count; without it the pager could not know the page count. */
function totalCount(response: Response): number {
  const header = response.headers.get(TOTAL_COUNT);
  const total = Number(header);
  if (header === null || header.trim() === '' || !Number.isInteger(total) || total < 0)
    throw new Error(`${response.url} answered a list without a valid X-Total-Count (got ${header})`);
  return total;
}

/**
 * Resolves one page of a list call as the UI's Page: the array body, the total from
 * X-Total-Count, and the offset and limit that were sent (the body no longer echoes them).
 * Failures throw ApiError as with `unwrap`:
 *   usePagedQuery(KEY, (page) => unwrapPage(api.GET('/api/admin/users', { params: { query: page } }), page))
 */
export async function unwrapPage<T>(call: Promise<CallResult<T[]>>, page: PageParams): Promise<Page<T>> {
  const result = await call;
  const entries = dataOf(result);
  return { total: totalCount(result.response), offset: page.offset, limit: page.limit, entries };
}
