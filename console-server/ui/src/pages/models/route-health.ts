import type { Schemas } from '../../api/types';

/** A route that failed lately (GET /api/admin/models/route-health); healthy routes have none. */
export type RouteHealth = Schemas['RouteHealth'];

/** How often the Models page reloads the routes' health while it is open. */
export const ROUTE_HEALTH_REFRESH_MS = 10_000;

export const BENCH_EXPLANATION =
  'Benched routes are skipped without an upstream call until the cool-down ends; then one request probes the route.';

/** The health entries by route id: a route absent from the map is healthy. */
export function healthByRoute(entries: readonly RouteHealth[] | undefined): Map<string, RouteHealth> {
  return new Map((entries ?? []).map((entry) => [entry.route_id, entry]));
}

const clock = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** HH:MM:SS in the browser's time zone; the input as is when it is not a date. */
export function formatClock(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : clock.format(date);
}

export interface HealthBadgeSpec {
  label: string;
  color: 'red' | 'orange' | 'yellow';
}

/** The badge a route with a health entry shows: benched red, on probation orange, failing yellow. */
export function healthBadge(
  entry: RouteHealth,
  formatTime: (iso: string) => string = formatClock,
): HealthBadgeSpec {
  switch (entry.state) {
    case 'benched':
      return {
        label: entry.benched_until ? `Benched until ${formatTime(entry.benched_until)}` : 'Benched',
        color: 'red',
      };
    case 'probation':
      return { label: 'Probation', color: 'orange' };
    case 'failing':
      return { label: `${entry.failures} failure${entry.failures === 1 ? '' : 's'}`, color: 'yellow' };
  }
}
