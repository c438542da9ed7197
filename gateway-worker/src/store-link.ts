import type { StoreEnv } from '@sluice/shared/config';
import { WARM_PARTS } from '@sluice/shared/gateway';
import {
  createScriptRunner,
  createVersionBoard,
  createWriteBehind,
  readVersionsWith,
  type ScriptRunner,
  type VersionBoard,
  type WriteBehind,
} from '@sluice/shared/runtime';
import type { HotRedis } from '@sluice/shared/stores';
import {
  type Breaker,
  createBreaker,
  createRawUpstash,
  createUpstash,
  StoreUnavailableError,
} from '@sluice/shared/stores';
import { withDeadline } from '@sluice/shared/util';
import type { Redis } from '@upstash/redis';

/** How often a gateway that holds Redis for down asks it again (one PING, off the request path). */
export const REDIS_PROBE_EVERY_MS = 500;

/** What the link reports: a failed call (not repeated while the breaker is open), a breaker move. */
export interface StoreLinkReport {
  failed(what: string, error: unknown): void;
  breaker(open: boolean, error?: unknown): void;
}

/** Flush window of the writes made after responses (token counts, metrics, cache entries). */
export const WRITE_BEHIND_WINDOW_MS = 200;

/**
 * The isolate's Redis: one owner for each round trip of the hot path. `scripts` carries every
 * admission (and later routes' caps), shared between the requests in flight; `writeBehind`
 * carries what is written after responses, one pipeline per window; `board` holds the cache
 * versions those round trips report. `redis` serves everything off the hot path. One breaker
 * guards them all: after a round trip fails, Redis is skipped at no cost until a probe answers.
 */
export interface StoreLink {
  redis: Redis;
  breaker: Breaker;
  scripts: ScriptRunner;
  writeBehind: WriteBehind;
  board: VersionBoard;
}

/**
 * `linked`: the hot path's round trips over the Redis link when the runtime has one (see
 * redis-link-object.ts); without it they go over HTTP as everything else does.
 */
export function buildStoreLink(
  config: StoreEnv,
  report: StoreLinkReport,
  linked?: HotRedis | null,
): StoreLink {
  const rest = {
    url: config.UPSTASH_REDIS_REST_URL,
    token: config.UPSTASH_REDIS_REST_TOKEN,
    timeoutMs: config.SLUICE_STORE_TIMEOUT_MS,
  };
  const hot: HotRedis = linked ?? createRawUpstash(rest);
  const timeoutMs = config.SLUICE_STORE_TIMEOUT_MS;
  const breaker = createBreaker({
    store: 'Redis',
    probe: () => withDeadline(hot.ping(), timeoutMs, 'Redis (probe)'),
    probeEveryMs: REDIS_PROBE_EVERY_MS,
    onChange: (open, error) => report.breaker(open, error),
  });
  // While the breaker is open every call fails the same way; it said so once already.
  const failed = (what: string) => (error: unknown) => {
    if (!(error instanceof StoreUnavailableError)) report.failed(what, error);
  };
  return {
    redis: createUpstash({ ...rest, breaker }),
    breaker,
    scripts: createScriptRunner(hot, { timeoutMs, breaker }),
    writeBehind: createWriteBehind(hot, {
      windowMs: WRITE_BEHIND_WINDOW_MS,
      timeoutMs,
      breaker,
      onError: failed('write-behind'),
    }),
    board: createVersionBoard({
      parts: WARM_PARTS,
      read: readVersionsWith(hot),
      timeoutMs,
      breaker,
      onError: failed('versions'),
    }),
  };
}
