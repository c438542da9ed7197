import { describe, expect, it } from 'vitest';
import { testModel, testRoute } from '../../test/routing/test-fixtures';
import type { ProviderAdapter } from '../canonical/ports';
import { AppError } from '../http/app-error';
import type { FirstRouteCheck } from '../limits/gate';
import type { RouteCapDecision, RouteCapInput } from '../limits/route-caps';
import { openAiAdapter } from '../providers/openai/adapter';
import { HEALTHY, type RouteState } from '../routing/route-health';
import {
  ClientGoneError,
  callFirstWorkingRoute,
  clientFacingError,
  type RouteAnswer,
  type RouteCaller,
  RoutesFailedError,
  targetFor,
  type WalkStart,
} from './route-attempts';
import type { ProxyDeps, ProxySettings, ResolvedModel, ResolvedRoute } from './types';
import type { FetchFailure } from './upstream-fetch';

const NOW = 1_700_000_000_000;

function route(id: string, patch: Partial<ResolvedRoute> = {}): ResolvedRoute {
  const names = { providerId: `p-${id}`, providerName: `prov-${id}`, upstreamModel: `up-${id}` };
  return testRoute({ routeId: id, ...names, apiKeyEncrypted: `sealed-${id}`, ...patch });
}

const model = (routes: ResolvedRoute[]): ResolvedModel => testModel(routes, { modelId: 'm1' });

const SETTINGS = { rateLimitFailClosed: false } as ProxySettings;

/** The walk's ports: route caps answered per route id, health reports and latencies recorded. */
function fakeDeps(caps: Record<string, RouteCapDecision | Error> = {}) {
  const admitted: RouteCapInput[] = [];
  const reports: Array<[string, string]> = [];
  const latencies: Array<[string, number]> = [];
  const warnings: string[] = [];
  const deps = {
    providers: { openai: openAiAdapter } as Record<string, ProviderAdapter>,
    now: () => NOW,
    routeCaps: {
      async admit(input: RouteCapInput) {
        admitted.push(input);
        const decision = caps[input.routeId] ?? { ok: true };
        if (decision instanceof Error) throw decision;
        return decision;
      },
    },
    routeHealth: {
      snapshot: () => ({ state: () => HEALTHY }),
      report: (routeId: string, outcome: string) => void reports.push([routeId, outcome]),
    },
    routeLatency: {
      observe: (id: string, ms: number) => void latencies.push([id, ms]),
      estimate: () => undefined,
    },
    revealProviderKey: async (sealed: string) => `open(${sealed})`,
    warn: (message: string) => void warnings.push(message),
  } as unknown as ProxyDeps;
  return { deps, admitted, reports, latencies, warnings };
}

function start(
  routes: ResolvedRoute[],
  patch: { firstRoute?: FirstRouteCheck; states?: Record<string, Partial<RouteState>> } = {},
): WalkStart {
  const states = patch.states ?? {};
  return {
    firstRoute: patch.firstRoute ?? { ok: true },
    health: { state: (id) => ({ ...HEALTHY, ...(id === null ? {} : states[id]) }) },
    admittedAt: NOW,
    routes,
    keepAlive: () => undefined,
  };
}

type Script = (adapter: ProviderAdapter) => RouteAnswer<string>;
const ok: Script = () => ({ ok: true, value: 'answer' });
const failed =
  (reason: FetchFailure['reason'], message: string): Script =>
  () => ({ ok: false, failed: { ok: false, reason, message } });
const connectError = failed('network', 'ECONNRESET');
const timeout = failed('timeout', 'no answer');
const clientLeft = failed('client_aborted', 'client went away');
/** The vendor's refusal as the route's adapter maps it. */
const refused =
  (status: number, body: string): Script =>
  (adapter) => ({ ok: false, refused: adapter.mapError(status, body) });

/** A caller answering each route id by its script; records which routes it was asked to call. */
function caller(scripts: Record<string, Script>) {
  const called: string[] = [];
  const routeCaller: RouteCaller<string> = {
    serves: () => true,
    async call(r, adapter) {
      called.push(r.routeId ?? 'direct');
      const script = scripts[r.routeId ?? 'direct'];
      if (!script) throw new Error(`route ${r.routeId} was not expected to be called`);
      return script(adapter);
    },
  };
  return { routeCaller, called };
}

async function failure(promise: Promise<unknown>): Promise<RoutesFailedError> {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof RoutesFailedError)) throw new Error(`expected RoutesFailedError, got ${error}`);
  return error;
}

const [a, b, c] = [route('a'), route('b'), route('c')];
const m = model([a, b, c]);

describe('callFirstWorkingRoute falls back', () => {
  it.each([
    ['a connect error', connectError],
    ['a timeout', timeout],
    ['a 429', refused(429, '{"error":{"message":"slow down","type":"rate_limit_exceeded"}}')],
    ['a 503', refused(503, 'upstream overloaded')],
  ])('to the next route after %s, reporting the failure', async (_, first) => {
    const { deps, reports, latencies } = fakeDeps();
    const { routeCaller, called } = caller({ a: first, b: ok });
    const success = await callFirstWorkingRoute(m, deps, SETTINGS, start([a, b, c]), routeCaller);
    expect(success).toMatchObject({ value: 'answer', route: b, attempts: 2 });
    expect(called).toEqual(['a', 'b']);
    // A healthy route's success is not reported; its latency is observed.
    expect(reports).toEqual([['a', 'failed']]);
    expect(latencies).toEqual([['b', 0]]);
  });

  it('reports the success of a route on probation (level > 0)', async () => {
    const { deps, reports } = fakeDeps();
    const { routeCaller } = caller({ a: ok });
    await callFirstWorkingRoute(m, deps, SETTINGS, start([a], { states: { a: { level: 1 } } }), routeCaller);
    expect(reports).toEqual([['a', 'succeeded']]);
  });

  it('does not fall back on a non-retryable refusal: the client gets it', async () => {
    const { deps, reports } = fakeDeps();
    const { routeCaller, called } = caller({
      a: refused(400, '{"error":{"message":"bad messages","type":"invalid_request_error"}}'),
    });
    const error = await failure(callFirstWorkingRoute(m, deps, SETTINGS, start([a, b]), routeCaller));
    expect(called).toEqual(['a']);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', message: 'bad messages' });
    expect(error.trace).toEqual({ attempts: 1, route: a });
    expect(reports).toEqual([]);
  });

  it("turns the vendor refusing the gateway's credentials into a 502", async () => {
    const { deps } = fakeDeps();
    const { routeCaller } = caller({ a: refused(401, '{"error":{"message":"Incorrect API key"}}') });
    const error = await failure(callFirstWorkingRoute(m, deps, SETTINGS, start([a, b]), routeCaller));
    expect(error.status).toBe(502);
    expect(error.message).toBe("Upstream prov-a refused the gateway's credentials");
  });
});

describe('callFirstWorkingRoute when every route fails', () => {
  it('answers 502 naming the last failure, with the attempts and the last route in its trace', async () => {
    const { deps } = fakeDeps();
    const { routeCaller } = caller({ a: connectError, b: timeout, c: refused(500, '') });
    const error = await failure(callFirstWorkingRoute(m, deps, SETTINGS, start([a, b, c]), routeCaller));
    expect(error.status).toBe(502);
    expect(error.type).toBe('upstream_error');
    expect(error.message).toBe(
      'All routes failed for model house (last: prov-c: 500 Upstream returned HTTP 500)',
    );
    expect(error.trace).toEqual({ attempts: 3, route: c });
  });

  it('answers 504 when every route tried timed out', async () => {
    const { deps } = fakeDeps();
    const { routeCaller } = caller({ a: timeout, b: timeout });
    const error = await failure(
      callFirstWorkingRoute(model([a, b]), deps, SETTINGS, start([a, b]), routeCaller),
    );
    expect(error.status).toBe(504);
    expect(error.trace).toEqual({ attempts: 2, route: b });
  });

  it('throws ClientGoneError, trying nothing more, when the client left', async () => {
    const { deps, reports } = fakeDeps();
    const { routeCaller, called } = caller({ a: connectError, b: clientLeft });
    const error = await callFirstWorkingRoute(m, deps, SETTINGS, start([a, b, c]), routeCaller).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(ClientGoneError);
    expect((error as ClientGoneError).trace).toEqual({ attempts: 2, route: b });
    expect(called).toEqual(['a', 'b']);
    expect(reports).toEqual([['a', 'failed']]);
  });
});

describe('callFirstWorkingRoute skips', () => {
  it('benched routes without a call or a cap check', async () => {
    const { deps, admitted } = fakeDeps();
    const { routeCaller, called } = caller({ b: ok });
    const walk = start([a, b], { states: { a: { benchedUntil: NOW + 5_000, level: 1 } } });
    const success = await callFirstWorkingRoute(m, deps, SETTINGS, walk, routeCaller);
    expect(success).toMatchObject({ route: b, attempts: 1 });
    expect(called).toEqual(['b']);
    // b is the first route not benched: the gate's decision stands for it.
    expect(admitted).toEqual([]);
  });

  it('answers 503 with the soonest bench end when every route is benched', async () => {
    const { deps } = fakeDeps();
    const { routeCaller, called } = caller({});
    const states = { a: { benchedUntil: NOW + 9_000 }, b: { benchedUntil: NOW + 2_500 } };
    const error = await failure(
      callFirstWorkingRoute(m, deps, SETTINGS, start([a, b], { states }), routeCaller),
    );
    expect(called).toEqual([]);
    expect(error.status).toBe(503);
    expect(error.headers).toEqual({ 'Retry-After': '3' });
    expect(error.trace).toEqual({ attempts: 0, route: null });
  });

  it('routes whose provider cannot serve the request, caps untouched', async () => {
    const { deps, admitted } = fakeDeps();
    const other = route('x', { providerType: 'anthropic' });
    const { routeCaller, called } = caller({ a: ok });
    const success = await callFirstWorkingRoute(m, deps, SETTINGS, start([other, a]), routeCaller);
    expect(success.route).toBe(a);
    expect(called).toEqual(['a']);
    expect(admitted).toEqual([]);
  });

  it('a later route whose caps refuse, for the next one', async () => {
    const capped = route('b', { rpmCap: 10, tpmCap: 1000 });
    const { deps, admitted } = fakeDeps({
      b: { ok: false, label: 'route:requests/1m', retryAfterSeconds: 7 },
    });
    const { routeCaller, called } = caller({ a: connectError, c: ok });
    const success = await callFirstWorkingRoute(m, deps, SETTINGS, start([a, capped, c]), routeCaller);
    expect(success).toMatchObject({ route: c, attempts: 2 });
    expect(called).toEqual(['a', 'c']);
    // The first route's caps were the gate's; the later ones are checked here.
    expect(admitted).toEqual([
      { routeId: 'b', rpmCap: 10, tpmCap: 1000 },
      { routeId: 'c', rpmCap: null, tpmCap: null },
    ]);
  });

  it("answers 429 with the soonest Retry-After when the gate's and later caps refuse them all", async () => {
    const { deps } = fakeDeps({ b: { ok: false, label: 'route:tokens/1m', retryAfterSeconds: 4 } });
    const { routeCaller, called } = caller({});
    const first: FirstRouteCheck = { ok: false, label: 'route:requests/1m', retryAfterSeconds: 12 };
    const error = await failure(
      callFirstWorkingRoute(model([a, b]), deps, SETTINGS, start([a, b], { firstRoute: first }), routeCaller),
    );
    expect(called).toEqual([]);
    expect(error).toMatchObject({ status: 429, message: 'Rate limited: route:tokens/1m' });
    expect(error.headers).toEqual({ 'Retry-After': '4' });
  });

  it("checks the first route's caps itself when the gate left them unchecked", async () => {
    const { deps, admitted } = fakeDeps();
    const { routeCaller } = caller({ a: ok });
    await callFirstWorkingRoute(m, deps, SETTINGS, start([a], { firstRoute: 'unchecked' }), routeCaller);
    expect(admitted).toEqual([{ routeId: 'a', rpmCap: null, tpmCap: null }]);
  });

  it('follows rate_limit_fail_closed when the route caps cannot be reached', async () => {
    const down = () => fakeDeps({ b: new Error('redis down') });
    const open = down();
    const tried = caller({ a: connectError, b: ok });
    const success = await callFirstWorkingRoute(m, open.deps, SETTINGS, start([a, b]), tried.routeCaller);
    expect(success.route).toBe(b);
    expect(open.warnings).toEqual(['route caps unavailable']);

    const closed = down();
    const skipped = caller({ a: connectError });
    const failClosed = { rateLimitFailClosed: true } as ProxySettings;
    const error = await failure(
      callFirstWorkingRoute(model([a, b]), closed.deps, failClosed, start([a, b]), skipped.routeCaller),
    );
    expect(skipped.called).toEqual(['a']);
    expect(error.status).toBe(502);
    expect(error.trace).toEqual({ attempts: 1, route: a });
  });
});

describe('clientFacingError', () => {
  const upstream = (status: number) => ({
    status,
    type: 'vendor_type',
    message: 'vendor says',
    retryable: false,
  });

  it.each([400, 404, 413, 422])('passes an upstream %i on with its type and message', (status) => {
    const error = clientFacingError(upstream(status), a);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status, type: 'vendor_type', message: 'vendor says' });
  });

  it.each([401, 403])("answers an upstream %i as the gateway's own 502", (status) => {
    expect(clientFacingError(upstream(status), a)).toMatchObject({ status: 502, type: 'upstream_error' });
  });

  it('answers any other non-retryable status as a 400 with the vendor message', () => {
    expect(clientFacingError(upstream(402), a)).toMatchObject({ status: 400, message: 'vendor says' });
  });
});

describe('targetFor', () => {
  it("opens the route's sealed key and names its upstream model", async () => {
    const { deps } = fakeDeps();
    const r = route('a', { config: { api_version: '2024-10-21' } });
    expect(await targetFor(r, deps)).toEqual({
      baseUrl: 'https://api.example/v1',
      apiKey: 'open(sealed-a)',
      upstreamModel: 'up-a',
      config: { api_version: '2024-10-21' },
    });
  });
});
