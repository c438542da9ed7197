// Analytics agree with the request log: a few hundred mixed requests through the real gateway
// (official clients, fake upstreams; chat, messages, responses; streaming or not; own-priced,
// priced by the price table, unpriced, failing), spread over several days by the gateway's clock,
// then every analytics answer (usage and costs per day and hour, per model, and their stats) must
// equal the sums of the request-log rows exactly, on the ClickHouse and the Postgres store.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { utcDaysIn } from '../../shared/src/logs/analytics/usage-report';
import { createClickHouse } from '../../shared/src/stores/clickhouse';
import { type FakeUpstreams, startFakeUpstreams } from '../fakes/server';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { CLICKHOUSE_URL } from '../helpers/env';
import { configureFakeProviders, PRICES } from '../helpers/fake-providers';
import { gatewayHarness } from '../helpers/gateway';
import { appEnv, freshDatabase } from '../helpers/stores';
import {
  costByModelNanos,
  costOf,
  inNanos,
  type LogRow,
  nanos,
  periodsOf,
  usageOf,
} from '../helpers/traffic-expect';
import { CALLS, type Clients, inParallel, send, shiftedClock } from '../helpers/traffic-mix';

const CH_DATABASE = 'sluice_p_traffic';
const HOUR = 3_600_000;
/** Priced through the price table: no own prices, routes to seeded upstream models. */
const TABLE_MODELS = {
  'm-table': ['openai', 'gpt-4o-mini'],
  'm-table-claude': ['anthropic', 'claude-3-5-haiku-20241022'],
};
/** The seeded list prices of those upstream models (shared/migrations/0004_seed_model_prices.sql). */
const TABLE_PRICES: Record<string, { input: number; output: number }> = {
  'm-table': { input: 0.15, output: 0.6 },
  'm-table-claude': { input: 0.8, output: 4 },
};
const OWN_PRICED = ['m-openai', 'm-anthropic', 'm-bad-request', 'm-all-fail', 'm-capped'];
/** The mix, by request index: priced, table-priced, unpriced and failing models. */
const MIX = [
  'm-openai',
  'm-anthropic',
  'm-table',
  'm-table-claude',
  'm-unpriced',
  'm-openai',
  'm-table',
  'm-unpriced',
  'm-bad-request',
  'm-all-fail',
  'm-nope',
];
const REQUESTS = 286;

interface Planned {
  model: string;
  call: (typeof CALLS)[number];
  text: string;
  shiftMs: number;
}

/** Every (model, call) pair comes up; shifts spread the traffic over the last ~70 hours. */
function plan(): Planned[] {
  return Array.from({ length: REQUESTS }, (_, i) => ({
    model: MIX[i % MIX.length] as string,
    call: CALLS[Math.floor(i / MIX.length) % CALLS.length] as (typeof CALLS)[number],
    text: `traffic ${i}${' word'.repeat(i % 9)}`,
    shiftMs: (i % 24) * 3 * HOUR + (i % 7) * 7 * 60_000,
  }));
}

/** What a row must cost by the precedence: own prices, else the price table, else unpriced. */
function expectedCost(row: LogRow): number | null {
  // A model that does not exist was refused before anything was spent.
  if (row.model === 'm-nope') return 0;
  if (row.model === 'm-unpriced') return null;
  if (row.cache_hit) return 0;
  const own = OWN_PRICED.includes(row.model);
  const price = own
    ? { input: PRICES.input_price_per_mtok, output: PRICES.output_price_per_mtok }
    : TABLE_PRICES[row.model];
  if (!price) throw new Error(`no expected price for ${row.model}`);
  return nanos((row.prompt_tokens * price.input + row.completion_tokens * price.output) / 1e6) / 1e9;
}

describe.each<{ store: string; extra: Record<string, string> }>([
  { store: 'clickhouse', extra: { CLICKHOUSE_DATABASE: CH_DATABASE } },
  { store: 'postgres', extra: { CLICKHOUSE_URL: '' } },
])('analytics after mixed gateway traffic ($store)', ({ store, extra }) => {
  let fakes: FakeUpstreams;
  let consoleApp: ConsoleHarness;
  let token: string;
  let rows: LogRow[];
  let expectedRows = 0;
  const statuses = new Map<string, number[]>();
  const from = new Date(Date.now() - 4 * 24 * HOUR);
  const to = new Date(Date.now() + 10 * 60_000);
  const range = { from: from.toISOString(), to: to.toISOString() };

  // biome-ignore lint/suspicious/noExplicitAny: console answers are asserted field by field.
  async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const res = await consoleApp.call(method, path, { token, body });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  }
  const get = (path: string, query: Record<string, string> = {}) =>
    api('GET', `${path}?${new URLSearchParams(query)}`);

  async function logTotal(): Promise<number> {
    return (await get('/api/gateway/logs', { ...range, limit: '1' })).body.total;
  }

  /** Ledger rows are written in waitUntil batches: poll the total, never sleep a fixed time. */
  async function waitForLogs(count: number): Promise<void> {
    await vi.waitFor(
      async () => {
        const total = await logTotal();
        if (total !== count) throw new Error(`${total} of ${count} request-log rows so far`);
      },
      { timeout: 20_000, interval: 200 },
    );
  }

  async function readAllLogs(): Promise<LogRow[]> {
    const out: LogRow[] = [];
    for (let offset = 0; ; offset += 200) {
      const page = await get('/api/gateway/logs', { ...range, limit: '200', offset: String(offset) });
      expect(page.status).toBe(200);
      out.push(...page.body.entries);
      if (out.length >= page.body.total) return out;
    }
  }

  beforeAll(async () => {
    if (store === 'clickhouse') {
      const ch = createClickHouse({ url: CLICKHOUSE_URL, requestTimeoutMs: 10_000 });
      await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(CH_DATABASE)}`.sql });
      await ch.close();
    }
    fakes = await startFakeUpstreams();
    const env = appEnv(await freshDatabase(`sluice_p_traffic_${store}`), extra);
    consoleApp = await consoleHarness(env);
    const gateway = gatewayHarness(env);
    const clock = shiftedClock();
    gateway.deps.proxy.now = clock.now;
    const admin = {
      email: `traffic@${store}.example`,
      display_name: 'A',
      password: 'traffic-admin-password',
    };
    token = (await (await consoleApp.call('POST', '/api/setup/initialize', { body: { admin } })).json())
      .access_token;
    await configureFakeProviders(api, fakes);
    const providers = new Map<string, string>(
      (await api('GET', '/api/admin/providers')).body.map((p: { name: string; id: string }) => [
        p.name,
        p.id,
      ]),
    );
    for (const [name, [vendor, upstream_model]] of Object.entries(TABLE_MODELS)) {
      const routes = [{ provider_id: providers.get(`fake-${vendor}`), upstream_model }];
      expect((await api('POST', '/api/admin/models', { name, routes })).status).toBe(201);
    }
    const key = (await api('POST', '/api/keys', { name: 'traffic' })).body.key as string;
    const gatewayFetch = ((input: string | URL | Request, init?: RequestInit) =>
      gateway.app.request(input instanceof Request ? input : String(input), init)) as typeof fetch;
    const clients: Clients = {
      openai: new OpenAI({
        apiKey: key,
        baseURL: 'http://gateway.test/v1',
        fetch: gatewayFetch,
        maxRetries: 0,
      }),
      anthropic: new Anthropic({
        apiKey: key,
        baseURL: 'http://gateway.test',
        fetch: gatewayFetch,
        maxRetries: 0,
      }),
    };
    const record = (model: string, status: number) =>
      statuses.set(model, [...(statuses.get(model) ?? []), status]);

    const planned = plan();
    const results = await inParallel(
      planned.map((p) => () => clock.at(p.shiftMs, () => send(clients, p.call, p.model, p.text))),
      6,
    );
    for (const [i, p] of planned.entries()) record(p.model, results[i] as number);
    // A route capped at 1 request a minute: the first passes, the next are refused (429).
    for (let i = 0; i < 3; i++) record('m-capped', await send(clients, 'chat', 'm-capped', `capped ${i}`));
    // Every request is logged, the refused ones (m-nope's 404s) included.
    const logged = planned.length + 3;
    await waitForLogs(logged);
    // Repeats of answered requests at their own shift: response-cache hits (tokens, cost 0).
    const repeats = planned
      .filter((p) => ['m-openai', 'm-table', 'm-unpriced'].includes(p.model))
      .slice(0, 6);
    for (const p of repeats)
      record(p.model, await clock.at(p.shiftMs, () => send(clients, p.call, p.model, p.text)));
    expectedRows = logged + repeats.length;
    await waitForLogs(expectedRows);
    rows = await readAllLogs();
  }, 120_000);
  afterAll(async () => {
    await fakes?.close();
    await consoleApp?.close();
  });

  it('answered as each model behaves, and logged every request, refused ones included', () => {
    expect(rows.length).toBe(expectedRows);
    expect(rows.length).toBeGreaterThan(250);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    for (const model of ['m-openai', 'm-anthropic', 'm-table', 'm-table-claude', 'm-unpriced']) {
      expect(new Set(statuses.get(model)), model).toEqual(new Set([200]));
    }
    expect(new Set(statuses.get('m-bad-request'))).toEqual(new Set([400]));
    // Every route failing: 502 until the routes are benched (3 failures each), 503 after.
    const allFail = statuses.get('m-all-fail') ?? [];
    expect(allFail[0]).toBe(502);
    expect(allFail.every((status) => status === 502 || status === 503)).toBe(true);
    expect(new Set(statuses.get('m-nope'))).toEqual(new Set([404]));
    expect(statuses.get('m-capped')).toEqual([200, 429, 429]);
    const refused = rows.filter((r) => r.model === 'm-nope');
    expect(refused.length).toBe(statuses.get('m-nope')?.length);
    for (const row of refused) {
      expect(row).toMatchObject({
        status_code: 404,
        error_type: 'not_found_error',
        prompt_tokens: 0,
        cost_usd: 0,
      });
    }
    expect(rows.filter((r) => r.cache_hit)).toHaveLength(6);
    const days = new Set(rows.map((r) => r.created_at.slice(0, 10)));
    // Shifts reach back 69 h 42 min: at least three UTC days, four before 21:42.
    expect(days.size).toBeGreaterThanOrEqual(3);
  });

  it('priced every row by the precedence: own prices, price table, or unpriced (null, never $0)', () => {
    for (const row of rows) {
      expect(row.cost_usd, `${row.model} ${row.id}`).toBe(expectedCost(row));
      expect(row.unpriced).toBe(row.model === 'm-unpriced');
    }
    const tablePriced = rows.filter((r) => r.model.startsWith('m-table') && !r.cache_hit);
    expect(tablePriced.length).toBeGreaterThan(50);
    expect(tablePriced.every((r) => (r.cost_usd ?? 0) > 0)).toBe(true);
  });

  it('finds each kind of failing request in the gateway logs by status_code', async () => {
    for (const [status, model] of [
      [400, 'm-bad-request'],
      [502, 'm-all-fail'],
      [429, 'm-capped'],
    ] as const) {
      const expected = rows.filter((r) => r.status_code === status);
      expect(expected.length, String(status)).toBeGreaterThan(0);
      const res = await get('/api/gateway/logs', { ...range, status_code: String(status), limit: '200' });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(expected.length);
      expect(new Set(res.body.entries.map((e: LogRow) => e.model))).toEqual(new Set([model]));
      expect(res.body.entries.map((e: LogRow) => e.id).sort()).toEqual(expected.map((r) => r.id).sort());
    }
  });

  const models = [
    undefined,
    ...Object.keys(TABLE_MODELS),
    'm-openai',
    'm-anthropic',
    'm-unpriced',
    'm-all-fail',
  ];

  it.each(['day', 'hour'] as const)('usage by %s equals the log, in total and per model', async (groupBy) => {
    for (const model of models) {
      const mine = model ? rows.filter((r) => r.model === model) : rows;
      const res = await get('/api/analytics/usage', { ...range, group_by: groupBy, ...(model && { model }) });
      expect(res.status).toBe(200);
      const expected = [...periodsOf(mine, from, to, groupBy)].map(([period, rs]) => usageOf(period, rs));
      expect(res.body.data, `${groupBy} ${model ?? 'all'}`).toEqual(expected);
    }
  });

  it.each(['day', 'hour'] as const)('costs by %s equal the log, in total and per model', async (groupBy) => {
    for (const model of models) {
      const mine = model ? rows.filter((r) => r.model === model) : rows;
      const res = await get('/api/analytics/costs', { ...range, group_by: groupBy, ...(model && { model }) });
      expect(res.status).toBe(200);
      const expected = [...periodsOf(mine, from, to, groupBy)].map(([period, rs]) => costOf(period, rs));
      expect(res.body.data.map(inNanos), `${groupBy} ${model ?? 'all'}`).toEqual(expected);
    }
  });

  it('usage stats equal the log', async () => {
    const res = await get('/api/analytics/usage/stats', range);
    expect(res.status).toBe(200);
    const perModel: Record<string, { requests: number; tokens: number }> = {};
    for (const r of rows) {
      const m = perModel[r.model] ?? { requests: 0, tokens: 0 };
      perModel[r.model] = { requests: m.requests + 1, tokens: m.tokens + r.total_tokens };
    }
    expect(res.body).toMatchObject({
      total_requests: rows.length,
      total_tokens: rows.reduce((n, r) => n + r.total_tokens, 0),
      models: perModel,
    });
    expect(res.body.avg_latency_ms).toBeCloseTo(rows.reduce((n, r) => n + r.latency_ms, 0) / rows.length, 6);
  });

  it('cost stats equal the log; the unpriced figure counts the unpriced rows', async () => {
    const res = await get('/api/analytics/costs/stats', range);
    expect(res.status).toBe(200);
    const total = costOf('', rows).total_cost_nanos;
    const unpriced = rows.filter((r) => r.unpriced).length;
    expect(unpriced).toBeGreaterThan(30);
    expect(inNanos(res.body)).toEqual({
      total_cost_nanos: total,
      by_model: costByModelNanos(rows),
      unpriced_requests: unpriced,
    });
    expect(nanos(res.body.avg_daily_cost_usd)).toBe(nanos(res.body.total_cost_usd / utcDaysIn({ from, to })));
    // The unpriced model never shows a cost, not even $0; its requests are counted instead.
    expect(Object.keys(res.body.by_model)).not.toContain('m-unpriced');
    const alone = await get('/api/analytics/costs/stats', { ...range, model: 'm-unpriced' });
    expect(alone.body).toMatchObject({ total_cost_usd: 0, by_model: {}, unpriced_requests: unpriced });
  });
});
