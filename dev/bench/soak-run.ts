/**
 * `npm run bench -- --soak` (or BENCH_SOAK=seconds): the maximum json throughput first (unless
 * BENCH_SOAK_RATE is given), then json at half of it for the soak's length, a line per
 * interval, and a verdict comparing the last interval with the first.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkMachine, describeMachineChecks } from './machine-check';
import { measuredRun, sleep } from './measure-run';
import { gatewayLoad, progressLine } from './report-run';
import type { Session } from './session';
import { runSoak, soakLine } from './soak';
import { soakInterval, soakVerdict } from './soak-verdict';
import { runWrk } from './wrk';

export async function runSoakMode(session: Session, seconds: number): Promise<void> {
  const { options } = session;
  let rate = options.soakRate;
  let maximum = null;
  if (rate === null) {
    if (options.warmupSeconds > 0) {
      await runWrk(gatewayLoad(session, 'json', options.warmupSeconds));
      await sleep(options.settleMs);
    }
    maximum = await measuredRun(gatewayLoad(session, 'json', options.seconds), session.probes);
    console.log(`bench: ${progressLine(session, 'json', 'saturation', maximum)}`);
    rate = Math.max(1, Math.round(maximum.wrk.requestsPerSecond / 2));
  }
  const intervalSeconds = soakInterval(seconds);
  const machineBefore = await checkMachine(session.plan.stack, 1000 / rate);
  console.log(
    `bench: soak, json at ${rate} req/s for ${seconds} s, figures every ${intervalSeconds} s` +
      `${intervalSeconds < 60 ? ' (a sixth of a soak shorter than 3 minutes)' : ''}; RSS and CPU (% of a core) per process`,
  );
  const intervals = await runSoak({
    load: gatewayLoad(session, 'json', intervalSeconds, rate),
    totalSeconds: seconds,
    intervalSeconds,
    readStack: session.probes.readStack,
    onInterval: (interval) => console.log(soakLine(interval, intervalSeconds)),
  });
  const verdict = soakVerdict(intervals, 0.1, session.plan.stack);
  // Before and after, not during: on the stack's CPU it would take from the soak.
  const machine = { before: machineBefore, after: await checkMachine(session.plan.stack, 1000 / rate) };
  const resultsFile = join(options.resultsDir, 'results.json');
  writeFileSync(
    resultsFile,
    `${JSON.stringify({ options, rate, maximum, intervals, verdict, machine }, null, 2)}\n`,
  );
  console.log(
    `\n${verdict.line}\nmachine, before → after the soak: ${describeMachineChecks(machine.before, machine.after)}` +
      `\nraw figures: ${resultsFile}`,
  );
}
