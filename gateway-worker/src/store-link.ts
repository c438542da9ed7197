import type { StoreEnv } from '@sluice/shared/config/env';
import { WARM_PARTS } from '@sluice/shared/gateway/warm-caches';
import { createScriptRunner, type ScriptRunner } from '@sluice/shared/stores/script-pipeline';
import { createRawUpstash, createUpstash } from '@sluice/shared/stores/upstash';
import { createVersionBoard, type VersionBoard } from '@sluice/shared/stores/version-board';
import { createWriteBehind, type WriteBehind } from '@sluice/shared/stores/write-behind';
import type { Redis } from '@upstash/redis';

/** Flush window of the writes made after responses (token counts, metrics, cache entries). */
export const WRITE_BEHIND_WINDOW_MS = 200;

/**
 * The isolate's Redis: one owner for each round trip of the hot path. `scripts` carries every
 * admission (and later routes' caps), shared between the requests in flight; `writeBehind`
 * carries what is written after responses, one pipeline per window; `board` holds the cache
 * versions those round trips report. `redis` serves everything off the hot path.
 */
export interface StoreLink {
  redis: Redis;
  scripts: ScriptRunner;
  writeBehind: WriteBehind;
  board: VersionBoard;
}

export function buildStoreLink(config: StoreEnv, onError: (what: string, error: unknown) => void): StoreLink {
  const rest = {
    url: config.UPSTASH_REDIS_REST_URL,
    token: config.UPSTASH_REDIS_REST_TOKEN,
    timeoutMs: config.SLUICE_STORE_TIMEOUT_MS,
  };
  const hot = createRawUpstash(rest);
  const timeoutMs = config.SLUICE_STORE_TIMEOUT_MS;
  return {
    redis: createUpstash(rest),
    scripts: createScriptRunner(hot, { timeoutMs }),
    writeBehind: createWriteBehind(hot, {
      windowMs: WRITE_BEHIND_WINDOW_MS,
      timeoutMs,
      onError: (error) => onError('write-behind', error),
    }),
    board: createVersionBoard({
      parts: WARM_PARTS,
      read: async (keys) => (await hot.mget<Array<string | null>>(...keys)).map((v) => v ?? ''),
      timeoutMs,
      onError: (error) => onError('versions', error),
    }),
  };
}
