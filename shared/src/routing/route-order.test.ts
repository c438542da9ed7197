import { describe, expect, it } from 'vitest';
import { testModel, testRoute } from '../../test/routing/test-fixtures';
import type { ResolvedModel, ResolvedRoute } from './resolve';
import { createRouteLatency, EXPLORE_SHARE, orderRoutes } from './route-order';

const route = (routeId: string, weight = 1): ResolvedRoute =>
  testRoute({ routeId, providerName: routeId, weight });

const model = (strategy: ResolvedModel['strategy'], routes: ResolvedRoute[]): ResolvedModel =>
  testModel(routes, { strategy });

const ids = (routes: ResolvedRoute[]) => routes.map((r) => r.routeId);

/** A deterministic sequence of draws in [0, 1). */
function draws(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length] as number;
}

describe('orderRoutes', () => {
  const three = [route('a', 3), route('b', 1), route('c', 0)];

  it('keeps position order for ordered (the same array: nothing allocated)', () => {
    const m = model('ordered', three);
    expect(orderRoutes(m, createRouteLatency())).toBe(m.routes);
  });

  it('draws the first route by weight and keeps the others, by position, as fallbacks', () => {
    const m = model('weighted', three);
    expect(ids(orderRoutes(m, createRouteLatency(), draws(0.1)))).toEqual(['a', 'b', 'c']);
    expect(ids(orderRoutes(m, createRouteLatency(), draws(0.8)))).toEqual(['b', 'a', 'c']);
    const firsts = new Map<string | null | undefined, number>();
    for (let i = 0; i < 4000; i++) {
      const first = orderRoutes(m, createRouteLatency())[0]?.routeId;
      firsts.set(first, (firsts.get(first) ?? 0) + 1);
    }
    expect((firsts.get('a') ?? 0) / 4000).toBeGreaterThan(0.7);
    expect((firsts.get('a') ?? 0) / 4000).toBeLessThan(0.8);
    expect(firsts.get('c')).toBeUndefined(); // weight 0 is never drawn first
  });

  it('puts the fastest first for least_latency, trying unmeasured routes first, and explores a few', () => {
    const latency = createRouteLatency();
    const m = model('least_latency', [route('slow'), route('fast'), route('new')]);
    latency.observe('slow', 900);
    latency.observe('fast', 100);
    const noExplore = draws(EXPLORE_SHARE + 0.01);
    expect(ids(orderRoutes(m, latency, noExplore))).toEqual(['new', 'slow', 'fast']);
    latency.observe('new', 400);
    expect(ids(orderRoutes(m, latency, noExplore))).toEqual(['fast', 'slow', 'new']);
    // The moving average follows a route that slows down.
    for (let i = 0; i < 20; i++) latency.observe('fast', 2000);
    expect(ids(orderRoutes(m, latency, noExplore))).toEqual(['new', 'slow', 'fast']);
    // An exploring request draws its first route at random.
    expect(ids(orderRoutes(m, latency, draws(0, 0.99)))[0]).toBe('new');
    expect(ids(orderRoutes(m, latency, draws(0, 0.01)))[0]).toBe('slow');
  });
});
