import { eq, inArray } from 'drizzle-orm';
import { modelRoutes, models, providers } from '../db/schema';
import type { QueryDb } from '../db/types';
import type { RedisPort } from '../stores/redis-port';
import { parseRouteHealth, ROUTE_HEALTH_KEY } from './route-health';

/** healthy: failures counted but not benched; benched: skipped; probation: off the bench, unproven. */
export type RouteHealthState = 'failing' | 'benched' | 'probation';

/** A route that failed lately, named, as the console and /metrics show it. */
export interface RouteHealthEntry {
  route_id: string;
  model: string;
  provider: string;
  upstream_model: string;
  state: RouteHealthState;
  /** Failures in the current window (before a bench). */
  failures: number;
  /** Benches in a row (0 while only failing). */
  bench_level: number;
  /** ISO time the bench ends; null when not benched. */
  benched_until: string | null;
}

/**
 * The routes with a health record (every other route is healthy), with their model and
 * provider names; records of routes deleted since are left out.
 */
export async function readRouteHealth(
  redis: Pick<RedisPort, 'hgetall'>,
  db: QueryDb,
  nowMs: number,
): Promise<RouteHealthEntry[]> {
  const states = parseRouteHealth((await redis.hgetall(ROUTE_HEALTH_KEY)) as Record<string, unknown> | null);
  const ids = [...states.keys()].filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: modelRoutes.id,
      model: models.name,
      provider: providers.name,
      upstreamModel: modelRoutes.upstreamModel,
    })
    .from(modelRoutes)
    .innerJoin(models, eq(models.id, modelRoutes.modelId))
    .innerJoin(providers, eq(providers.id, modelRoutes.providerId))
    .where(inArray(modelRoutes.id, ids));
  return rows
    .map((row) => {
      const state = states.get(row.id)!;
      const benched = state.benchedUntil > nowMs;
      return {
        route_id: row.id,
        model: row.model,
        provider: row.provider,
        upstream_model: row.upstreamModel,
        state: benched ? 'benched' : state.level > 0 ? 'probation' : 'failing',
        failures: state.failures,
        bench_level: state.level,
        benched_until: benched ? new Date(state.benchedUntil).toISOString() : null,
      } satisfies RouteHealthEntry;
    })
    .sort((a, b) => a.model.localeCompare(b.model) || a.provider.localeCompare(b.provider));
}

/** /metrics: 0 failing, 1 benched, 2 on probation. */
export const ROUTE_STATE_VALUES: Readonly<Record<RouteHealthState, number>> = {
  failing: 0,
  benched: 1,
  probation: 2,
};
