import { Badge, Text } from '@mantine/core';
import type { Schemas } from '../../api/types';
import type { Column } from '../../components/DataTable';
import { formatNumber, formatUsd } from '../../lib/format';

export type ClientRow = Schemas['ClientUsage']['data'][number];
export type ErrorRow = Schemas['ErrorCounts']['data'][number];

/** "claude-code 2.1.3"; requests without a User-Agent show as such. */
export function clientLabel(name: string | null, version?: string | null): string {
  if (name === null) return 'no user agent';
  return version ? `${name} ${version}` : name;
}

export const clientKey = (r: ClientRow) => JSON.stringify([r.client_name, r.client_version]);
export const errorKey = (r: ErrorRow) => JSON.stringify([r.error_type, r.client_name, r.status_code]);

// Client, requests and errors come first: browser tests read them by index.
export const clientColumns: Column<ClientRow>[] = [
  {
    key: 'client',
    header: 'Client',
    render: (r) => (
      <Text size="sm" c={r.client_name === null ? 'dimmed' : undefined}>
        {clientLabel(r.client_name, r.client_version)}
      </Text>
    ),
  },
  { key: 'requests', header: 'Requests', render: (r) => formatNumber(r.requests) },
  {
    key: 'errors',
    header: 'Errors',
    render: (r) => (
      <Text size="sm" c={r.errors > 0 ? 'red' : undefined}>
        {formatNumber(r.errors)}
      </Text>
    ),
  },
  {
    key: 'tokens',
    header: 'Prompt / completion',
    render: (r) => `${formatNumber(r.prompt_tokens)} / ${formatNumber(r.completion_tokens)}`,
  },
  {
    key: 'cache',
    header: 'Cache read / write',
    render: (r) => `${formatNumber(r.cache_read_tokens)} / ${formatNumber(r.cache_write_tokens)}`,
  },
  { key: 'reasoning', header: 'Reasoning', render: (r) => formatNumber(r.reasoning_tokens) },
  // Null: none of its requests was priced; the cost is unknown, not $0.
  { key: 'cost', header: 'Cost', render: (r) => formatUsd(r.cost_usd) },
];

export const errorColumns: Column<ErrorRow>[] = [
  {
    key: 'type',
    header: 'Error type',
    render: (r) => (
      <Text size="sm" c={r.error_type === null ? 'dimmed' : undefined}>
        {r.error_type ?? 'none logged'}
      </Text>
    ),
  },
  { key: 'client', header: 'Client', render: (r) => clientLabel(r.client_name) },
  {
    key: 'status',
    header: 'Status',
    render: (r) => (
      <Badge color={r.status_code < 500 ? 'yellow' : 'red'} variant="light">
        {r.status_code}
      </Badge>
    ),
  },
  { key: 'requests', header: 'Requests', render: (r) => formatNumber(r.requests) },
];
