// `npm run serve`: Sluice's self-host mode. The gateway on `workerd serve` (config generated
// from wrangler.toml), the console on Node, the store bridge in this process, on real
// Postgres/Redis (and ClickHouse when configured). SIGINT/SIGTERM stop everything.
import { runUntilStopped } from './process/supervise';
import { ServeConfigError, serveOptionsFromEnv } from './serve-options';
import { startServe } from './serve-stack';

let options: ReturnType<typeof serveOptionsFromEnv>;
try {
  options = serveOptionsFromEnv(process.env);
} catch (error) {
  if (!(error instanceof ServeConfigError)) throw error;
  console.error(`sluice: ${error.message}`);
  process.exit(2);
}
await runUntilStopped(() => startServe(options));
