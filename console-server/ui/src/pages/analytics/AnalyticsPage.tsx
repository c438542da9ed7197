import { BarChart } from '@mantine/charts';
import {
  Card,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { useUser } from '../../auth/AuthProvider';
import { isAdmin } from '../../auth/session';
import type { Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { formatNumber, formatUsd, localInputToIso, toLocalInput } from '../../lib/format';
import { costRows, type EndpointRow, endpointRows, type GroupBy } from './analytics-data';
import { BreakdownCard } from './BreakdownCard';
import { clientColumns, clientKey, errorColumns, errorKey } from './client-columns';
import { UnpricedCount, UnpricedModels } from './UnpricedNote';
import { UsageChart } from './UsageChart';

function Stat({
  label,
  value,
  testId,
  extra,
}: {
  label: string;
  value: string;
  testId: string;
  /** Under the value: what it leaves out. */
  extra?: ReactNode;
}) {
  return (
    <Card withBorder padding="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={testId}>
        {value}
      </Text>
      {extra}
    </Card>
  );
}

interface ModelRow {
  model: string;
  requests: number;
  tokens: number;
  cost: number | undefined;
}

const modelColumns: Column<ModelRow>[] = [
  { key: 'model', header: 'Model', render: (r) => r.model },
  { key: 'requests', header: 'Requests', render: (r) => formatNumber(r.requests) },
  { key: 'tokens', header: 'Tokens', render: (r) => formatNumber(r.tokens) },
  { key: 'cost', header: 'Cost', render: (r) => formatUsd(r.cost) },
];

const endpointColumns: Column<EndpointRow>[] = [
  { key: 'endpoint', header: 'Endpoint', render: (r) => r.label },
  { key: 'requests', header: 'Requests', render: (r) => formatNumber(r.requests) },
  { key: 'tokens', header: 'Tokens', render: (r) => formatNumber(r.tokens) },
  { key: 'cost', header: 'Cost', render: (r) => formatUsd(r.cost) },
];

export function AnalyticsPage() {
  const admin = isAdmin(useUser());
  const [from, setFrom] = useState(() => toLocalInput(new Date(Date.now() - 7 * 86_400_000)));
  const [to, setTo] = useState('');
  const [groupBy, setGroupBy] = useState<GroupBy>('day');
  const [model, setModel] = useState<string | null>(null);
  // No `to`: the API's "now", so a refetch includes requests made since the page opened.
  const range = { from: localInputToIso(from), to: localInputToIso(to) };
  const query = { ...range, group_by: groupBy, ...(model ? { model } : {}) };
  const key = ['analytics', query];
  const usage = useQuery({
    queryKey: [...key, 'usage'],
    queryFn: () => unwrap(api.GET('/api/analytics/usage', { params: { query } })),
  });
  const costs = useQuery({
    queryKey: [...key, 'costs'],
    queryFn: () => unwrap(api.GET('/api/analytics/costs', { params: { query } })),
  });
  const usageStats = useQuery({
    queryKey: [...key, 'usage-stats'],
    queryFn: () =>
      unwrap(
        api.GET('/api/analytics/usage/stats', {
          params: { query: { ...range, ...(model ? { model } : {}) } },
        }),
      ),
  });
  const costStats = useQuery({
    queryKey: [...key, 'cost-stats'],
    queryFn: () =>
      unwrap(
        api.GET('/api/analytics/costs/stats', {
          params: { query: { ...range, ...(model ? { model } : {}) } },
        }),
      ),
  });
  const statsQuery = { ...range, ...(model ? { model } : {}) };
  const clients = useQuery({
    queryKey: [...key, 'clients'],
    queryFn: () => unwrap(api.GET('/api/analytics/clients', { params: { query: statsQuery } })),
  });
  const failures = useQuery({
    queryKey: [...key, 'errors'],
    queryFn: () => unwrap(api.GET('/api/analytics/errors', { params: { query: statsQuery } })),
  });
  const models = Object.keys(usageStats.data?.models ?? {}).sort();
  const cost = costRows(costs.data, groupBy);
  const byModel: ModelRow[] = Object.entries(usageStats.data?.models ?? {}).map(([name, m]) => ({
    model: name,
    requests: m.requests,
    tokens: m.tokens,
    cost: costStats.data?.by_model[name],
  }));
  const byEndpoint = endpointRows(usageStats.data, costStats.data);
  const s = usageStats.data;
  return (
    <>
      <PageHeader title="Analytics" description="Usage and cost of gateway requests over time." />
      <Group align="flex-end" mb="md" wrap="wrap">
        <TextInput
          type="datetime-local"
          label="From"
          value={from}
          onChange={(e) => setFrom(e.currentTarget.value)}
        />
        <TextInput
          type="datetime-local"
          label="To"
          description={to ? undefined : 'Empty: now'}
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
        />
        <Select
          label="Model"
          placeholder="All models"
          clearable
          data={models}
          value={model}
          onChange={setModel}
          w={200}
        />
        <SegmentedControl
          aria-label="Group by"
          value={groupBy}
          onChange={(v) => setGroupBy(v as GroupBy)}
          data={[
            { value: 'hour', label: 'Hour' },
            { value: 'day', label: 'Day' },
            { value: 'week', label: 'Week' },
          ]}
        />
      </Group>
      <QueryError
        error={
          usage.error ?? costs.error ?? usageStats.error ?? costStats.error ?? clients.error ?? failures.error
        }
      />
      <SimpleGrid cols={{ base: 2, md: 5 }} mb="md">
        <Stat label="Requests" value={formatNumber(s?.total_requests)} testId="stat-requests" />
        <Stat label="Tokens" value={formatNumber(s?.total_tokens)} testId="stat-tokens" />
        <Stat
          label="Avg latency"
          value={s?.avg_latency_ms == null ? '—' : `${Math.round(s.avg_latency_ms)} ms`}
          testId="stat-latency"
        />
        <Stat
          label="Total cost"
          value={formatUsd(costStats.data?.total_cost_usd)}
          testId="stat-cost"
          extra={
            <UnpricedCount
              count={costStats.data?.unpriced_requests}
              range={{ ...range, ...(model ? { model } : {}) }}
              admin={admin}
            />
          }
        />
        <Stat
          label="Avg daily cost"
          value={formatUsd(costStats.data?.avg_daily_cost_usd)}
          testId="stat-daily-cost"
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }} mb="md">
        <Stat label="Cache read tokens" value={formatNumber(s?.cache_read_tokens)} testId="stat-cache-read" />
        <Stat
          label="Cache write tokens"
          value={formatNumber(s?.cache_write_tokens)}
          testId="stat-cache-write"
        />
        <Stat label="Reasoning tokens" value={formatNumber(s?.reasoning_tokens)} testId="stat-reasoning" />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }} mb="md">
        <UsageChart usage={usage.data} groupBy={groupBy} />
        <Card withBorder>
          <Stack gap="xs">
            <Title order={5}>Cost (USD) by model</Title>
            <BarChart
              h={260}
              data={cost.rows}
              dataKey="period"
              type="stacked"
              series={cost.series}
              valueFormatter={(v) => formatUsd(v)}
              tickLine="y"
            />
            <UnpricedModels models={costStats.data?.unpriced_models} admin={admin} />
          </Stack>
        </Card>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xl: 2 }}>
        <BreakdownCard
          title="By model"
          columns={modelColumns}
          rows={byModel}
          rowKey={(r) => r.model}
          loading={usageStats.isPending}
          testId="analytics-by-model"
        />
        <BreakdownCard
          title="By endpoint"
          columns={endpointColumns}
          rows={byEndpoint}
          rowKey={(r) => r.endpoint}
          loading={usageStats.isPending}
          testId="analytics-by-endpoint"
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xl: 2 }} mt="md">
        <BreakdownCard
          title="By client"
          columns={clientColumns}
          rows={clients.data?.data}
          rowKey={clientKey}
          loading={clients.isPending}
          testId="analytics-by-client"
        />
        <BreakdownCard
          title="Errors"
          columns={errorColumns}
          rows={failures.data?.data}
          rowKey={errorKey}
          loading={failures.isPending}
          empty="No failed or refused requests in this range."
          testId="analytics-errors"
        />
      </SimpleGrid>
    </>
  );
}
