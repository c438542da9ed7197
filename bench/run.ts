// `npm run bench:peers [-- NAME]`: Sluice side by side with nginx and Portkey, in one run.
//
// Starts the fake OpenAI upstream (nginx answering fixed bodies), nginx as a proxy (the floor),
// Portkey 1.15.2 (bench/peers, installed on the first run) and Sluice (`npm run serve`'s entry
// on spare ports, real Postgres and Redis, ClickHouse when it answers; SLUICE_GATEWAY_PROCESSES
// passed on), pins the systems under test to SUT_CPU and the load to LOAD_CPU, and then:
//   - checks one answer of each target and mode (a wrong answer stops the run);
//   - warms each target and mode up (WARMUP s of closed-loop load, not recorded);
//   - runs ROUNDS rounds, the first target rotating from round to round: per mode a closed-loop
//     run of every target (wrk, CONNS connections, DURATION s: req/s), then per mode a fixed-rate
//     run of every latency target (LAT_RATE req/s open loop for LAT_DURATION s: p50/p95);
//   - reads each target's CPU time around every run (its whole process tree, /proc);
//   - writes bench/results/NAME/ (results.csv, report.txt, meta.txt, every process's log and
//     configuration) and prints the table: Sluice ÷ Portkey per mode, p50 added over nginx.
// Everything it starts is stopped at the end, on failure and on Ctrl-C. `-- --help`: the knobs.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type BenchStores, requestLogRows } from '../dev/bench/bench-stores';
import { cleanupAll, signalled, stopOnSignals } from '../dev/bench/cleanup';
import { pinSelf } from '../dev/bench/cpus';
import { startFakeUpstream } from '../dev/bench/fake-upstream';
import { OptionsError } from '../dev/bench/options';
import { requireTools } from '../dev/bench/tools';
import { freePort } from '../self-host/process/ports';
import { closedLoop } from './load/closed-loop';
import { openLoop } from './load/open-loop';
import { measure, type Phase, type RunRow } from './measure';
import { HELP, type Mode, type PeerOptions, peerOptions } from './options';
import { CSV_HEADER, csvLine, type Row, summarize, toRow } from './report';
import {
  checkTarget,
  directTarget,
  ensurePortkey,
  nginxTarget,
  portkeyTarget,
  type RunningTarget,
  sluiceTarget,
} from './targets';
import { workerdFloorTarget } from './workerd-floor';

const BENCH_DIR = import.meta.dirname;
const ROOT = join(BENCH_DIR, '..');
const say = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

async function main(options: PeerOptions, tools: { nginx: string; wrk: string }): Promise<void> {
  mkdirSync(options.resultsDir, { recursive: true });
  pinSelf(options.loadCpus);
  say(
    `results in ${relative(ROOT, options.resultsDir)}; ` +
      (options.loadCpus === null
        ? 'nothing pinned'
        : `load (wrk, fake upstream, this runner) on CPU ${options.loadCpus}, systems under test on CPU ${options.sutCpus}`),
  );
  if (options.targets.includes('portkey')) ensurePortkey(say);

  const upstream = await startFakeUpstream({
    nginx: tools.nginx,
    port: await freePort(),
    runDir: options.resultsDir,
    cpus: options.loadCpus,
  });
  say(`fake upstream at ${upstream.url}`);
  const running: RunningTarget[] = [];
  const floorOptions = { runDir: options.resultsDir, cpus: options.sutCpus, redisUrl: options.redisUrl };
  let sluiceStores: BenchStores | null = null;
  for (const name of options.targets) {
    if (name === 'direct') running.push(directTarget(upstream));
    if (name === 'nginx')
      running.push(await nginxTarget(tools.nginx, upstream, options.resultsDir, options.sutCpus));
    if (name === 'workerd' || name === 'workerd-store')
      running.push(await workerdFloorTarget(name, upstream, floorOptions));
    if (name === 'portkey') running.push(await portkeyTarget(upstream, options.resultsDir, options.sutCpus));
    if (name === 'sluice') {
      const sluice = await sluiceTarget(options, upstream, say);
      sluiceStores = sluice.stores;
      running.push(sluice);
    }
  }
  for (const target of running) {
    await checkTarget(target, options.modes);
    say(`${target.describe}: answers checked`);
  }
  const meta = writeMeta(options, tools, running);

  const csv = join(options.resultsDir, 'results.csv');
  writeFileSync(csv, `${CSV_HEADER}\n`);
  const rows: Row[] = [];
  // Requests Sluice answered under load (warm-up included), to compare with its request log.
  let sluiceAnswered = 0;
  const run = async (round: number, phase: Phase, mode: Mode, target: RunningTarget) => {
    const request = target.request[mode];
    const load =
      phase === 'tput'
        ? () =>
            closedLoop(request, {
              connections: options.connections,
              seconds: options.seconds,
              cpus: options.loadCpus,
              wrk: tools.wrk,
            })
        : () =>
            openLoop(request, {
              rate: options.rate,
              seconds: options.rateSeconds,
              connections: options.rateConnections,
            });
    const result: RunRow = await measure({ round, phase, mode }, target, load, options);
    const row = toRow(result, {
      conns: phase === 'tput' ? options.connections : options.rateConnections,
      rate: phase === 'tput' ? 0 : options.rate,
    });
    rows.push(row);
    if (target.name === 'sluice') sluiceAnswered += row.requests;
    appendFileSync(csv, `${csvLine(row)}\n`);
    say(progress(row));
  };

  const seconds =
    options.modes.length *
    (running.length * options.warmupSeconds +
      options.rounds *
        (running.length * options.seconds + options.latencyTargets.length * (options.rateSeconds + 1)));
  say(
    `about ${Math.round(seconds / 60)} min of load: ${options.rounds} rounds, ${options.modes.join(' and ')}`,
  );
  if (options.warmupSeconds > 0) {
    for (const mode of options.modes) {
      for (const target of running) {
        const warm = await closedLoop(target.request[mode], {
          connections: options.connections,
          seconds: options.warmupSeconds,
          cpus: options.loadCpus,
          wrk: tools.wrk,
        });
        if (target.name === 'sluice') sluiceAnswered += warm.requests;
      }
    }
    say('warmed up');
  }
  for (let round = 1; round <= options.rounds; round++) {
    const shift = (round - 1) % running.length;
    const order = [...running.slice(shift), ...running.slice(0, shift)];
    for (const mode of options.modes) {
      for (const target of order) await run(round, 'tput', mode, target);
    }
    for (const mode of options.modes) {
      for (const target of order) {
        if (options.latencyTargets.includes(target.name)) await run(round, 'lat', mode, target);
      }
    }
  }

  let report = summarize(rows).text;
  if (sluiceStores) {
    // The request log is written behind the answers (ClickHouse in batches of up to 2 s).
    await new Promise((r) => setTimeout(r, 3_000));
    const logged = await requestLogRows(sluiceStores);
    report +=
      `\n\nSluice's request log: ${logged.toLocaleString('en-US')} rows; the load counted ` +
      `${sluiceAnswered.toLocaleString('en-US')} answers (not counted: the checks, the fixed rate's ` +
      'warm-up second, the requests in flight when wrk stops)';
  }
  writeFileSync(join(options.resultsDir, 'report.txt'), `${meta.join('\n')}\n\n${report}\n`);
  console.log(`\n${report}\n`);
  say(`written: ${relative(ROOT, csv)}, report.txt, meta.txt`);
}

function progress(row: Row): string {
  const f = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
  const failed = row.errors + row.non2xx;
  return (
    `r${row.round} ${row.phase.padEnd(4)} ${row.mode.padEnd(6)} ${row.target.padEnd(7)} ` +
    `${f(row.rps).padStart(6)} req/s  p50 ${f(row.p50_ms, 3)} ms  p95 ${f(row.p95_ms, 3)} ms  ` +
    `CPU ${f(row.cpu_us_per_req)} µs/req (${f(row.cpu_cores, 2)} cores)` +
    `${failed ? `  FAILED ${failed}` : ''}`
  );
}

/** What ran, with which versions and settings: enough to tell two runs apart. */
function writeMeta(
  options: PeerOptions,
  tools: { nginx: string; wrk: string },
  running: RunningTarget[],
): string[] {
  const output = (command: string, args: string[]) => {
    const result = spawnSync(command, args, { encoding: 'utf8' });
    return `${result.stdout ?? ''}${result.stderr ?? ''}`;
  };
  const commit = output('git', ['-C', ROOT, 'describe', '--always', '--dirty']).trim();
  const lines = [
    `name: ${options.name}`,
    `date: ${new Date().toISOString()}`,
    `sluice: ${commit}`,
    `node ${process.version}, nginx ${/nginx\/(\S+)/.exec(output(tools.nginx, ['-v']))?.[1] ?? '?'}, ` +
      `wrk ${/wrk (\S+)/.exec(output(tools.wrk, ['-v']))?.[1] ?? '?'}`,
    `pinning: ${options.loadCpus === null ? 'none' : `load CPU ${options.loadCpus}, systems under test CPU ${options.sutCpus}`}`,
    `rounds ${options.rounds}; closed loop ${options.connections} connections, ${options.seconds} s; ` +
      `fixed rate ${options.rate} req/s, ${options.rateSeconds} s, at most ${options.rateConnections} connections; ` +
      `warm-up ${options.warmupSeconds} s; settle ${options.settleMs} ms`,
    ...running.map((target) => target.describe),
  ];
  writeFileSync(join(options.resultsDir, 'meta.txt'), `${lines.join('\n')}\n`);
  return lines;
}

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
let options: PeerOptions;
try {
  options = peerOptions(process.env, process.argv.slice(2), BENCH_DIR);
} catch (error) {
  if (!(error instanceof OptionsError)) throw error;
  console.error(`bench:peers: ${error.message}`);
  process.exit(2);
}
const tools = requireTools();
if ('missing' in tools) {
  console.error(`bench:peers: ${tools.advice}`);
  process.exit(1);
}
stopOnSignals();
let status = 0;
try {
  await main(options, tools);
} catch (error) {
  if (signalled() === null)
    console.error(
      `bench:peers: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  status = 1;
} finally {
  await cleanupAll();
}
process.exit(signalled() ?? status);
