import { Badge, Group, Text } from '@mantine/core';
import type { Schemas } from '../../api/types';
import type { Column } from '../../components/DataTable';
import { formatLogTime, formatNumber, formatUsd } from '../../lib/format';
import { clientLabel } from '../analytics/client-columns';
import { zeroCostReason } from './gateway-log-cost';

type Entry = Schemas['GatewayLogEntry'];

/** The cost, and when it is $0 or unknown, why (cache hit, unpriced model, failed before any tokens…). */
function CostCell({ entry }: { entry: Entry }) {
  const reason = zeroCostReason(entry);
  // Only an unpriced model's cost is unknown; a request that spent nothing cost $0 at any price.
  const amount = entry.cost_usd === null && reason !== 'unpriced model' ? 0 : entry.cost_usd;
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" data-testid="cost-amount">
        {formatUsd(amount)}
      </Text>
      {reason && (
        <Text size="xs" c={reason === 'unpriced model' ? 'orange' : 'dimmed'} data-testid="cost-reason">
          {reason}
        </Text>
      )}
    </Group>
  );
}

/** Who sent it: the client recognised from the User-Agent and its version; the raw header on hover. */
function ClientCell({ entry }: { entry: Entry }) {
  if (!entry.client_name) return null;
  return (
    <Text size="xs" title={entry.user_agent ?? undefined} data-testid="log-client">
      {clientLabel(entry.client_name, entry.client_version)}
    </Text>
  );
}

/** A response-cache hit, and the prompt-cache tokens the vendor read and wrote. */
function CacheCell({ entry }: { entry: Entry }) {
  const promptCache = entry.cached_tokens > 0 || entry.cache_write_tokens > 0;
  return (
    <Group gap={4} wrap="nowrap">
      {entry.cache_hit && (
        <Badge color="grape" variant="light" data-testid="cache-hit-badge">
          cache hit
        </Badge>
      )}
      {promptCache && (
        <Text
          size="xs"
          title="Prompt-cache tokens read / written at the vendor"
          data-testid="log-prompt-cache"
        >
          read {formatNumber(entry.cached_tokens)} · write {formatNumber(entry.cache_write_tokens)}
        </Text>
      )}
    </Group>
  );
}

/** The reasoning effort asked for and the reasoning tokens spent, when there was either. */
function ReasoningCell({ entry }: { entry: Entry }) {
  if (!entry.reasoning_effort && entry.reasoning_tokens === 0) return null;
  return (
    <Group gap={4} wrap="nowrap" data-testid="log-reasoning">
      {entry.reasoning_effort && (
        <Badge size="xs" variant="light" color="indigo">
          {entry.reasoning_effort}
        </Badge>
      )}
      {entry.reasoning_tokens > 0 && <Text size="xs">{formatNumber(entry.reasoning_tokens)} tokens</Text>}
    </Group>
  );
}

// The first columns (time, model, provider, status) keep their places: browser tests read them by index.
export const gatewayLogColumns: Column<Entry>[] = [
  { key: 'time', header: 'Time', render: (e) => formatLogTime(e.created_at) },
  { key: 'model', header: 'Model', render: (e) => e.model },
  { key: 'provider', header: 'Provider', render: (e) => e.provider ?? '—' },
  {
    key: 'status',
    header: 'Status',
    // The error type on hover: the cell's text stays the status alone.
    render: (e) => (
      <Badge
        color={e.status_code < 400 ? 'teal' : e.status_code < 500 ? 'yellow' : 'red'}
        variant="light"
        title={e.error_type ?? undefined}
      >
        {e.status_code}
      </Badge>
    ),
  },
  { key: 'client', header: 'Client', render: (e) => <ClientCell entry={e} /> },
  { key: 'cache', header: 'Cache', render: (e) => <CacheCell entry={e} /> },
  {
    key: 'guardrail',
    header: 'Guardrail',
    // `block:content:no-codenames,flag:content:pii` → one badge per rule that acted.
    render: (e) =>
      e.guardrail ? (
        <Group gap={4}>
          {e.guardrail.split(',').map((mark) => (
            <Badge
              key={mark}
              color={mark.startsWith('block:') ? 'red' : 'orange'}
              variant="light"
              data-testid="guardrail-badge"
            >
              {mark}
            </Badge>
          ))}
        </Group>
      ) : null,
  },
  { key: 'tokens', header: 'Tokens', render: (e) => formatNumber(e.total_tokens) },
  { key: 'reasoning', header: 'Reasoning', render: (e) => <ReasoningCell entry={e} /> },
  { key: 'cost', header: 'Cost', render: (e) => <CostCell entry={e} /> },
  { key: 'latency', header: 'Latency', render: (e) => `${e.latency_ms} ms` },
  {
    key: 'endpoint',
    header: 'Endpoint',
    render: (e) => (
      <Text size="xs">
        {e.endpoint}
        {e.stream ? ' (stream)' : ''}
      </Text>
    ),
  },
];
