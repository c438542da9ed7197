/**
 * Work that runs after the response: the caller hands over a promise it does not wait for, and
 * the runtime keeps it alive (waitUntil on workerd; on Node the promise simply runs on). A batch
 * a caller opens, a cache refresh, a log row: each goes to the request's Background.
 */
export type Background = (work: Promise<unknown>) => void;

/**
 * Background for callers with no waitUntil of their own (a cache warmed outside a request, a
 * limiter without a request): the work runs on, and its failure is left to whoever wrapped it.
 */
export const detached: Background = (work) => void work.catch(() => undefined);
