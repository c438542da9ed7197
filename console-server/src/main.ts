import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { startAuditMirrorJob } from '@sluice/shared/audit/mirror-job';
import { createConsoleApp } from './app';
import { buildDeps } from './deps';
import { retentionTarget, startKeyJobs, startRetentionJob } from './jobs';
import { uiStatic } from './ui-static';

const port = Number(process.env.SLUICE_CONSOLE_PORT ?? 3001);
const hostname = process.env.SLUICE_CONSOLE_HOST ?? '127.0.0.1';

const deps = await buildDeps(process.env);
startAuditMirrorJob({ db: deps.db, mirror: deps.auditMirror }); // no-op without ClickHouse
const stopKeyJobs = startKeyJobs(deps); // API-key expiry, inactivity and automatic rotation
// Hourly: log rows older than data_retention_days, in Postgres and ClickHouse.
const stopRetention = startRetentionJob({ db: deps.db, clickhouse: retentionTarget(process.env) });
const ui = uiStatic(process.env.SLUICE_CONSOLE_UI_DIR || undefined);
const app = createConsoleApp(deps, {
  ui,
  remoteAddress: (c) => getConnInfo(c).remote.address,
  trustProxy: process.env.SLUICE_TRUST_PROXY === '1',
});

const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  console.log(`console: listening on http://${hostname}:${info.port}`);
  if (!ui)
    console.log('console: no web UI build found (npm run build -w @sluice/console-ui); serving the API only');
});

function shutdown(): void {
  stopKeyJobs();
  stopRetention();
  server.close();
  void deps.pool.end().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 3000).unref();
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
