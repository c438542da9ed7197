import { type Background, detached } from '@sluice/shared/util';
import type { Context } from 'hono';
import type { GatewayEnv } from './types';

/**
 * Runs work after the response: waitUntil on workerd keeps the isolate alive for it. Under
 * app.request() (tests) there is no execution context and the promise simply runs on.
 * Each task is followed by the logger's flush, so app-log lines written before or during it
 * (a warning from the stream's end, say) are stored before the isolate may be frozen.
 */
export function backgroundFor(c: Context<GatewayEnv>): Background {
  return (task) => {
    const { logger } = c.get('deps');
    const logged = task
      .catch((error: unknown) => {
        logger.child('gateway').warn('background task failed', { error: String(error) });
      })
      .then(() => logger.flush());
    try {
      c.executionCtx.waitUntil(logged);
    } catch {
      // No ExecutionContext: Hono's getter throws; `logged` already handles its own failure.
    }
  };
}

/**
 * The request's own waitUntil, as it is: it throws once the request has ended, which is how
 * the trace exporter knows not to start timers there (workerd would never fire them). Without
 * an execution context (app.request() in tests) the work simply runs.
 */
export function liveKeepAlive(c: Context<GatewayEnv>): Background {
  let context: { waitUntil: Background };
  try {
    context = c.executionCtx;
  } catch {
    return detached;
  }
  return (task) => context.waitUntil(task.catch(() => {}));
}
