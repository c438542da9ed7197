import { runKeyJobs } from '@sluice/shared/keys/lifecycle-jobs';
import type { ExecutionContext } from 'hono';
import { createGatewayApp } from './app';
import { buildDeps } from './deps';
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
   * Cron Trigger (see the commented [triggers] in wrangler.toml): expiry, inactivity and
   * automatic rotation of API keys, for deployments where no console process runs all the
   * time. Safe alongside the console's own timer: each transition happens at most once.
   */
  scheduled(event: ScheduledEvent, env: GatewayBindings, ctx: ExecutionContext): void {
    const { db, redis, logger } = depsFor(env);
    const log = logger.child('key-jobs');
    const job = runKeyJobs({ db, redis }, new Date(event.scheduledTime)).then(
      (result) => log.info('key jobs ran', { cron: event.cron, ...result }),
      (error: unknown) => log.error('failed', { error: String(error) }),
    );
    ctx.waitUntil(job.then(() => logger.flush()));
  },
};
