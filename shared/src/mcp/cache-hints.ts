import type { McpResult, UpstreamList } from './ports';

/**
 * The caching hints of the stateless revision (2026-07-28, SEP-2549) on list results: `ttlMs`,
 * how long a result may be reused, and `cacheScope`, `public` (the same for every caller) or
 * `private` (for the caller it was fetched for alone).
 */
export const LIST_METHODS = [
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
] as const;
export type ListMethod = (typeof LIST_METHODS)[number];
export type CacheScope = 'public' | 'private';

export interface CacheHints {
  ttlMs: number;
  cacheScope: CacheScope;
}

export const isListMethod = (method: string): method is ListMethod =>
  (LIST_METHODS as readonly string[]).includes(method);

/** Longest the gateway keeps a list, whatever its server says: a registry change drops it anyway. */
export const MAX_LIST_TTL_MS = 24 * 60 * 60_000;

/**
 * What a result's hints allow. An absent, negative or non-numeric ttlMs is 0 (not reused), as
 * the revision says; a result that is not complete (an input-required round) is never reused; a
 * cacheScope other than `public` is private, the safe reading of a server that did not say.
 */
export function cacheHintsOf(result: McpResult): CacheHints {
  const ttl = result.ttlMs;
  const complete = result.resultType === undefined || result.resultType === 'complete';
  const ttlMs =
    complete && typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0
      ? Math.min(Math.floor(ttl), MAX_LIST_TTL_MS)
      : 0;
  return { ttlMs, cacheScope: result.cacheScope === 'public' ? 'public' : 'private' };
}

/**
 * The hints of a list the gateway composes from servers' lists: fresh as long as its least fresh
 * part (a part without hints, or a server left out because it failed, is 0), and private when
 * any part is private or when what the list holds depends on the caller (`forCaller`).
 */
export function composedHints(parts: readonly UpstreamList[], forCaller: boolean): CacheHints {
  if (parts.length === 0) return { ttlMs: 0, cacheScope: 'private' };
  const ttlMs = Math.min(...parts.map((p) => p.ttlMs ?? 0));
  const shared = !forCaller && parts.every((p) => p.cacheScope === 'public');
  return { ttlMs, cacheScope: shared ? 'public' : 'private' };
}

/** A result as a session-era client gets it: the revision's hints are not part of its protocol. */
export function withoutCacheHints(result: McpResult): McpResult {
  if (!('ttlMs' in result) && !('cacheScope' in result)) return result;
  const { ttlMs: _ttl, cacheScope: _scope, ...rest } = result;
  return rest;
}
