import { METRICS, type MetricDef } from './definitions';

const DEFS: MetricDef[] = Object.values(METRICS);

function defOf(field: string): MetricDef | undefined {
  const sample = field.split('{')[0] ?? '';
  return DEFS.find((d) => sample === d.name || (d.type === 'histogram' && sample.startsWith(`${d.name}_`)));
}

/** The le of a bucket series, for ordering: +Inf last. */
function bucketOrder(field: string): number {
  const le = /le="([^"]+)"/.exec(field)?.[1];
  if (le === undefined) return Number.POSITIVE_INFINITY;
  return le === '+Inf' ? Number.MAX_VALUE : Number(le);
}

function seriesOrder(a: string, b: string): number {
  const base = (f: string) => f.replace(/,?le="[^"]+"/, '').replace(/_(bucket|sum|count)\{/, '{');
  const kind = (f: string) => (f.includes('_bucket') ? 0 : f.includes('_sum') ? 1 : 2);
  return (
    base(a).localeCompare(base(b)) ||
    kind(a) - kind(b) ||
    bucketOrder(a) - bucketOrder(b) ||
    a.localeCompare(b)
  );
}

/**
 * Prometheus text exposition (version 0.0.4) of the stored series: HELP and TYPE once per
 * metric, then its samples, series of one histogram kept together with buckets in le order.
 */
export function renderExposition(stored: Record<string, number>): string {
  const lines: string[] = [];
  for (const def of DEFS) {
    const fields = Object.keys(stored)
      .filter((f) => defOf(f) === def)
      .sort(seriesOrder);
    lines.push(`# HELP ${def.name} ${def.help}`, `# TYPE ${def.name} ${def.type}`);
    for (const field of fields) lines.push(`${field} ${Number(stored[field])}`);
  }
  return `${lines.join('\n')}\n`;
}
