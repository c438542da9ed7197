import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { startAuditMirrorJob } from '@sluice/shared/audit';
import { clickhouseTargetFor } from '@sluice/shared/logs/analytics';
import { createConsoleApp } from './app';
import { parseConsoleEnv } from './config';
import { answerClientErrors, connectionOptions } from './connection-limits';
import { buildDeps } from './deps';
import { startCounterKeeper, startKeyJobs, startRetentionJob, startSpillDrainJob } from './jobs';
import { uiStatic } from './ui-static';

const port = Number(process.env.SLUICE_CONSOLE_PORT ?? 3001);
const hostname = process.env.SLUICE_CONSOLE_HOST ?? '127.0.0.1';

const deps = await buildDeps(process.env);
const config = parseConsoleEnv(process.env);
startAuditMirrorJob({ db: deps.db, mirror: deps.auditMirror, logger: deps.logger.child('audit-mirror') }); // no-op without ClickHouse
const stopKeyJobs = startKeyJobs(deps); // API-key expiry, inactivity and automatic rotation
// Log rows that waited in Postgres during a ClickHouse outage go to ClickHouse.
const stopSpillDrain = startSpillDrainJob(
  deps,
  Number(process.env.SLUICE_SPILL_DRAIN_INTERVAL_MS) || undefined,
);
// Hourly: log rows older than data_retention_days, in Postgres and ClickHouse.
// Its own ClickHouse client, so a long DROP/DELETE never waits behind the routes' queries.
const stopRetention = startRetentionJob({
  db: deps.db,
  clickhouse: clickhouseTargetFor(config),
  logger: deps.logger,
});
// Day, week and month limit counters rebuilt from the request log when Redis lost them.
const stopCounterKeeper = startCounterKeeper(deps, config.SLUICE_COUNTER_REBUILD_DELAY_MS);
const ui = uiStatic(process.env.SLUICE_CONSOLE_UI_DIR || undefined);
const app = createConsoleApp(deps, {
  ui,
  remoteAddress: (c) => getConnInfo(c).remote.address,
  trustProxy: process.env.SLUICE_TRUST_PROXY === '1',
});

const bodyTimeoutMs = config.SLUICE_BODY_TIMEOUT_MS;
const serverOptions = connectionOptions(bodyTimeoutMs);
// Printed and stored in the app log, like every line below (a healthy console logs little else).
const lifecycle = deps.logger.child('server');
const server = serve({ fetch: app.fetch, port, hostname, serverOptions }, (info) => {
  lifecycle.info(`console: listening on http://${hostname}:${info.port}`, {
    host: hostname,
    port: info.port,
    web_ui: ui !== undefined,
    analytics: deps.pingAnalytics ? 'clickhouse' : 'postgres',
  });
  if (!ui)
    lifecycle.warn(
      'console: no web UI build found (npm run build -w @sluice/console-ui); serving the API only',
    );
});
answerClientErrors(server as Server);

function shutdown(signal: NodeJS.Signals): void {
  lifecycle.info('console stopping', { signal });
  stopKeyJobs();
  stopSpillDrain();
  stopRetention();
  stopCounterKeeper();
  server.close();
  // The last access records and log lines go out before the stores close (at most ~200 ms).
  void deps
    .flushLogs()
    .finally(() => deps.closeStores())
    .finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 3000).unref();
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
