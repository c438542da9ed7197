import type { Context } from 'hono';
import type { GatewayEnv } from './types';

/**
 * Runs work after the response: waitUntil on workerd keeps the isolate alive for it. Under
 * app.request() (tests) there is no execution context and the promise simply runs on.
 */
export function backgroundFor(c: Context<GatewayEnv>): (task: Promise<unknown>) => void {
  return (task) => {
    const logged = task.catch((error: unknown) => {
      console.warn(
        JSON.stringify({
          level: 'WARN',
          target: 'gateway',
          message: 'background task failed',
          error: String(error),
        }),
      );
    });
    try {
      c.executionCtx.waitUntil(logged);
    } catch {
      // No ExecutionContext: Hono's getter throws; `logged` already handles its own failure.
    }
  };
}
