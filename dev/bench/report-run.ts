/**
 * The default `npm run bench`: per request kind, warm-up, a saturation run and a fixed-rate
 * run; then isolate start-up; then the request log check, the report and results.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requestLogRows } from './bench-stores';
import { type IsolateFigures, measureIsolateStart } from './isolate-start';
import { checkMachine, describeMachineChecks } from './machine-check';
import { idleCpu, measuredRun, type RunFigures, sleep } from './measure-run';
import { type LoadMode, PAYLOADS } from './payloads';
import { ticksPerSecond } from './proc';
import { formatReport, type ModeFigures, type ReportInput, type ReportMeta, roleLabels } from './report';
import type { Session } from './session';
import { num } from './table';
import { runWrk, type WrkLoad } from './wrk';

/** The wrk load of a request kind against the gateway; closed loop unless a rate is given. */
export function gatewayLoad(session: Session, mode: LoadMode, seconds: number, rate = 0): WrkLoad {
  return {
    url: `${session.stack.gatewayUrl}/v1/chat/completions`,
    bodyFile: PAYLOADS[mode],
    auth: `Bearer ${session.setup.apiKey}`,
    stream: mode === 'stream',
    connections: session.options.connections,
    seconds,
    rate,
    cpus: session.plan.load,
  };
}

export function progressLine(session: Session, mode: LoadMode, load: string, run: RunFigures): string {
  const labels = roleLabels(session.options.mode);
  const cpu = (['gateway', 'bridge', 'console', 'other'] as const)
    .map((role) => `${labels[role].split(' (')[0]} ${num(run.cpuUsPerRequest[role])}`)
    .join(', ');
  return (
    `${mode} ${load}: ${num(run.wrk.requestsPerSecond)} req/s, p50 ${num(run.wrk.p50Ms)} ms, p99 ${num(run.wrk.p99Ms)} ms, ` +
    `failed ${run.wrk.errors + run.wrk.non2xx}; CPU µs/req ${cpu}; Redis ${num(run.redis.perRequest)} commands ` +
    `(${num(run.redis.evalshaPerRequest)} EVALSHA); round trips Redis ${num(run.linkRoundTrips)} link + ${num(run.bridge.upstash_requests)} bridge, ` +
    `Postgres ${num(run.bridge.sql_requests)}`
  );
}

/**
 * Notes a reader must see next to the figures: failures, a missed rate, other Redis clients,
 * other processes on the stack's CPU (more than Redis and the kernel take there).
 */
function runNotes(
  mode: LoadMode,
  load: string,
  run: RunFigures,
  rate: number,
  stackCpu: string | null,
): string[] {
  const notes: string[] = [];
  const busy = stackCpu === null ? undefined : run.cpuBusy[stackCpu];
  const own = run.cores.gateway + run.cores.bridge + run.cores.console + run.cores.other;
  if (busy !== undefined && busy - own > 0.15) {
    notes.push(
      `${mode} ${load}: CPU ${stackCpu} was ${(busy * 100).toFixed(0)} % busy, the stack used ${(own * 100).toFixed(0)} % of it: ` +
        'other processes competed with the stack, so its figures are perturbed',
    );
  }
  const failed = run.wrk.errors + run.wrk.non2xx;
  if (failed > 0)
    notes.push(
      `${mode} ${load}: ${failed} failed requests (${run.wrk.non2xx} non-2xx): figures include them`,
    );
  if (rate > 0 && run.wrk.requestsPerSecond < rate * 0.95) {
    notes.push(`${mode} ${load}: only ${num(run.wrk.requestsPerSecond)} req/s of the ${rate} asked`);
  }
  if (run.redisOthers.length > 0) {
    notes.push(
      `${mode} ${load}: other Redis clients ran commands during the run (${run.redisOthers.join('; ')}): ` +
        'the Redis command counts include theirs (BENCH_REDIS_URL can point at a Redis of its own)',
    );
  }
  return notes;
}

export async function runReport(session: Session): Promise<void> {
  const { options } = session;
  const modes: Partial<Record<LoadMode, ModeFigures>> = {};
  const notes = [...session.notes];
  let sent = 3; // the preflight's requests
  await sleep(options.settleMs);
  const idle = await idleCpu(session.probes, 3000);
  const checkGapMs = 1000 / options.rate; // BENCH_RATE is at least 1
  const machineBefore = await checkMachine(session.plan.stack, checkGapMs);
  console.log(`bench: machine check on the stack's CPU, ${describeMachineChecks(machineBefore, null)}`);
  for (const mode of options.modes) {
    if (options.warmupSeconds > 0) {
      sent += (await runWrk(gatewayLoad(session, mode, options.warmupSeconds))).requests;
      await sleep(options.settleMs);
    }
    const saturation = await measuredRun(gatewayLoad(session, mode, options.seconds), session.probes);
    console.log(`bench: ${progressLine(session, mode, 'saturation', saturation)}`);
    const fixedRate = await measuredRun(
      gatewayLoad(session, mode, options.rateSeconds, options.rate),
      session.probes,
    );
    console.log(`bench: ${progressLine(session, mode, `${options.rate}/s`, fixedRate)}`);
    sent += saturation.wrk.requests + fixedRate.wrk.requests;
    const stackCpu = session.plan.stack;
    notes.push(
      ...runNotes(mode, 'saturation', saturation, 0, stackCpu),
      ...runNotes(mode, `${options.rate}/s`, fixedRate, options.rate, stackCpu),
    );
    modes[mode] = { saturation, fixedRate };
  }
  const machine = { before: machineBefore, after: await checkMachine(session.plan.stack, checkGapMs) };
  let isolate: IsolateFigures | null = null;
  if (options.isolateRuns > 0) {
    console.log(`bench: isolate start-up, ${options.isolateRuns} fresh workerd starts of each worker`);
    isolate = await measureIsolateStart({
      buildDir: session.buildDir,
      settings: await readSettings(),
      appEnv: session.stack.appEnv,
      apiKey: session.setup.apiKey,
      cpus: session.plan.stack,
      runs: options.isolateRuns,
      workDir: options.resultsDir,
    });
    sent += 2 * options.isolateRuns;
  }
  await sleep(Math.max(1500, options.settleMs)); // the last log batch (≤ 500 ms) lands
  const logRows = { rows: await requestLogRows(session.stores), sent };
  const resultsFile = join(options.resultsDir, 'results.json');
  const input: ReportInput = {
    meta: reportMeta(session),
    modes,
    isolate,
    idle,
    machine,
    logRows,
    notes,
    resultsFile,
  };
  writeFileSync(resultsFile, `${JSON.stringify({ options, ...input }, null, 2)}\n`);
  console.log(`\n${formatReport(input)}`);
}

async function readSettings() {
  const { readWorkerSettings } = await import('../../self-host/build/worker-settings');
  return readWorkerSettings();
}

/** What the bench pinned where; a CPU list such as "2-3" is shown as given. */
function cpuUse(session: Session): Record<string, string> {
  const { load, stack } = session.plan;
  if (load === null || stack === null) return {};
  return { [load]: 'wrk + fake upstream', [stack]: 'stack' };
}

export function reportMeta(session: Session): ReportMeta {
  const { options, stores } = session;
  const log = stores.clickhouse ? `ClickHouse ${stores.clickhouse.database}` : 'Postgres';
  return {
    mode: options.mode,
    pinning: `${session.plan.cores} cores, ${session.plan.note}`,
    cpuUse: cpuUse(session),
    versions: session.versions,
    stores: `stores: Postgres ${new URL(stores.databaseUrl).pathname.slice(1)}, Redis ${stores.redisUrl}, request log in ${log}; response cache off, limits on key and role`,
    connections: options.connections,
    seconds: options.seconds,
    rate: options.rate,
    rateSeconds: options.rateSeconds,
    warmupSeconds: options.warmupSeconds,
    settleMs: options.settleMs,
    ticksPerSecond: ticksPerSecond(),
  };
}
