import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatNumber } from '../../lib/format';

export interface UnpricedRange {
  /** ISO instants of the analytics range; `to` absent means now. */
  from?: string;
  to?: string;
  model?: string;
}

/** The gateway logs filtered to the unpriced requests of the range (GatewayLogsPage reads these). */
export function unpricedLogsLink(range: UnpricedRange): string {
  const params = new URLSearchParams({ unpriced: 'true' });
  if (range.from) params.set('from', range.from);
  if (range.to) params.set('to', range.to);
  if (range.model) params.set('model', range.model);
  return `/logs/gateway?${params}`;
}

/**
 * What a cost total leaves out: "+ 12 unpriced requests", linked (for admins) to the gateway
 * logs of those requests. Nothing when every request was priced.
 */
export function UnpricedCount({
  count,
  range,
  admin,
}: {
  count: number | undefined;
  range: UnpricedRange;
  admin: boolean;
}) {
  if (!count) return null;
  const text = `+ ${formatNumber(count)} unpriced request${count === 1 ? '' : 's'}`;
  return admin ? (
    <Anchor
      component={Link}
      to={unpricedLogsLink(range)}
      size="sm"
      c="orange"
      data-testid="unpriced-requests"
    >
      {text}
    </Anchor>
  ) : (
    <Text size="sm" c="orange" data-testid="unpriced-requests">
      {text}
    </Text>
  );
}

/**
 * Under the cost chart: which models' requests it cannot show (no price: cost unknown, not $0),
 * and where to give them prices (admins: the Models page, which flags them).
 */
export function UnpricedModels({
  models,
  admin,
}: {
  models: Record<string, number> | undefined;
  admin: boolean;
}) {
  const entries = Object.entries(models ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (entries.length === 0) return null;
  return (
    <Text size="sm" c="dimmed" data-testid="unpriced-models">
      Not in this chart (no price, so their cost is unknown):{' '}
      {entries.map(([model, requests], i) => (
        <span key={model}>
          {i > 0 && ', '}
          <Text span fw={600} c="orange">
            {model}
          </Text>{' '}
          ({formatNumber(requests)} request{requests === 1 ? '' : 's'})
        </span>
      ))}
      .{' '}
      {admin ? (
        <>
          Give them prices on{' '}
          <Anchor component={Link} to="/models" size="sm">
            Models & routes
          </Anchor>{' '}
          or in the{' '}
          <Anchor component={Link} to="/models/prices" size="sm">
            price table
          </Anchor>
          .
        </>
      ) : (
        'An admin can give them prices.'
      )}
    </Text>
  );
}
