import type { ApiKeyAuthRecord } from '../db/repos/api-keys-repo';
import { loadStoredLimits } from '../db/repos/limits-repo';
import { loadActiveMcpCatalogRows } from '../db/repos/mcp-repo';
import { listServableModels, type ServableModel } from '../db/repos/models-repo';
import { loadSettings } from '../db/repos/settings-repo';
import type { QueryDb } from '../db/types';
import { type LimitSubject, type SubjectLimits, subjectLimits } from '../limits/definitions';
import { buildCatalog, type McpCatalog } from '../mcp/gateway/catalog';
import { listPriceRows, toPriceEntry } from '../pricing/repo';
import { type PriceTable, toPriceTable } from '../pricing/types';
import { type ResolvedModel, resolveModelRoutes } from '../routing/resolve';
import { ROUTE_HEALTH_VERSION_KEY } from '../routing/route-health';
import { CACHE_VERSION_KEYS } from '../runtime/cache-versions';
import { createIsolateCache } from '../runtime/isolate-cache';
import type { VersionBoard, VersionBoardOptions } from '../runtime/version-board';
import type { SettingValues } from '../settings/definitions';
import type { Background } from '../util/background';

/** The parts an isolate's caches hang on, with the Redis counters the console moves. */
export const WARM_PARTS: VersionBoardOptions['parts'] = [
  { name: 'keys', key: CACHE_VERSION_KEYS.keys },
  { name: 'routing', key: CACHE_VERSION_KEYS.routing },
  { name: 'limits', key: CACHE_VERSION_KEYS.limits },
  { name: 'settings', key: CACHE_VERSION_KEYS.settings },
  { name: 'mcp', key: CACHE_VERSION_KEYS.mcp },
  // Benching a route drops nothing and makes no admission wait: the bench reloads behind.
  { name: 'health', key: ROUTE_HEALTH_VERSION_KEY, watchOnly: true },
];

/** How long a value serves before a background reload (bounds staleness while Redis is down). */
export const WARM_REFRESH_MS = 30_000;
/**
 * Longest a request waits for a missing value to load (a cold Postgres can take seconds), and
 * the longest a load stays the one later requests join (SLUICE_DB_TIMEOUT_MS in the gateway).
 */
export const WARM_LOAD_WAIT_MS = 15_000;

/**
 * What a gateway isolate keeps from Postgres: key records, model resolutions (with their
 * price-table entries), the servable models (/v1/models), settings, limit definitions and the
 * MCP catalog. Each is served from
 * memory once loaded and refreshed in the background (runtime/isolate-cache.ts); a console
 * change moves its version and drops the part (runtime/version-board.ts).
 */
export interface WarmCaches {
  board: VersionBoard;
  keyRecord(hash: string, background: Background): Promise<ApiKeyAuthRecord | undefined>;
  model(name: string, background: Background): Promise<ResolvedModel | null>;
  /** Every model a request may name, by name: what /v1/models lists (before the caller's filter). */
  servableModels(background: Background): Promise<readonly ServableModel[]>;
  settings(background: Background): Promise<SettingValues>;
  limits(subject: LimitSubject, background: Background): Promise<SubjectLimits>;
  /** The subject's limits when loaded (however old), without loading. */
  peekLimits(subject: LimitSubject): SubjectLimits | undefined;
  mcpCatalog(background: Background): Promise<McpCatalog>;
}

export interface WarmCachesDeps {
  db: QueryDb;
  board: VersionBoard;
  /** The key record behind a hash: the Redis key cache, then Postgres (auth/api-keys/auth-cache.ts). */
  findKey(hash: string, background: Background): Promise<ApiKeyAuthRecord | undefined>;
  refreshAfterMs?: number;
  /** Bounds a request's wait for a load and a load's life (default WARM_LOAD_WAIT_MS). */
  loadWaitMs?: number;
  onError(what: string, error: unknown): void;
}

const limitsKey = ({ keyId, userId, rateLimitRpm }: LimitSubject): string =>
  `${keyId}|${userId}|${rateLimitRpm}`;

export function createWarmCaches(deps: WarmCachesDeps): WarmCaches {
  const { board, db } = deps;
  const cache = <V>(part: string, load: (key: string, background: Background) => Promise<V>) =>
    createIsolateCache<V>({
      part: board.part(part),
      ready: () => board.ready(),
      load,
      refreshAfterMs: deps.refreshAfterMs ?? WARM_REFRESH_MS,
      waitMs: deps.loadWaitMs ?? WARM_LOAD_WAIT_MS,
      onError: (error) => deps.onError(part, error),
    });
  const keys = cache('keys', (hash, background) => deps.findKey(hash, background));
  const prices = cache<PriceTable>('routing', async () =>
    toPriceTable((await listPriceRows(db)).map(toPriceEntry)),
  );
  const models = cache('routing', (name, background) =>
    resolveModelRoutes(db, name, () => prices.get('all', background)),
  );
  const servable = cache('routing', () => listServableModels(db));
  const settings = cache('settings', () => loadSettings(db));
  const limits = cache('limits', async (id) => {
    const [keyId, userId, rpm] = id.split('|') as [string, string, string];
    const subject: LimitSubject = {
      keyId: keyId === 'null' ? null : keyId,
      userId,
      rateLimitRpm: rpm === 'null' ? null : Number(rpm),
    };
    return subjectLimits(await loadStoredLimits(db, subject.keyId, subject.userId), subject);
  });
  const catalog = cache('mcp', async () => {
    const rows = await loadActiveMcpCatalogRows(db);
    return buildCatalog(rows.servers, rows.tools, rows.registeredIds, rows.virtualServers);
  });
  return {
    board,
    keyRecord: (hash, background) => keys.get(hash, background),
    model: (name, background) => models.get(name, background),
    servableModels: (background) => servable.get('all', background),
    settings: (background) => settings.get('all', background),
    limits: (subject, background) => limits.get(limitsKey(subject), background),
    peekLimits: (subject) => limits.peek(limitsKey(subject)),
    mcpCatalog: (background) => catalog.get('catalog', background),
  };
}
