// `npm run console`: the console alone, as a production Node service (beside a gateway deployed
// with `wrangler deploy`, docs/operations.md#on-cloudflare-wrangler-deploy). It builds the web
// UI when the build is missing or older than its sources (as `npm run serve` does), then runs
// console-server/src/main.ts in this process with the environment as given: DATABASE_URL,
// UPSTASH_REDIS_REST_URL/TOKEN (or REDIS_URL), the secrets... No store bridge and no defaults: the
// console talks to Postgres (node-postgres) and Upstash (REST) or Redis (RESP) itself. With SLUICE_CONSOLE_UI_DIR set, that build is served and nothing
// is built.
import { ensureUiBuild } from './build/ui-build';

if (!process.env.SLUICE_CONSOLE_UI_DIR) {
  try {
    await ensureUiBuild((line) => console.log(line));
  } catch (error) {
    console.error(`sluice: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
await import('../console-server/src/main');
