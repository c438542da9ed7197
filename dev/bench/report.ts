/**
 * The report printed at the end of `npm run bench`: one table of throughput, latency, CPU per
 * process, Redis and store round trips for json and stream, then isolate start-up, then how
 * each figure was measured, so the output reads without this code at hand.
 */
import type { IsolateFigures } from './isolate-start';
import { describeMachineChecks, type MachineCheck } from './machine-check';
import type { RunFigures } from './measure-run';
import { type LoadMode, MODES } from './payloads';
import { type PerRole, type ProcessRole, ROLES } from './stack-processes';
import { formatTable, num } from './table';

export interface ModeFigures {
  saturation: RunFigures;
  fixedRate: RunFigures;
}

export interface ReportMeta {
  mode: 'serve' | 'start';
  pinning: string;
  /** The pinned CPUs and what runs there, e.g. {"0": "wrk + fake upstream", "1": "stack"}; empty when not pinned. */
  cpuUse: Record<string, string>;
  versions: string;
  stores: string;
  connections: number;
  seconds: number;
  rate: number;
  rateSeconds: number;
  warmupSeconds: number;
  settleMs: number;
  ticksPerSecond: number;
}

export interface ReportInput {
  meta: ReportMeta;
  modes: Partial<Record<LoadMode, ModeFigures>>;
  isolate: IsolateFigures | null;
  /** CPU of each role with no load, ms per second (measured before the first run). */
  idle: PerRole<number> | null;
  /** The machine's own yardstick on the stack's CPU, before and after the runs (machine-check.ts). */
  machine: { before: MachineCheck; after: MachineCheck | null } | null;
  logRows: { rows: number; sent: number } | null;
  notes: string[];
  resultsFile: string;
}

export function roleLabels(mode: 'serve' | 'start'): Record<ProcessRole, string> {
  return {
    gateway: mode === 'serve' ? 'gateway runtime (workerd)' : 'gateway runtime (Miniflare’s workerd)',
    bridge: mode === 'serve' ? 'store bridge (supervisor, serve.ts)' : 'store bridge + Miniflare (start.ts)',
    console: 'console (Node)',
    other: 'other (rest of the stack)',
  };
}

/** Two columns per mode: at saturation, and at the fixed rate. */
function row(label: string, input: ReportInput, value: (run: RunFigures) => string): string[] {
  const cells = [label];
  for (const mode of MODES) {
    const figures = input.modes[mode];
    cells.push(figures ? value(figures.saturation) : '-', figures ? value(figures.fixedRate) : '-');
  }
  return cells;
}

/** How busy the pinned CPUs were (anything on them counts): is the rig or the stack the limit? */
function cpuRows(input: ReportInput): string[][] {
  const pinned = Object.entries(input.meta.cpuUse);
  const percent = (x: number | undefined) => (x === undefined ? '-' : `${(x * 100).toFixed(0)}%`);
  if (pinned.length === 0) {
    const average = (busy: Record<string, number>) => {
      const values = Object.values(busy);
      return values.reduce((a, b) => a + b, 0) / values.length;
    };
    return [row('all CPUs busy', input, (r) => percent(average(r.cpuBusy)))];
  }
  return pinned.map(([cpu, use]) => row(`CPU ${cpu} busy (${use})`, input, (r) => percent(r.cpuBusy[cpu])));
}

export function mainTable(input: ReportInput): string {
  const { meta } = input;
  const labels = roleLabels(meta.mode);
  const rate = `${meta.rate}/s`;
  const rows: string[][] = [
    ['', 'json', '', 'stream', ''],
    ['', 'saturation', rate, 'saturation', rate],
    row('throughput (req/s)', input, (r) => num(r.wrk.requestsPerSecond)),
    row('latency p50 (ms)', input, (r) => num(r.wrk.p50Ms)),
    row('latency p99 (ms)', input, (r) => num(r.wrk.p99Ms)),
    row('failed requests', input, (r) => String(r.wrk.errors + r.wrk.non2xx)),
    ['CPU per request (µs)'],
    ...(['gateway', 'bridge', 'console', 'other'] as const).map((role) =>
      row(`  ${labels[role]}`, input, (r) => num(r.cpuUsPerRequest[role])),
    ),
    row('  total', input, (r) => num(r.cpuUsPerRequest.total)),
    row('cores busy, stack', input, (r) =>
      num(r.cores.gateway + r.cores.bridge + r.cores.console + r.cores.other),
    ),
    ...cpuRows(input),
    ['Redis per request'],
    row('  commands run (incl. in scripts)', input, (r) => num(r.redis.perRequest)),
    row('  EVALSHA calls', input, (r) => num(r.redis.evalshaPerRequest)),
    ['store round trips per request'],
    row('  Redis: link round trips (gateway socket)', input, (r) => num(r.linkRoundTrips)),
    row('  Redis: Upstash REST requests (bridge)', input, (r) => num(r.bridge.upstash_requests)),
    row('    commands they carried', input, (r) => num(r.bridge.redis_commands)),
    row('  Postgres: Neon HTTP requests', input, (r) => num(r.bridge.sql_requests)),
  ];
  return formatTable(rows);
}

/** The commands Redis ran most per request of a run: what a script call turns into. */
export function topCommands(run: RunFigures, count = 8): string {
  const n = run.wrk.requests;
  return Object.entries(run.redis.byCommand)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, calls]) => `${name} ${num(calls / n)}`)
    .join(', ');
}

function afterTable(input: ReportInput): string[] {
  const lines: string[] = [];
  const labels = roleLabels(input.meta.mode);
  if (input.idle) {
    const idle = input.idle;
    const roles = ROLES.map((role) => `${labels[role].split(' (')[0]} ${num(idle[role])}`).join(', ');
    lines.push(`idle stack, no load (ms of CPU per second): ${roles}`);
  }
  for (const mode of MODES) {
    const run = input.modes[mode]?.saturation;
    if (run) lines.push(`Redis commands per request, ${mode} at saturation: ${topCommands(run)}`);
  }
  return lines;
}

export function isolateTable(isolate: IsolateFigures): string {
  const g = isolate.gateway;
  const e = isolate.emptyWorker;
  const ms = (x: number) => `${num(x)} ms`;
  const lines = [
    formatTable([
      ['', 'gateway bundle', 'empty worker'],
      ['spawn → listening', ms(g.listenMs), ms(e.listenMs)],
      ['spawn → first answer (/health)', ms(g.firstAnswerMs), ms(e.firstAnswerMs)],
      ['  of which the first request', ms(g.firstRequestMs), ms(e.firstRequestMs)],
      ['first chat request, cold isolate', ms(g.firstModelRequestMs), '-'],
      ['second chat request, same isolate', ms(g.warmModelRequestMs), '-'],
    ]),
    `bundle: ${isolate.bundle.modules} module(s), ${num(isolate.bundle.bytes)} bytes, ${num(isolate.bundle.gzipBytes)} bytes gzip`,
  ];
  if (isolate.trace) {
    const t = isolate.trace;
    lines.push(
      `workerd trace: compileModules ${ms(t.compileModulesMs)} (parse + compile of the bundle), ` +
        `makeWorker ${ms(t.makeWorkerMs)} (new isolate, compile, the module's top level run, bindings), startServices ${ms(t.startServicesMs)}`,
    );
  } else lines.push(`workerd trace: ${isolate.traceNote}`);
  return lines.join('\n');
}

export function legend(meta: ReportMeta): string {
  const tick = (1e6 / meta.ticksPerSecond).toFixed(0);
  return [
    'How these figures are measured:',
    `- saturation: wrk, 1 thread, ${meta.connections} connections, closed loop for ${meta.seconds} s, after ${meta.warmupSeconds} s of warm-up; p50/p99 are wrk's (from send to full answer).`,
    `- ${meta.rate}/s: wrk paced by dev/bench/wrk/chat.lua over ${meta.connections} connections for ${meta.rateSeconds} s (latency not corrected for coordinated omission).`,
    `- CPU per request: utime+stime from /proc/<pid>/stat of each stack process, read before and after the run (+${meta.settleMs} ms for write-behind work), divided by the run's requests; ticks of ${tick} µs, so a short run's small figures are coarse.`,
    '- "store bridge" is the supervisor process, which runs the bridge in its event loop; "other" is any other process under it.',
    '- at the fixed rate requests seldom overlap: each pays for its own store round trip, timers and wake-ups, which concurrent requests share at saturation; hence more CPU per request.',
    '- cores busy, stack: the stack’s CPU time over the load (wrk’s run, not the settle after it); CPU n busy: /proc/stat over the load, whatever ran there (at 100 % on the wrk CPU the rig, not the stack, set the saturation figure).',
    "- Redis commands: INFO commandstats deltas, server-wide: commands scripts run count under their own names beside the EVALSHA; other clients' commands count too (flagged below when seen).",
    '- store round trips: the Redis link’s as the kernel counts them (TCP segments with data the gateway sent to Redis, ss -ti; a batch is one write, far below the loopback MSS); the bridge’s own counts (GET /_bridge/counts): HTTP requests the apps made to it, the console’s too (it idles here).',
    '- failed requests: socket errors + non-2xx answers.',
    '- machine: on the stack’s CPU with the stack idle, the cost of one system call (getuid; a few hundred ns at most on bare metal) and of a fixed piece of JavaScript, back to back and when the core idled for the fixed rate’s spacing in between. A virtual machine’s speed can move 2× within minutes with no steal time shown: compare runs, and machines, by these.',
  ].join('\n');
}

export function formatReport(input: ReportInput): string {
  const { meta } = input;
  const parts = [
    `Sluice performance (npm run bench, ${meta.mode === 'serve' ? 'self-host mode: npm run serve' : 'npm start on Miniflare'})`,
    `  ${meta.pinning}; ${meta.versions}`,
    `  ${meta.stores}`,
    ...(input.machine
      ? [
          `  machine, before → after the runs: ${describeMachineChecks(input.machine.before, input.machine.after)}`,
        ]
      : []),
    '',
    mainTable(input),
    ...afterTable(input),
  ];
  if (input.isolate)
    parts.push(
      '',
      `Isolate start-up (fresh workerd serve, median of ${input.isolate.runs})`,
      isolateTable(input.isolate),
    );
  if (input.logRows) {
    parts.push(
      '',
      `request log: ${num(input.logRows.rows)} rows for ${num(input.logRows.sent)} model requests sent`,
    );
  }
  parts.push('', legend(meta));
  if (input.notes.length > 0) parts.push('', 'Notes:', ...input.notes.map((note) => `- ${note}`));
  parts.push('', `raw figures: ${input.resultsFile}`);
  return parts.join('\n');
}
