import { Alert, Badge, Group, Paper, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { Schemas } from '../../api/types';
import { QueryError } from '../../components/QueryError';
import { formatDate, formatNumber } from '../../lib/format';
import { type BudgetThresholds, budgetState, DEFAULT_THRESHOLDS, STATE_COLOR } from './budget-state';
import { useBudgetThresholds } from './limits-queries';

type Usage = Schemas['SubjectUsage'];
type Subject = Usage['subject_type'];

const REFRESH_MS = 5000;

/** What one bar shows: a limit's name, its count, and when (or how) it frees. */
interface Bar {
  title: string;
  scope: string;
  used: number;
  limit: number;
  resetsAt: string | null;
  testId: string;
  ariaLabel: string;
  /** What a sliding window counts, for its "frees up as … age out". */
  counts: string;
}

const modelBar = (l: Usage['limits'][number]): Bar => ({
  title: `${l.kind} / ${l.window}`,
  scope: l.scope,
  used: l.used,
  limit: l.limit,
  resetsAt: l.resets_at,
  testId: 'usage-bar',
  ariaLabel: `${l.kind} ${l.window}`,
  counts: 'requests',
});

const toolBar = (l: Usage['tool_limits'][number]): Bar => ({
  title: `${l.tool}: calls / ${l.window}`,
  scope: l.scope,
  used: l.used,
  limit: l.limit,
  resetsAt: l.resets_at,
  testId: 'tool-usage-bar',
  ariaLabel: `${l.tool} ${l.window}`,
  counts: 'calls',
});

/** One limit's counter; its state badge waits for the thresholds (or their defaults on an error). */
function LimitBar({ bar, thresholds }: { bar: Bar; thresholds?: BudgetThresholds }) {
  const fraction = bar.limit === 0 ? 1 : Math.min(1, bar.used / bar.limit);
  const state = budgetState(bar.used, bar.limit, thresholds ?? DEFAULT_THRESHOLDS);
  return (
    <Stack gap={4} data-testid={bar.testId}>
      <Group justify="space-between" gap="xs">
        <Group gap="xs">
          <Text size="sm" fw={500}>
            {bar.title}
            <Text span size="xs" c="dimmed">
              {' '}
              ({bar.scope} limit)
            </Text>
          </Text>
          {thresholds && (
            <Badge size="sm" variant="light" color={STATE_COLOR[state]} data-testid="budget-state">
              {state}
            </Badge>
          )}
        </Group>
        <Text size="sm" data-testid="usage-figures">
          {formatNumber(bar.used)} / {formatNumber(bar.limit)}
        </Text>
      </Group>
      <Progress value={fraction * 100} color={STATE_COLOR[state]} size="lg" aria-label={bar.ariaLabel} />
      <Text size="xs" c="dimmed">
        {bar.resetsAt
          ? `Resets ${formatDate(bar.resetsAt)}`
          : `Sliding window: frees up as ${bar.counts} age out`}
      </Text>
    </Stack>
  );
}

/** Live counters of a key or user against each of its limits, as the gateway counts them. */
export function UsageBars({ subject, id }: { subject: Subject; id: string }) {
  const usage = useQuery({
    queryKey: ['limits-usage', subject, id],
    queryFn: () =>
      unwrap(api.GET('/api/admin/limits/{subject}/{id}/usage', { params: { path: { subject, id } } })),
    refetchInterval: REFRESH_MS,
    retry: false,
  });
  const settings = useBudgetThresholds();
  const thresholds = settings.data ?? (settings.isError ? DEFAULT_THRESHOLDS : undefined);
  if (usage.error) return <QueryError error={usage.error} />;
  const data = usage.data;
  if (!data) return null;
  return (
    <Paper withBorder p="md" data-testid="usage-panel">
      <Stack>
        <Group justify="space-between">
          <Text fw={600}>Live usage</Text>
          <Text size="xs" c="dimmed">
            Refreshes every {REFRESH_MS / 1000} s
          </Text>
        </Group>
        {subject === 'api_key' && data.scope === 'user' && (
          <Alert color="blue">
            This key has no limits of its own: its owner’s limits and counters apply.
          </Alert>
        )}
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <Figure label="Requests today" value={data.usage.requests_today} />
          <Figure label="Requests this month" value={data.usage.requests_month} />
          <Figure label="Tokens today" value={data.usage.tokens_today} />
          <Figure label="Tokens this month" value={data.usage.tokens_month} />
        </SimpleGrid>
        {data.limits.length === 0 ? (
          <Text size="sm" c="dimmed">
            No limits apply.
          </Text>
        ) : (
          data.limits.map((l) => (
            <LimitBar key={`${l.scope}-${l.kind}-${l.window}`} bar={modelBar(l)} thresholds={thresholds} />
          ))
        )}
        {data.tool_limits.length > 0 && (
          <Text size="sm" fw={600}>
            MCP tool limits
          </Text>
        )}
        {data.tool_limits.map((l) => (
          <LimitBar
            key={`${l.scope}-${l.tool}-${l.kind}-${l.window}`}
            bar={toolBar(l)}
            thresholds={thresholds}
          />
        ))}
      </Stack>
    </Paper>
  );
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{formatNumber(value)}</Text>
    </Stack>
  );
}
