import { CompositeChart } from '@mantine/charts';
import { Card, Stack, Text, Title } from '@mantine/core';
import type { Schemas } from '../../api/types';
import { formatNumber } from '../../lib/format';
import { type GroupBy, usageRows } from './analytics-data';

/**
 * Requests (bars, left axis) and tokens (line, right axis) per period: the two differ by orders
 * of magnitude, so each has its own scale.
 */
export function UsageChart({
  usage,
  groupBy,
}: {
  usage: Schemas['UsageSeries'] | undefined;
  groupBy: GroupBy;
}) {
  return (
    <Card withBorder data-testid="usage-chart">
      <Stack gap="xs">
        <Title order={5}>Requests and tokens</Title>
        <Text size="xs" c="dimmed">
          Requests as bars (left axis), tokens (prompt and completion) as a line (right axis).
        </Text>
        <CompositeChart
          h={260}
          data={usageRows(usage, groupBy)}
          dataKey="period"
          withLegend
          withRightYAxis
          series={[
            { name: 'request_count', label: 'Requests', color: 'indigo.6', type: 'bar' },
            { name: 'total_tokens', label: 'Tokens', color: 'teal.6', type: 'line', yAxisId: 'right' },
          ]}
          valueFormatter={(value) => formatNumber(value)}
          tickLine="y"
        />
      </Stack>
    </Card>
  );
}
