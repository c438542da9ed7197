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

/** One limit's counter; its state badge waits for the thresholds (or their defaults on an error). */
function LimitBar({ limit, thresholds }: { limit: Usage['limits'][number]; thresholds?: BudgetThresholds }) {
  const fraction = limit.limit === 0 ? 1 : Math.min(1, limit.used / limit.limit);
  const state = budgetState(limit.used, limit.limit, thresholds ?? DEFAULT_THRESHOLDS);
  return (
    <Stack gap={4} data-testid="usage-bar">
      <Group justify="space-between" gap="xs">
        <Group gap="xs">
          <Text size="sm" fw={500}>
            {limit.kind} / {limit.window}
            <Text span size="xs" c="dimmed">
              {' '}
              ({limit.scope} limit)
            </Text>
          </Text>
          {thresholds && (
            <Badge size="sm" variant="light" color={STATE_COLOR[state]} data-testid="budget-state">
              {state}
            </Badge>
          )}
        </Group>
        <Text size="sm" data-testid="usage-figures">
          {formatNumber(limit.used)} / {formatNumber(limit.limit)}
        </Text>
      </Group>
      <Progress
        value={fraction * 100}
        color={STATE_COLOR[state]}
        size="lg"
        aria-label={`${limit.kind} ${limit.window}`}
      />
      <Text size="xs" c="dimmed">
        {limit.resets_at
          ? `Resets ${formatDate(limit.resets_at)}`
          : 'Sliding window: frees up as requests age out'}
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
            <LimitBar key={`${l.scope}-${l.kind}-${l.window}`} limit={l} thresholds={thresholds} />
          ))
        )}
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
