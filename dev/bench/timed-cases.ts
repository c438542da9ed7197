/**
 * Cases timed the way the scale benches time them: one warm-up call each, then `runs` rounds
 * in which every case runs once, in order (interleaved, so the machine's noise falls on every
 * case alike). A case answers what it got (HTTP status, body bytes, list items); the table
 * gives p50/p95/max ms, the median body size and the statuses seen.
 */
import { median } from './median';
import { num } from './table';

export interface CaseAnswer {
  status: number;
  /** Body bytes as the client read them (decoded); null when not measured. */
  bytes: number | null;
  /**
   * Items of a list answer (an array's length and its X-Total-Count, or a log page's entries and
   * total), read after the timing.
   */
  items?: () => ItemCount | null;
}

export interface ItemCount {
  count: number;
  total: number | null;
}

export interface TimedCase {
  group: string;
  name: string;
  run(): Promise<CaseAnswer>;
}

export interface CaseFigures {
  group: string;
  name: string;
  took: number[];
  bytes: number[];
  statuses: Map<number, number>;
  items: ItemCount | null;
  failures: string[];
}

/** Nearest rank: the smallest value with at least p% of the values at or below it. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export async function runInterleaved(
  cases: readonly TimedCase[],
  runs: number,
  beforeRound: (round: number) => Promise<void> = async () => {},
): Promise<CaseFigures[]> {
  const figures = cases.map<CaseFigures>((c) => ({
    group: c.group,
    name: c.name,
    took: [],
    bytes: [],
    statuses: new Map(),
    items: null,
    failures: [],
  }));
  await beforeRound(-1);
  for (const c of cases) await c.run().catch(() => undefined);
  for (let round = 0; round < runs; round++) {
    await beforeRound(round);
    for (const [i, c] of cases.entries()) {
      const f = figures[i]!;
      const started = performance.now();
      try {
        const answer = await c.run();
        f.took.push(performance.now() - started);
        f.items = answer.items?.() ?? f.items;
        f.statuses.set(answer.status, (f.statuses.get(answer.status) ?? 0) + 1);
        if (answer.bytes !== null) f.bytes.push(answer.bytes);
      } catch (error) {
        f.took.push(performance.now() - started);
        f.failures.push(error instanceof Error ? error.message : String(error));
      }
    }
  }
  return figures;
}

const sortedCopy = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const count = (n: number) => n.toLocaleString('en-US');

function itemsCell(items: ItemCount | null): string {
  if (!items) return '';
  return items.total === null ? count(items.count) : `${count(items.count)} of ${count(items.total)}`;
}

function statusCell(statuses: Map<number, number>): string {
  if (statuses.size === 1) return String([...statuses.keys()][0]);
  return [...statuses].map(([status, n]) => `${status}×${n}`).join(' ');
}

export const FIGURE_COLUMNS = ['case', 'p50 ms', 'p95 ms', 'max ms', 'bytes', 'items', 'status', 'failed'];

/** One row a case: its group and name, then the FIGURE_COLUMNS after the first. */
export function figureRow(f: CaseFigures): string[] {
  const took = sortedCopy(f.took);
  const bytes = f.bytes.length === 0 ? '' : count(Math.round(median(f.bytes)));
  const failed = f.failures.length === 0 ? '' : `${f.failures.length}: ${f.failures[0]?.slice(0, 60)}`;
  return [
    `${f.group} ${f.name}`,
    num(percentile(took, 50)),
    num(percentile(took, 95)),
    num(took.at(-1)),
    bytes,
    itemsCell(f.items),
    statusCell(f.statuses),
    failed,
  ];
}

/** The same figures as CSV, unrounded (ms to 0.01), one line a case. */
export function figuresCsv(figures: readonly CaseFigures[]): string {
  const quote = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
  const lines = [
    [
      'group',
      'case',
      'runs',
      'p50_ms',
      'p95_ms',
      'max_ms',
      'bytes',
      'items',
      'total',
      'statuses',
      'failures',
    ],
  ];
  for (const f of figures) {
    const took = sortedCopy(f.took);
    lines.push([
      f.group,
      f.name,
      String(f.took.length),
      percentile(took, 50).toFixed(2),
      percentile(took, 95).toFixed(2),
      (took.at(-1) ?? Number.NaN).toFixed(2),
      f.bytes.length === 0 ? '' : String(Math.round(median(f.bytes))),
      f.items ? String(f.items.count) : '',
      f.items?.total == null ? '' : String(f.items.total),
      [...f.statuses].map(([status, n]) => `${status}x${n}`).join(' '),
      String(f.failures.length),
    ]);
  }
  return `${lines.map((line) => line.map(quote).join(',')).join('\n')}\n`;
}
