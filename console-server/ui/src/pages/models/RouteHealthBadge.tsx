import { Badge, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, unwrap } from '../../api/client';
import {
  BENCH_EXPLANATION,
  healthBadge,
  healthByRoute,
  ROUTE_HEALTH_REFRESH_MS,
  type RouteHealth,
} from './route-health';

/** The health of the routes that failed lately, by route id, reloaded every 10 s while shown. */
export function useRouteHealth() {
  const query = useQuery({
    queryKey: ['route-health'],
    queryFn: () => unwrap(api.GET('/api/admin/models/route-health')),
    refetchInterval: ROUTE_HEALTH_REFRESH_MS,
  });
  const byRoute = useMemo(() => healthByRoute(query.data), [query.data]);
  return { byRoute, error: query.error };
}

/** A route's bench state as a small badge, with what benching means on hover; nothing when healthy. */
export function RouteHealthBadge({ health }: { health: RouteHealth | undefined }) {
  if (!health) return null;
  const { label, color } = healthBadge(health);
  return (
    <Tooltip label={BENCH_EXPLANATION} multiline w={280} withArrow>
      <Badge
        size="xs"
        variant="light"
        color={color}
        data-testid="route-health-badge"
        data-state={health.state}
      >
        {label}
      </Badge>
    </Tooltip>
  );
}
