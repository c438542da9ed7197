import type { Schemas } from '../../api/types';

export type GroupBy = 'hour' | 'day' | 'week';

/** A period start as the axis shows it: the hour for hourly series, else the date. */
export function periodLabel(period: string, groupBy: GroupBy): string {
  const date = new Date(period);
  if (Number.isNaN(date.getTime())) return period;
  return groupBy === 'hour'
    ? date.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

const PALETTE = ['indigo.6', 'teal.6', 'orange.6', 'grape.6', 'cyan.6', 'red.6', 'lime.6', 'pink.6'];

/** Cost per period with one column per model, for a stacked chart. */
export function costRows(series: Schemas['CostSeries'] | undefined, groupBy: GroupBy) {
  const models = [...new Set((series?.data ?? []).flatMap((p) => Object.keys(p.by_model)))].sort();
  const rows = (series?.data ?? []).map((p) => {
    const row: Record<string, string | number> = { period: periodLabel(p.period, groupBy) };
    for (const m of models) row[m] = p.by_model[m] ?? 0;
    return row;
  });
  const seriesDefs = models.map((name, i) => ({ name, color: PALETTE[i % PALETTE.length] ?? 'gray.6' }));
  return { rows, series: seriesDefs };
}

export function usageRows(series: Schemas['UsageSeries'] | undefined, groupBy: GroupBy) {
  return (series?.data ?? []).map((p) => ({ ...p, period: periodLabel(p.period, groupBy) }));
}

/** The model endpoints' short names; a path not listed shows as is. */
const ENDPOINT_LABELS: Record<string, string> = {
  '/v1/chat/completions': 'Chat completions',
  '/v1/messages': 'Messages',
  '/v1/responses': 'Responses',
  '/v1/messages/count_tokens': 'Token counting',
  '/v1/embeddings': 'Embeddings',
};

/** "Embeddings — /v1/embeddings"; an unknown path as is. */
export function endpointLabel(endpoint: string): string {
  const name = ENDPOINT_LABELS[endpoint];
  return name ? `${name} — ${endpoint}` : endpoint;
}

export interface EndpointRow {
  endpoint: string;
  label: string;
  requests: number;
  tokens: number;
  /** Undefined when none of the endpoint's requests was priced: unknown, not $0. */
  cost: number | undefined;
}

/** One row per endpoint with its cost, most requests first (ties by path). */
export function endpointRows(
  usage: Schemas['UsageStats'] | undefined,
  costs: Schemas['CostStats'] | undefined,
): EndpointRow[] {
  return Object.entries(usage?.endpoints ?? {})
    .map(([endpoint, e]) => ({
      endpoint,
      label: endpointLabel(endpoint),
      requests: e.requests,
      tokens: e.tokens,
      cost: costs?.by_endpoint[endpoint],
    }))
    .sort((a, b) => b.requests - a.requests || a.endpoint.localeCompare(b.endpoint));
}
