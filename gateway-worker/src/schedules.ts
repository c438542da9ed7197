/**
 * The Cron Trigger schedule (wrangler.toml [triggers]) that runs log retention; keep the two in
 * step. Not in worker.ts: workerd takes every named export of the entrypoint for a handler.
 */
export const RETENTION_CRON = '17 * * * *';
