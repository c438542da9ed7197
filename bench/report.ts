/**
 * results.csv (one line per measured run, written as the runs finish) and the table printed at
 * the end. Values are medians over the rounds; a ratio or a difference between two targets is
 * the median of the per-round pairs (the two runs of a pair are at most a few seconds apart, so
 * a machine that drifts over minutes moves both), which is what holds up on a shared, noisy
 * machine: absolute figures do not compare across runs or machines, ratios within a run do.
 *
 * Also a command: `npx tsx bench/report.ts bench/results/NAME/results.csv` prints the table again.
 */
import { readFileSync } from 'node:fs';
import { formatTable, num } from '../dev/bench/table';
import type { RunRow } from './measure';

const COLUMNS = [
  'round',
  'phase',
  'mode',
  'target',
  'conns',
  'rate',
  'requests',
  'seconds',
  'rps',
  'p50_ms',
  'p95_ms',
  'p99_ms',
  'max_ms',
  'errors',
  'non2xx',
  'send_lag_p99_ms',
  'cpu_us_per_req',
  'cpu_cores',
  'gateway_us_per_req',
  'bridge_us_per_req',
  'console_us_per_req',
  'sut_cpu_other',
  'conns_fewest',
  'conns_most',
] as const;
type Column = (typeof COLUMNS)[number];
const TEXT = new Set<Column>(['phase', 'mode', 'target']);

/** One line of results.csv: text in phase, mode and target, numbers (NaN when empty) elsewhere. */
export type Row = { [C in Column]: C extends 'phase' | 'mode' | 'target' ? string : number };

export const CSV_HEADER = COLUMNS.join(',');

export function toRow(run: RunRow, load: { conns: number; rate: number }): Row {
  const n = (value: number | null | undefined) =>
    value === null || value === undefined ? Number.NaN : value;
  return {
    round: run.round,
    phase: run.phase,
    mode: run.mode,
    target: run.target,
    conns: load.conns,
    rate: load.rate,
    requests: run.load.requests,
    seconds: run.load.seconds,
    rps: run.load.requestsPerSecond,
    p50_ms: run.load.p50Ms,
    p95_ms: run.load.p95Ms,
    p99_ms: run.load.p99Ms,
    max_ms: run.load.maxMs,
    errors: run.load.errors,
    non2xx: run.load.non2xx,
    send_lag_p99_ms: n(run.load.sendLagP99Ms),
    cpu_us_per_req: n(run.cpuUsPerRequest),
    cpu_cores: run.cpuCores,
    gateway_us_per_req: n(run.parts.gateway),
    bridge_us_per_req: n(run.parts.bridge),
    console_us_per_req: n(run.parts.console),
    sut_cpu_other: n(run.sutOther),
    conns_fewest: n(run.connections?.[0]),
    conns_most: n(run.connections?.at(-1)),
  };
}

export function csvLine(row: Row): string {
  return COLUMNS.map((column) => {
    const value = row[column];
    if (typeof value === 'string') return value;
    if (!Number.isFinite(value)) return '';
    return Number.isInteger(value) ? String(value) : value.toFixed(3);
  }).join(',');
}

export function parseCsv(text: string): Row[] {
  const [header, ...lines] = text.trim().split('\n');
  const names = (header ?? '').split(',');
  return lines
    .filter((line) => line.trim().length > 0)
    .map((line) => {
      const cells = line.split(',');
      const row: Record<string, string | number> = {};
      for (const column of COLUMNS) {
        const cell = cells[names.indexOf(column)] ?? '';
        row[column] = TEXT.has(column) ? cell : cell === '' ? Number.NaN : Number(cell);
      }
      return row as Row;
    });
}

function median(values: number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Half the range over the median, in per cent: how far the rounds spread. */
function spread(values: number[]): number {
  const finite = values.filter(Number.isFinite);
  if (finite.length < 2) return Number.NaN;
  return ((Math.max(...finite) - Math.min(...finite)) / 2 / median(finite)) * 100;
}

type Numeric = Exclude<Column, 'phase' | 'mode' | 'target'>;

export interface PeerSummary {
  mode: string;
  /** Sluice ÷ Portkey, median of the per-round ratios. */
  throughputX: number;
  cpuX: number;
  /** Sluice − nginx at the fixed rate, median of the per-round differences, ms. */
  p50AddedMs: number;
  p95AddedMs: number;
}

export function summarize(rows: Row[]): { text: string; peers: PeerSummary[] } {
  const pick = (phase: string, mode: string, target: string) =>
    rows.filter((r) => r.phase === phase && r.mode === mode && r.target === target);
  const med = (phase: string, mode: string, target: string, key: Numeric) =>
    median(pick(phase, mode, target).map((r) => r[key]));
  const paired = (
    phase: string,
    mode: string,
    target: string,
    reference: string,
    key: Numeric,
    how: (a: number, b: number) => number,
  ) => {
    const others = pick(phase, mode, reference);
    return median(
      pick(phase, mode, target).map((r) => {
        const other = others.find((o) => o.round === r.round);
        return other ? how(r[key], other[key]) : Number.NaN;
      }),
    );
  };
  const ratio = (a: number, b: number) => a / b;
  const minus = (a: number, b: number) => a - b;
  const x = (value: number) =>
    Number.isFinite(value) ? `${value >= 0.1 ? value.toFixed(2) : value.toPrecision(2)}x` : '-';
  const plus = (value: number) =>
    Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toFixed(2)}` : '-';

  const out: string[] = [];
  const notes: string[] = [];
  const peers: PeerSummary[] = [];
  const modes = [...new Set(rows.map((r) => r.mode))];
  const targets = [...new Set(rows.map((r) => r.target))];
  const rounds = new Set(rows.map((r) => r.round)).size;
  const first = (phase: string) => rows.find((r) => r.phase === phase);
  const tput = first('tput');
  const lat = first('lat');
  // Without pinning a target may use both cores: "cores below one" then means nothing alone.
  const pinned = rows.some((r) => Number.isFinite(r.sut_cpu_other));
  out.push(
    `Medians over ${rounds} round${rounds === 1 ? '' : 's'}; ratios and differences: medians of per-round pairs; ± : half the range over the median.`,
  );
  out.push(
    `Closed loop: wrk, ${tput?.conns ?? '?'} connections, ${num(tput?.seconds)} s a run. ` +
      `Fixed rate: ${lat?.rate ?? '?'} req/s open loop (Node), ${num(lat?.seconds)} s a run.`,
  );
  for (const mode of modes) {
    const has = (target: string) => targets.includes(target) && pick('tput', mode, target).length > 0;
    const hasLat = (target: string) => pick('lat', mode, target).length > 0;
    out.push('');
    out.push(
      mode === 'stream'
        ? 'STREAM: a 17-event SSE answer with its usage chunk and [DONE]'
        : 'JSON: one chat.completion with usage',
    );
    const table: string[][] = [
      [
        'target',
        'req/s',
        '±',
        'x portkey',
        'CPU µs/req',
        'x portkey',
        'cores',
        `p50 ms @${lat?.rate ?? '?'}/s`,
        'p95 ms',
        'p50 +ms vs nginx',
        'CPU µs/req',
      ],
    ];
    for (const target of targets) {
      if (!has(target) && !hasLat(target)) continue;
      const rps = pick('tput', mode, target).map((r) => r.rps);
      table.push([
        target,
        num(median(rps)),
        Number.isFinite(spread(rps)) ? `${spread(rps).toFixed(1)}%` : '-',
        target !== 'portkey' && has('portkey')
          ? x(paired('tput', mode, target, 'portkey', 'rps', ratio))
          : '',
        num(med('tput', mode, target, 'cpu_us_per_req')),
        target !== 'portkey' && has('portkey')
          ? x(paired('tput', mode, target, 'portkey', 'cpu_us_per_req', ratio))
          : '',
        num(med('tput', mode, target, 'cpu_cores')),
        num(med('lat', mode, target, 'p50_ms')),
        num(med('lat', mode, target, 'p95_ms')),
        target !== 'nginx' && hasLat('nginx') && hasLat(target)
          ? plus(paired('lat', mode, target, 'nginx', 'p50_ms', minus))
          : '',
        num(med('lat', mode, target, 'cpu_us_per_req')),
      ]);
      const runs = [...pick('tput', mode, target), ...pick('lat', mode, target)];
      const issues: string[] = [];
      const failed = runs.reduce((sum, r) => sum + r.errors + r.non2xx, 0);
      if (failed > 0) issues.push(`${failed} failed requests`);
      const short = pick('lat', mode, target).filter((r) => r.rps < r.rate * 0.95);
      if (short.length > 0)
        issues.push(
          `fixed rate missed in ${short.length} run(s) (${short.map((r) => num(r.rps)).join(', ')} req/s)`,
        );
      const lag = Math.max(
        ...pick('lat', mode, target)
          .map((r) => r.send_lag_p99_ms)
          .filter(Number.isFinite),
      );
      if (lag > 2) issues.push(`sends up to ${num(lag)} ms late (p99): the load core was busy`);
      const others = Math.max(...runs.map((r) => r.sut_cpu_other).filter(Number.isFinite));
      if (others > 0.15)
        issues.push(`other processes took up to ${(others * 100).toFixed(0)} % of the system-under-test CPU`);
      const cores = med('tput', mode, target, 'cpu_cores');
      if (target !== 'direct' && Number.isFinite(cores) && cores < 0.9 && pinned) {
        issues.push(
          `${num(cores)} of a core busy at saturation: req/s was held back by something else (other ` +
            'processes, the load core, a built-in wait); CPU per request is the fairer comparison',
        );
      }
      if (issues.length > 0) notes.push(`${mode} ${target}: ${issues.join('; ')}`);
    }
    out.push(formatTable(table));
    if (has('sluice')) {
      const part = (key: Numeric) => num(med('tput', mode, 'sluice', key));
      out.push(
        `  sluice CPU µs/req by process (closed loop): gateway runtime (workerd) ${part('gateway_us_per_req')}, ` +
          `store bridge (supervisor) ${part('bridge_us_per_req')}, console ${part('console_us_per_req')}`,
      );
      const spreads = pick('tput', mode, 'sluice').filter((r) => Number.isFinite(r.conns_most));
      if (spreads.length > 0) {
        out.push(
          '  sluice connections per gateway process (closed loop, fewest / most, each round): ' +
            spreads.map((r) => `${r.conns_fewest} / ${r.conns_most}`).join(', '),
        );
      }
    }
    if (has('sluice') && has('portkey')) {
      peers.push({
        mode,
        throughputX: paired('tput', mode, 'sluice', 'portkey', 'rps', ratio),
        cpuX: paired('tput', mode, 'sluice', 'portkey', 'cpu_us_per_req', ratio),
        p50AddedMs: hasLat('nginx') ? paired('lat', mode, 'sluice', 'nginx', 'p50_ms', minus) : Number.NaN,
        p95AddedMs: hasLat('nginx') ? paired('lat', mode, 'sluice', 'nginx', 'p95_ms', minus) : Number.NaN,
      });
    } else if (hasLat('sluice') && hasLat('nginx')) {
      peers.push({
        mode,
        throughputX: Number.NaN,
        cpuX: Number.NaN,
        p50AddedMs: paired('lat', mode, 'sluice', 'nginx', 'p50_ms', minus),
        p95AddedMs: paired('lat', mode, 'sluice', 'nginx', 'p95_ms', minus),
      });
    }
  }
  if (peers.length > 0) {
    out.push('');
    out.push('Sluice vs Portkey (req/s and CPU per request, closed loop) and over nginx (fixed rate):');
    for (const p of peers) {
      const vsPortkey = Number.isFinite(p.throughputX)
        ? `${x(p.throughputX)} the req/s, ${x(p.cpuX)} the CPU per request; `
        : '';
      out.push(
        `  ${p.mode.padEnd(6)} ${vsPortkey}p50 added over nginx ${plus(p.p50AddedMs)} ms, p95 ${plus(p.p95AddedMs)} ms`,
      );
    }
  }
  if (notes.length > 0) {
    out.push('');
    out.push('Notes:');
    for (const note of notes) out.push(`  - ${note}`);
  }
  return { text: out.join('\n'), peers };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: npx tsx bench/report.ts bench/results/NAME/results.csv');
    process.exit(2);
  }
  console.log(summarize(parseCsv(readFileSync(file, 'utf8'))).text);
}
