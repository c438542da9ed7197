import * as z from 'zod';
import type { ApiKeyAuthRecord } from '../../db/repos/api-keys-repo';
import { API_KEY_STATUSES } from '../../db/schema/api-keys';
import { USER_ROLES } from '../../db/schema/users';
import { AppError } from '../../http/app-error';
import { errorText, type Logger } from '../../logs/server/logger';
import { CACHE_VERSION_KEYS } from '../../runtime/cache-versions';
import { StoreUnavailableError } from '../../stores/breaker';
import type { RedisPort } from '../../stores/redis-port';
import type { Background } from '../../util/background';

/**
 * Read-through cache of the gateway's key lookup: `sluice:apikey:<sha256>` holds the auth
 * record (or a negative marker for a hash no key has), so a request costs one Redis GET
 * instead of a Postgres query.
 *
 * Invalidation writes a short-lived tombstone instead of deleting the entry. A plain DEL
 * races with a gateway that read Postgres just before the change and fills the cache just
 * after it, which would serve the old record for a whole TTL. Fills use SET NX, so they
 * cannot overwrite a tombstone, and readers treat a tombstone as a miss that goes to
 * Postgres without filling. The tombstone only has to outlive one in-flight lookup.
 */

export const KEY_CACHE_PREFIX = 'sluice:apikey:';
export const KEY_CACHE_TTL_SECONDS = 60;
export const KEY_CACHE_NEGATIVE_TTL_SECONDS = 30;
export const KEY_CACHE_TOMBSTONE_TTL_SECONDS = 10;

export type KeyCachePort = Pick<RedisPort, 'get' | 'set'>;
export type KeyLoader = (hash: string) => Promise<ApiKeyAuthRecord | undefined>;

export const keyCacheKey = (hash: string): string => `${KEY_CACHE_PREFIX}${hash}`;

const date = z.iso.datetime().transform((s) => new Date(s));
const recordSchema: z.ZodType<ApiKeyAuthRecord> = z.object({
  id: z.string(),
  userId: z.string(),
  userRole: z.enum(USER_ROLES),
  userActive: z.boolean(),
  keyHash: z.string(),
  previousKeyHash: z.string().nullable(),
  status: z.enum(API_KEY_STATUSES),
  allowedModels: z.array(z.string()).nullable(),
  rateLimitRpm: z.number().int().nullable(),
  expiresAt: date.nullable(),
  gracePeriodEndsAt: date.nullable(),
  lastUsedAt: date.nullable(),
  inactivityTimeoutDays: z.number().int().nullable(),
  createdAt: date,
});
const entrySchema = z.union([
  z.object({ v: z.literal(1), stale: z.literal(true) }),
  z.object({ v: z.literal(1), record: recordSchema.nullable() }),
]);

const TOMBSTONE = JSON.stringify({ v: 1, stale: true });

type CacheRead =
  | { kind: 'hit'; record: ApiKeyAuthRecord | null }
  | { kind: 'stale' }
  | { kind: 'miss' }
  | { kind: 'unavailable' };

/** Dates go out as ISO strings (JSON) and come back as Dates; anything malformed is a miss. */
export function decodeEntry(raw: unknown): CacheRead {
  if (raw === null || raw === undefined) return { kind: 'miss' };
  let value = raw;
  // The Upstash client parses JSON on the way out; accept the raw string too.
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return { kind: 'miss' };
    }
  }
  const parsed = entrySchema.safeParse(value);
  if (!parsed.success) return { kind: 'miss' };
  return 'stale' in parsed.data ? { kind: 'stale' } : { kind: 'hit', record: parsed.data.record };
}

export function encodeEntry(record: ApiKeyAuthRecord | null): string {
  return JSON.stringify({ v: 1, record });
}

async function readEntry(
  redis: KeyCachePort,
  hash: string,
  logger: Pick<Logger, 'warn'>,
): Promise<CacheRead> {
  try {
    return decodeEntry(await redis.get<unknown>(keyCacheKey(hash)));
  } catch (error) {
    // Redis is an accelerator here: when it is down, authentication still works from Postgres.
    if (error instanceof StoreUnavailableError) return { kind: 'unavailable' };
    logger.warn('key cache read failed', { error: errorText(error) });
    return { kind: 'unavailable' };
  }
}

async function fillEntry(redis: KeyCachePort, hash: string, record: ApiKeyAuthRecord | null): Promise<void> {
  const ex = record ? KEY_CACHE_TTL_SECONDS : KEY_CACHE_NEGATIVE_TTL_SECONDS;
  await redis.set(keyCacheKey(hash), encodeEntry(record), { nx: true, ex });
}

export interface KeyAuthCache {
  find(hash: string, background: Background): Promise<ApiKeyAuthRecord | undefined>;
}

/** Redis first; on a miss, Postgres, and the cache is filled in the background. */
export function createKeyAuthCache(
  redis: KeyCachePort,
  load: KeyLoader,
  logger: Pick<Logger, 'warn'>,
): KeyAuthCache {
  return {
    async find(hash, background) {
      const cached = await readEntry(redis, hash, logger);
      if (cached.kind === 'hit') return cached.record ?? undefined;
      const record = await load(hash);
      if (cached.kind === 'miss') background(fillEntry(redis, hash, record ?? null));
      return record;
    },
  };
}

/**
 * Makes the gateway's next lookup of each hash go to Postgres, and every isolate drop the key
 * records it holds. Callers pass both the current and the previous hash of every key they
 * change, inside the transaction, and commit with commitThenBump(…, ['keys'], …): an isolate
 * that reloaded a key between the two read the old row. Throws a 503 when Redis cannot be
 * reached, so the change is rolled back rather than left half-visible.
 */
export async function invalidateKeyHashes(
  redis: Pick<RedisPort, 'set' | 'incr'>,
  hashes: ReadonlyArray<string | null | undefined>,
): Promise<void> {
  const unique = [...new Set(hashes.filter((h): h is string => typeof h === 'string' && h !== ''))];
  try {
    await Promise.all([
      ...unique.map((h) => redis.set(keyCacheKey(h), TOMBSTONE, { ex: KEY_CACHE_TOMBSTONE_TTL_SECONDS })),
      redis.incr(CACHE_VERSION_KEYS.keys),
    ]);
  } catch (error) {
    throw new AppError(503, 'The API key cache is unavailable; nothing was changed', { cause: error });
  }
}
