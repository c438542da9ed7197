import { storeMarker } from '@sluice/shared/db/repos';
import { runKeyJobs } from '@sluice/shared/keys';
import { keepCounters } from '@sluice/shared/limits';
import { type RetentionDeps, retentionSummary, runRetention } from '@sluice/shared/retention';
import type { ConsoleDeps } from './types';

export const KEY_JOBS_INTERVAL_MS = 60_000;

/**
 * Runs the API-key jobs (expiry, inactivity, automatic rotation) on a timer while the
 * console is up. The gateway's Cron Trigger runs the same jobs; both at once is safe.
 * The timer is unref'd so it never keeps the process alive; returns a stop function.
 */
export function startKeyJobs(
  deps: Pick<ConsoleDeps, 'db' | 'redis' | 'logger'>,
  intervalMs = KEY_JOBS_INTERVAL_MS,
): () => void {
  let running = false;
  const tick = async () => {
    // A slow run (a large backlog, a slow store) must not overlap the next one.
    if (running) return;
    running = true;
    try {
      const result = await runKeyJobs(deps, new Date());
      if (result.expired + result.disabled + result.rotated > 0) {
        deps.logger.child('key-jobs').info('key jobs ran', { ...result });
      }
    } catch (error) {
      deps.logger.child('key-jobs').error('failed', { error: String(error) });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

export const RETENTION_INTERVAL_MS = 3_600_000;

/**
 * Removes log rows older than data_retention_days (request, MCP, access and app logs, in
 * Postgres and ClickHouse) once an hour, and once shortly after start. The gateway's Cron
 * Trigger may run the same job; both at once is safe (see shared/src/retention). Unref'd;
 * returns a stop function.
 */
export function startRetentionJob(
  deps: RetentionDeps & Pick<ConsoleDeps, 'logger'>,
  intervalMs = RETENTION_INTERVAL_MS,
  firstRunMs = 60_000,
): () => void {
  let running = false;
  const tick = async () => {
    if (running) return; // a large first purge may outlast the interval
    running = true;
    try {
      const summary = retentionSummary(await runRetention(deps, new Date()));
      if (summary) deps.logger.child('retention').info('old log rows removed', summary);
    } catch (error) {
      deps.logger.child('retention').error('failed', { error: String(error) });
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void tick(), firstRunMs);
  const timer = setInterval(() => void tick(), intervalMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

export const SPILL_DRAIN_INTERVAL_MS = 10_000;

/**
 * Every 10 s: request and MCP log rows the gateways left in Postgres while ClickHouse was
 * unreachable are moved to ClickHouse (a no-op without ClickHouse, or with nothing waiting).
 * One failure is logged per outage, not per run. Unref'd; returns a stop function.
 */
export function startSpillDrainJob(
  deps: Pick<ConsoleDeps, 'drainLogSpill' | 'logger'>,
  intervalMs = SPILL_DRAIN_INTERVAL_MS,
): () => void {
  const drain = deps.drainLogSpill;
  if (!drain) return () => {};
  return everyInterval(intervalMs, {
    run: async () => {
      const moved = await drain();
      if (moved > 0) deps.logger.child('log-spill').info('log rows moved to ClickHouse', { moved });
    },
    onFirstFailure: (error) =>
      deps.logger.child('log-spill').warn('cannot move log rows yet', { error: String(error) }),
  });
}

export const COUNTER_KEEPER_INTERVAL_MS = 5_000;

/**
 * At start and every 5 s: when Redis lost its data, the day, week and month limit counters are
 * rebuilt from the request log, and the tool budgets' from the MCP call log
 * (shared/src/limits/counter-rebuild.ts). Consoles sharing the
 * stores take turns through a lock. One failure is logged per outage. Unref'd; returns a stop
 * function.
 */
export function startCounterKeeper(
  deps: Pick<ConsoleDeps, 'db' | 'redis' | 'requestLogs' | 'mcpLogs' | 'limitsOf' | 'logger'>,
  delayMs: number,
  intervalMs = COUNTER_KEEPER_INTERVAL_MS,
): () => void {
  const log = deps.logger.child('counter-rebuild');
  const keeper = {
    redis: deps.redis,
    log: deps.requestLogs,
    marker: storeMarker(deps.db, 'redis_epoch'),
    delayMs,
    tools: { log: deps.mcpLogs, limitsOf: deps.limitsOf },
  };
  return everyInterval(
    intervalMs,
    {
      run: async () => {
        const outcome = await keepCounters(keeper, Date.now());
        if (outcome.state === 'rebuilt')
          log.warn('Redis lost its data: limit counters rebuilt from the request log', outcome);
      },
      onFirstFailure: (error) =>
        log.error('limit counters could not be checked or rebuilt', { error: String(error) }),
    },
    { atStart: true },
  );
}

/**
 * Runs `run` every `intervalMs` (and at once with atStart), never two at a time: a slow run
 * (a large backlog, a slow store) must not overlap the next. One failure is reported per
 * outage, not per run. The timer is unref'd; returns a stop function.
 */
function everyInterval(
  intervalMs: number,
  job: { run(): Promise<void>; onFirstFailure(error: unknown): void },
  options: { atStart?: boolean } = {},
): () => void {
  let running = false;
  let failing = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await job.run();
      failing = false;
    } catch (error) {
      if (!failing) job.onFirstFailure(error);
      failing = true;
    } finally {
      running = false;
    }
  };
  if (options.atStart) void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
