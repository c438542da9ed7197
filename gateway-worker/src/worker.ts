import { parseStoreEnv } from '@sluice/shared/config';
import { runKeyJobs } from '@sluice/shared/keys';
import { clickhouseTargetFor } from '@sluice/shared/logs/analytics';
import { retentionSummary, runRetention } from '@sluice/shared/retention';
import type { ExecutionContext } from 'hono';
import { createGatewayApp } from './app';
import { buildDeps } from './deps';
import { RETENTION_CRON } from './schedules';
import type { GatewayBindings, GatewayDeps } from './types';

// Dependencies are built once per isolate and reused across requests; bindings do not
// change within an isolate, so the first request's env is the env.
let deps: GatewayDeps | undefined;
let app: ReturnType<typeof createGatewayApp> | undefined;

function depsFor(env: GatewayBindings): GatewayDeps {
  deps ??= buildDeps(env);
  return deps;
}

/** The part of workerd's ScheduledController the handler reads. */
interface ScheduledEvent {
  scheduledTime: number;
  cron: string;
}

export default {
  fetch(request: Request, env: GatewayBindings, ctx: ExecutionContext): Response | Promise<Response> {
    app ??= createGatewayApp(depsFor(env));
    return app.fetch(request, env, ctx);
  },

  /**
   * Cron Triggers (see the commented [triggers] in wrangler.toml), for deployments where no
   * console process runs all the time. RETENTION_CRON removes log rows older than
   * data_retention_days; any other schedule runs the API-key jobs (expiry, inactivity,
   * automatic rotation). Both are safe alongside the console's own timers.
   */
  scheduled(event: ScheduledEvent, env: GatewayBindings, ctx: ExecutionContext): void {
    const { db, redis, logger } = depsFor(env);
    const job =
      event.cron === RETENTION_CRON
        ? runRetention(
            { db, clickhouse: clickhouseTargetFor(parseStoreEnv(env)) },
            new Date(event.scheduledTime),
          ).then(
            (result) => logger.child('retention').info('retention ran', { ...retentionSummary(result) }),
            (error: unknown) => logger.child('retention').error('failed', { error: String(error) }),
          )
        : runKeyJobs({ db, redis, logger }, new Date(event.scheduledTime)).then(
            (result) => logger.child('key-jobs').info('key jobs ran', { cron: event.cron, ...result }),
            (error: unknown) => logger.child('key-jobs').error('failed', { error: String(error) }),
          );
    ctx.waitUntil(job.then(() => logger.flush()));
  },
};
