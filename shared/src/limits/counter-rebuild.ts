import type { StoreMarker } from '../db/repos/store-markers-repo';
import type { CountedUsageRow, RequestLogStore } from '../logs/requests/port';
import { directScripts } from '../stores/lua-script';
import type { RedisPort } from '../stores/redis-port';
import { calendarCounters, type ScopeRef } from './counters';
import { COUNTING_SINCE_KEY, EPOCH_KEY } from './counting-since';

export { EPOCH_KEY } from './counting-since';

import { calendarPeriod } from './periods';
import { addToCounters, type CounterAddition } from './sliding-window';
import { summedAdditions } from './summed-additions';
import { type ToolCounterRebuildDeps, toolRebuildAdditions } from './tool-counter-rebuild';

/**
 * Redis keeps the limit counters; when it loses them (restarted without persistence, flushed)
 * the day, week and month counters that budgets and GET /v1/usage read would start again from
 * zero. The request log has what they counted, so they are rebuilt from it.
 *
 * How a loss is told from a first start: a mark (a random id) is kept in Redis under
 * EPOCH_KEY and in Postgres (store_markers.redis_epoch). Both missing: a first start, or an
 * upgrade from a release without the mark; the counters are what they are and the mark is set.
 * Postgres has it and Redis not: Redis lost its data. Then the first counter write after the
 * loss stamped COUNTING_SINCE_KEY (ADMIT and ADD do, counting-since.ts); what the log holds from
 * before that instant is added back: the requests admission let through, and the weighted
 * tokens of the requests that ended before it (the ones ending later were counted live). The
 * rebuild waits `delayMs` past the stamp, for log rows still in the gateways' batches.
 *
 * The tool budgets' counters come back the same way from the MCP call log (tool-counter-rebuild.ts).
 * Sliding windows (1m … 1w rules) are not rebuilt: they refill as requests come.
 */
const LOCK_KEY = 'sluice:rl:rebuild-lock';
/** A rebuild that takes longer than this is taken over by another console. */
const LOCK_MS = 10 * 60_000;
export const DEFAULT_REBUILD_DELAY_MS = 15_000;
/** Counters per ADD call: one script call must not hold Redis for long. */
const ENTRIES_PER_CALL = 500;
const DAY_MS = 86_400_000;

export interface CounterRebuildDeps {
  redis: Pick<RedisPort, 'mget' | 'set' | 'del' | 'eval' | 'evalsha'>;
  log: Pick<RequestLogStore, 'countedUsage'>;
  /** The mark as Postgres keeps it. */
  marker: StoreMarker;
  delayMs: number;
  /** The MCP call log and the limits now: the tool budgets' counters are rebuilt too. */
  tools?: ToolCounterRebuildDeps;
}

export type RebuildOutcome =
  | { state: 'intact' }
  /** A first start (or an upgrade): the mark was set. */
  | { state: 'marked' }
  | { state: 'waiting'; countingSince: number }
  /** Another console is rebuilding. */
  | { state: 'busy' }
  | {
      state: 'rebuilt';
      countingSince: number;
      counters: number;
      requests: number;
      weightedTokens: number;
      toolCalls: number;
    };

/** One look at the counters, rebuilding them when Redis lost them. */
export async function keepCounters(deps: CounterRebuildDeps, nowMs: number): Promise<RebuildOutcome> {
  const [mark = null, stamped = null] = await readTexts(deps.redis, [EPOCH_KEY, COUNTING_SINCE_KEY]);
  const known = await deps.marker.read();
  if (mark !== null) {
    if (known === null) await deps.marker.write(mark);
    return { state: 'intact' };
  }
  if (known === null) {
    const fresh = crypto.randomUUID();
    if ((await deps.redis.set(EPOCH_KEY, fresh, { nx: true })) !== null) await deps.marker.write(fresh);
    return { state: 'marked' };
  }
  const countingSince = await countingSinceOf(deps.redis, stamped, nowMs);
  if (nowMs < countingSince + deps.delayMs) return { state: 'waiting', countingSince };
  const lock = crypto.randomUUID();
  if ((await deps.redis.set(LOCK_KEY, lock, { nx: true, px: LOCK_MS })) === null) return { state: 'busy' };
  try {
    const since = new Date(earliestStart(countingSince));
    const rows = await deps.log.countedUsage({ since, before: new Date(countingSince) });
    const tools = deps.tools
      ? await toolRebuildAdditions(deps.tools, since, countingSince)
      : { additions: [], calls: 0 };
    const additions = [...rebuildAdditions(rows, countingSince), ...tools.additions];
    const run = directScripts(deps.redis);
    for (let i = 0; i < additions.length; i += ENTRIES_PER_CALL) {
      await addToCounters(run, additions.slice(i, i + ENTRIES_PER_CALL), countingSince);
    }
    await deps.redis.set(EPOCH_KEY, known);
    return {
      state: 'rebuilt',
      countingSince,
      counters: additions.length,
      requests: rows.reduce((sum, r) => sum + r.requests, 0),
      weightedTokens: rows.reduce((sum, r) => sum + r.weightedTokens, 0),
      toolCalls: tools.calls,
    };
  } finally {
    await deps.redis.del(LOCK_KEY);
  }
}

/** The Upstash client parses values that look like JSON: numbers come back as numbers. */
async function readTexts(redis: CounterRebuildDeps['redis'], keys: string[]): Promise<Array<string | null>> {
  const values = await redis.mget<unknown[]>(...keys);
  return values.map((v) => (v === null || v === undefined ? null : String(v)));
}

/** No counter written since the loss: everything logged so far is from before it. */
async function countingSinceOf(redis: CounterRebuildDeps['redis'], stamped: string | null, nowMs: number) {
  if (stamped !== null && Number.isFinite(Number(stamped))) return Number(stamped);
  await redis.set(COUNTING_SINCE_KEY, String(nowMs), { nx: true });
  const [now] = await readTexts(redis, [COUNTING_SINCE_KEY]);
  return Number(now ?? nowMs);
}

/** The start of the earliest calendar period that holds `atMs` (a week may start last month). */
function earliestStart(atMs: number): number {
  return Math.min(calendarPeriod('weekly', atMs).startMs, calendarPeriod('monthly', atMs).startMs);
}

/**
 * What goes back on the calendar counters of the periods that hold `countingSince`: each row
 * on its key's counters (when it has a key) and its owner's, summed per counter.
 */
export function rebuildAdditions(rows: readonly CountedUsageRow[], countingSince: number): CounterAddition[] {
  const starts = {
    daily: calendarPeriod('daily', countingSince).startMs,
    weekly: calendarPeriod('weekly', countingSince).startMs,
    monthly: calendarPeriod('monthly', countingSince).startMs,
  };
  const sums = summedAdditions();
  const add = sums.add;
  for (const row of rows) {
    const dayStart = row.day * DAY_MS;
    const scopes: ScopeRef[] = [{ scope: 'user', id: row.userId }];
    if (row.apiKeyId !== null) scopes.push({ scope: 'key', id: row.apiKeyId });
    for (const ref of scopes) {
      const { requests, tokens } = calendarCounters(ref, countingSince);
      if (dayStart >= starts.daily) {
        add(requests.daily, row.requests);
        add(tokens.daily, row.weightedTokens);
      }
      if (dayStart >= starts.weekly) add(tokens.weekly, row.weightedTokens);
      if (dayStart >= starts.monthly) {
        add(requests.monthly, row.requests);
        add(tokens.monthly, row.weightedTokens);
      }
    }
  }
  return sums.list();
}
