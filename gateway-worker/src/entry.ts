// The Worker's main module: the request and cron handlers, and the Durable Object class
// `npm run serve` binds for the Redis link. Kept apart from worker.ts, which Node tests import:
// only workerd has the cloudflare:* modules the link needs.
export { RedisLink } from './redis-link-object';
export { default } from './worker';
