// `npm run bench`: Sluice's performance report. Starts the stack on spare ports (the
// self-host mode of `npm run serve` by default, BENCH_MODE=start for `npm start`) on real
// stores of its own, configures it through the console API, and drives the gateway with wrk
// against a fake upstream (nginx): throughput, latency, CPU per request of each process, Redis
// commands and store round trips per request, isolate start-up and bundle size. `--soak`:
// a long fixed-rate run instead, with a verdict. Options: `npm run bench -- --help`
// (dev/bench/options.ts). Everything started is stopped at the end and on Ctrl-C.
import { cleanupAll, signalled, stopOnSignals } from './bench/cleanup';
import { benchOptions, HELP, OptionsError } from './bench/options';
import { runReport } from './bench/report-run';
import { openSession } from './bench/session';
import { runSoakMode } from './bench/soak-run';
import { requireTools } from './bench/tools';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
let options: ReturnType<typeof benchOptions>;
try {
  options = benchOptions(process.env, process.argv.slice(2));
} catch (error) {
  if (!(error instanceof OptionsError)) throw error;
  console.error(`bench: ${error.message}`);
  process.exit(2);
}
const tools = requireTools();
if ('missing' in tools) {
  console.error(`bench: ${tools.advice}`);
  process.exit(1);
}
stopOnSignals();
let status = 0;
try {
  const session = await openSession(options, tools);
  if (options.soakSeconds === null) await runReport(session);
  else await runSoakMode(session, options.soakSeconds);
} catch (error) {
  // After Ctrl-C, whatever was running fails as its processes go: not worth a message.
  if (signalled() === null) {
    console.error(
      `bench: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
  status = 1;
} finally {
  await cleanupAll();
}
process.exit(signalled() ?? status);
