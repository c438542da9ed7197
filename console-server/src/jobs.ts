import { runKeyJobs } from '@sluice/shared/keys/lifecycle-jobs';
import type { ConsoleDeps } from './types';

export const KEY_JOBS_INTERVAL_MS = 60_000;

/**
 * Runs the API-key jobs (expiry, inactivity, automatic rotation) on a timer while the
 * console is up. The gateway's Cron Trigger runs the same jobs; both at once is safe.
 * The timer is unref'd so it never keeps the process alive; returns a stop function.
 */
export function startKeyJobs(
  deps: Pick<ConsoleDeps, 'db' | 'redis'>,
  intervalMs = KEY_JOBS_INTERVAL_MS,
): () => void {
  let running = false;
  const tick = async () => {
    // A slow run (a large backlog, a slow store) must not overlap the next one.
    if (running) return;
    running = true;
    try {
      const result = await runKeyJobs({ db: deps.db, redis: deps.redis }, new Date());
      if (result.expired + result.disabled + result.rotated > 0) {
        console.log(JSON.stringify({ level: 'INFO', target: 'key-jobs', ...result }));
      }
    } catch (error) {
      console.error(
        JSON.stringify({ level: 'ERROR', target: 'key-jobs', message: 'failed', error: String(error) }),
      );
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
