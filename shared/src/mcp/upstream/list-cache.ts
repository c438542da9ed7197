import { sha256Hex } from '../../util/encoding';
import { type CacheHints, type CacheScope, cacheHintsOf, type ListMethod } from '../cache-hints';
import type { McpResult } from '../ports';

/**
 * Upstream list results kept as long as their caching hints allow (cache-hints.ts): in the
 * isolate, and in Redis so that every isolate and gateway process shares them. A public result
 * serves every caller; a private one only the user (and credential) it was fetched with. Keys
 * carry the registry's version (sluice:mcp:version), so a server edited or removed in the
 * console is fetched afresh at once; the old entries expire on their own.
 */
export interface ListRequest {
  serverId: string;
  method: ListMethod;
  /** The page asked for; null for the first. */
  cursor: string | null;
  /** The user the request is made for. */
  userId: string;
  /** The credential the server is called with (its secret, or the user's own token). */
  credential: string | null;
}

/** A kept result, its ttlMs being what is left of it. */
export interface CachedList extends CacheHints {
  result: McpResult;
}

export interface ListLookup {
  cached: CachedList | null;
  /** Keeps the server's fresh result as its hints allow (never rejects); answers the hints. */
  keep(result: McpResult): Promise<CacheHints>;
}

export interface UpstreamListCache {
  /** The fresh result kept for this request (a public one, or this user's private one). */
  lookup(request: ListRequest): Promise<ListLookup>;
}

/** Redis as the cache uses it: one MGET per lookup, one SET with PX per kept result. */
export interface ListCacheStore {
  mget(keys: string[]): Promise<unknown[]>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

export interface ListCacheOptions {
  store: ListCacheStore;
  /** sluice:mcp:version as last read; null while unknown (nothing is cached then). */
  version(): string | null;
  /** Told when that version moves: the isolate's entries are dropped. */
  onVersionChange(listener: () => void): void;
  now?: () => number;
  /** Bounds of the isolate's share: entries, and their JSON size all together. */
  maxEntries?: number;
  maxChars?: number;
  onError?(error: unknown): void;
}

export const LIST_CACHE_PREFIX = 'sluice:mcp:list:';
/** A result larger than this (as JSON) is not kept anywhere. */
export const MAX_KEPT_LIST_CHARS = 1_000_000;

interface Entry {
  result: McpResult;
  fetchedAt: number;
  ttlMs: number;
  cacheScope: CacheScope;
}

interface IsolateEntry extends Entry {
  chars: number;
}

/** Both places a result may be kept for a request, public first. */
async function keysOf(version: string, request: ListRequest): Promise<Record<CacheScope, string>> {
  const cursor = request.cursor === null ? '-' : (await sha256Hex(request.cursor)).slice(0, 32);
  const credential = (await sha256Hex(request.credential ?? '')).slice(0, 16);
  const base = `${LIST_CACHE_PREFIX}${version}:${request.serverId}:${request.method}:${cursor}`;
  return { public: `${base}:public`, private: `${base}:user:${request.userId}:${credential}` };
}

function decode(raw: unknown): Entry | null {
  let value = raw;
  // The Upstash client parses JSON values on the way out; a raw string is taken too.
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  const entry = value as Partial<Entry> | null;
  if (
    typeof entry !== 'object' ||
    entry === null ||
    typeof entry.result !== 'object' ||
    entry.result === null ||
    typeof entry.fetchedAt !== 'number' ||
    typeof entry.ttlMs !== 'number' ||
    (entry.cacheScope !== 'public' && entry.cacheScope !== 'private')
  )
    return null;
  return entry as Entry;
}

export function createUpstreamListCache(options: ListCacheOptions): UpstreamListCache {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 1_000;
  const maxChars = options.maxChars ?? 8_000_000;
  const kept = new Map<string, IsolateEntry>();
  let keptChars = 0;
  // Server and method whose last result here was not reusable: no store lookup for them until
  // one is (the next result is fetched and looked at anyway).
  const uncacheable = new Set<string>();
  const drop = (key: string) => {
    const entry = kept.get(key);
    if (!entry) return;
    kept.delete(key);
    keptChars -= entry.chars;
  };
  options.onVersionChange(() => {
    kept.clear();
    keptChars = 0;
    uncacheable.clear();
  });

  const left = (entry: Entry) => entry.fetchedAt + entry.ttlMs - now();
  const served = (entry: Entry): CachedList => {
    const ttlMs = left(entry);
    return { result: { ...entry.result, ttlMs }, ttlMs, cacheScope: entry.cacheScope };
  };
  const keepHere = (key: string, entry: Entry, chars: number) => {
    drop(key);
    if (chars > maxChars / 4) return;
    while (kept.size > 0 && (kept.size >= maxEntries || keptChars + chars > maxChars)) {
      const oldest = kept.keys().next().value;
      if (oldest === undefined) break;
      drop(oldest);
    }
    kept.set(key, { ...entry, chars });
    keptChars += chars;
  };
  const fromIsolate = (key: string): Entry | null => {
    const entry = kept.get(key);
    if (!entry) return null;
    if (left(entry) > 0) return entry;
    drop(key);
    return null;
  };
  const fromStore = async (keys: Record<CacheScope, string>): Promise<CachedList | null> => {
    const order = [keys.public, keys.private];
    const values = await options.store.mget(order).catch((error: unknown) => {
      options.onError?.(error);
      return [];
    });
    for (const [i, raw] of values.entries()) {
      const entry = decode(raw);
      const key = order[i];
      if (!entry || key === undefined || left(entry) <= 0) continue;
      keepHere(key, entry, JSON.stringify(entry.result).length);
      return served(entry);
    }
    return null;
  };

  return {
    async lookup(request) {
      const version = options.version();
      const skip: ListLookup = { cached: null, keep: async (result) => cacheHintsOf(result) };
      if (version === null) return skip;
      const keys = await keysOf(version, request);
      const here = fromIsolate(keys.public) ?? fromIsolate(keys.private);
      if (here) return { ...skip, cached: served(here) };
      const kind = `${request.serverId}\n${request.method}`;
      const cached = uncacheable.has(kind) ? null : await fromStore(keys);
      return {
        cached,
        async keep(result) {
          const hints = cacheHintsOf(result);
          const json = JSON.stringify(result);
          if (hints.ttlMs === 0 || json.length > MAX_KEPT_LIST_CHARS) {
            if (uncacheable.size >= 10_000) uncacheable.clear();
            uncacheable.add(kind);
            return hints;
          }
          uncacheable.delete(kind);
          // The registry moved while this was fetched: it may predate the change, so it is not kept.
          if (options.version() !== version) return hints;
          const entry: Entry = { result, fetchedAt: now(), ...hints };
          const key = keys[hints.cacheScope];
          keepHere(key, entry, json.length);
          await options.store
            .set(key, JSON.stringify(entry), hints.ttlMs)
            .catch((error: unknown) => options.onError?.(error));
          return hints;
        },
      };
    },
  };
}

/**
 * A list request through the cache: the result kept for it, else `fetch`'s, kept as its hints
 * allow. Without a cache or a request (no user to keep a private result for) simply `fetch`.
 */
export async function throughListCache(
  cache: UpstreamListCache | undefined,
  request: ListRequest | null,
  fetch: () => Promise<McpResult>,
): Promise<CachedList> {
  if (!cache || !request) {
    const result = await fetch();
    return { result, ...cacheHintsOf(result) };
  }
  const lookup = await cache.lookup(request);
  if (lookup.cached) return lookup.cached;
  const result = await fetch();
  return { result, ...(await lookup.keep(result)) };
}
