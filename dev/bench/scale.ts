// `npm run bench:scale`: the console and gateway at scale, in two suites (options:
// scale-options.ts, `-- --help`). analytics (scale-analytics.ts): 30 days of 20M request-log
// rows in ClickHouse under the console's analytics and log queries. platform
// (scale-platform.ts): 100,000 API keys, 1,000 models and 1,000 MCP tools in Postgres under the
// gateway, MCP and every console list endpoint. `--suite all` (the default) runs both in turn.
import { cleanupAll, stopOnSignals } from './cleanup';
import { SCALE_HELP, type ScaleOptions, scaleOptions } from './scale-options';

const argv = process.argv.slice(2);
if (argv.includes('--help')) {
  console.log(SCALE_HELP);
  process.exit(0);
}
let options: ScaleOptions;
try {
  options = scaleOptions(argv);
} catch (error) {
  console.error(`bench:scale: ${error instanceof Error ? error.message : String(error)}\n\n${SCALE_HELP}`);
  process.exit(2);
}
stopOnSignals();
try {
  if (options.suites.includes('analytics')) await import('./scale-analytics');
  if (options.suites.includes('platform'))
    await (await import('./scale-platform')).runPlatformSuite(options.platform);
} finally {
  await cleanupAll();
}
