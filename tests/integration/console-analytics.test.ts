// Usage and cost analytics: GET /api/analytics/usage, /usage/stats, /costs, /costs/stats; by client
// and by error: GET /api/analytics/clients, /errors over the configured request-log store —
// ClickHouse, and Postgres when CLICKHOUSE_URL is empty. Records go in through the console's own
// store (deps.requestLogs); every sum is checked against the inserted records, and every answer
// against the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { type UsageGroupBy, usageBucketStart } from '../../shared/src/logs/requests/aggregate-query';
import type { RequestLogRecord } from '../../shared/src/logs/requests/record';
import { createClickHouse } from '../../shared/src/stores/clickhouse';
import { type CheckedApi, checkedApi } from '../helpers/checked-api';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { CLICKHOUSE_URL } from '../helpers/env';
import { requestLogRecord } from '../helpers/request-log-record';
import { appEnv, freshDatabase } from '../helpers/stores';

// Its own ClickHouse database (dropped first), so sums are exact whatever else shares the server.
const CH_DATABASE = 'sluice_it_console_analytics';
const OTHER_USER = '8c000000-0000-4000-8000-000000000002';

interface Seed {
  at: string;
  mine: boolean;
  model: 'ana-a' | 'ana-b';
  prompt: number;
  completion: number;
  cost: number | null;
  latency: number;
}

// 2025-04-01 is a Tuesday; 2025-04-07 a Monday. The first row is just before the range used below.
const SEEDS: Seed[] = [
  {
    at: '2025-03-31T23:59:59.999Z',
    mine: true,
    model: 'ana-a',
    prompt: 1000,
    completion: 1000,
    cost: 1,
    latency: 9,
  },
  {
    at: '2025-04-01T10:15:00.000Z',
    mine: true,
    model: 'ana-a',
    prompt: 10,
    completion: 5,
    cost: 0.01,
    latency: 100,
  },
  {
    at: '2025-04-01T10:45:00.500Z',
    mine: false,
    model: 'ana-b',
    prompt: 20,
    completion: 10,
    cost: 0.02,
    latency: 200,
  },
  {
    at: '2025-04-01T12:00:00.000Z',
    mine: true,
    model: 'ana-b',
    prompt: 30,
    completion: 15,
    cost: null,
    latency: 300,
  },
  {
    at: '2025-04-03T08:00:00.000Z',
    mine: true,
    model: 'ana-a',
    prompt: 40,
    completion: 20,
    cost: 0.04,
    latency: 400,
  },
  {
    at: '2025-04-07T00:00:00.000Z',
    mine: false,
    model: 'ana-a',
    prompt: 50,
    completion: 25,
    cost: 0.05,
    latency: 500,
  },
];

/** Per seed: who called (name, version; null: no User-Agent) and how it failed, if it did. */
const CLIENT_OF = [
  ['codex', '0.171.0'],
  ['codex', '0.171.0'],
  ['claude-code', '2.1.3'],
  [null, null],
  ['codex', '0.172.0'],
  ['claude-code', '2.1.3'],
] as const;
const FAILURE_OF: Array<[number, string] | null> = [
  null,
  null,
  [400, 'invalid_request_error'],
  null,
  [429, 'rate_limit_error'],
  null,
];

function records(me: string): RequestLogRecord[] {
  return SEEDS.map((s, i) =>
    requestLogRecord({
      id: `e${String(i).padStart(7, '0')}-0000-4000-8000-000000000000`,
      createdAt: new Date(s.at),
      userId: s.mine ? me : OTHER_USER,
      model: s.model,
      provider: 'openai-main',
      providerType: 'openai',
      statusCode: FAILURE_OF[i]?.[0] ?? 200,
      errorType: FAILURE_OF[i]?.[1] ?? null,
      promptTokens: s.prompt,
      completionTokens: s.completion,
      // The first seed (outside the range) is large, so a bound off by one shows.
      cachedTokens: i === 0 ? 100 : i,
      cacheWriteTokens: i === 0 ? 100 : i,
      reasoningTokens: i === 0 ? 100 : i,
      totalTokens: s.prompt + s.completion,
      weightedTokens: s.prompt + s.completion,
      costUsd: s.cost,
      unpriced: s.cost === null,
      latencyMs: s.latency,
      upstreamLatencyMs: 10,
      clientName: CLIENT_OF[i]?.[0] ?? null,
      clientVersion: CLIENT_OF[i]?.[1] ?? null,
    }),
  );
}

/** No requests: every total 0. */
const NO_TOKEN_DETAILS = { cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0 };

const FROM = '2025-04-01T00:00:00Z';
const TO = '2025-04-07T23:59:59Z';

type Query = Record<string, string>;

/** The expected series, computed from the records themselves. */
function expectedSeries(rows: RequestLogRecord[], from: string, to: string, groupBy: UsageGroupBy) {
  const inRange = rows.filter((r) => r.createdAt >= new Date(from) && r.createdAt <= new Date(to));
  const periods = new Map<string, RequestLogRecord[]>();
  const last = usageBucketStart(new Date(to), groupBy).getTime();
  const step = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 }[groupBy];
  for (let t = usageBucketStart(new Date(from), groupBy).getTime(); t <= last; t += step) {
    periods.set(new Date(t).toISOString(), []);
  }
  for (const r of inRange) periods.get(usageBucketStart(r.createdAt, groupBy).toISOString())?.push(r);
  return [...periods].map(([period, rs]) => ({
    period,
    rs,
    usage: {
      period,
      request_count: rs.length,
      prompt_tokens: rs.reduce((n, r) => n + r.promptTokens, 0),
      completion_tokens: rs.reduce((n, r) => n + r.completionTokens, 0),
      total_tokens: rs.reduce((n, r) => n + r.totalTokens, 0),
    },
  }));
}

function costByModel(rs: RequestLogRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  // A model whose requests are all unpriced has no entry (its cost is unknown, not $0).
  for (const r of rs) if (r.costUsd !== null) out[r.model] = (out[r.model] ?? 0) + r.costUsd;
  return out;
}

function expectCloseRecord(actual: Record<string, number>, expected: Record<string, number>) {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [k, v] of Object.entries(expected)) expect(actual[k]).toBeCloseTo(v, 10);
}

describe.each<{ store: string; extra: Record<string, string> }>([
  { store: 'clickhouse', extra: { CLICKHOUSE_DATABASE: CH_DATABASE } },
  { store: 'postgres', extra: { CLICKHOUSE_URL: '' } },
])('GET /api/analytics ($store)', ({ store, extra }) => {
  let h: ConsoleHarness;
  let checked: CheckedApi;
  let adminToken: string;
  let userToken: string;
  let seeded: RequestLogRecord[];
  let mine: RequestLogRecord[];

  const api = (path: string, token?: string) => checked.call('GET', path, { token });
  const get = (path: string, query: Query = {}, token: string | undefined = adminToken) =>
    api(`/api/analytics${path}?${new URLSearchParams(query)}`, token);

  beforeAll(async () => {
    if (store === 'clickhouse') {
      const ch = createClickHouse({ url: CLICKHOUSE_URL, requestTimeoutMs: 10_000 });
      await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(CH_DATABASE)}`.sql });
      await ch.close();
    }
    h = await consoleHarness(appEnv(await freshDatabase(`sluice_it_console_analytics_${store}`), extra));
    checked = await checkedApi(h);
    const admin = { email: 'ana-admin@example.com', display_name: 'A', password: 'ana-admin-password' };
    const setup = await h.call('POST', '/api/setup/initialize', { body: { admin } });
    adminToken = ((await setup.json()) as { access_token: string }).access_token;
    const user = { email: 'ana-user@example.com', display_name: 'U', password: 'ana-user-password' };
    await h.call('POST', '/api/auth/register', { body: user });
    const login = (await (
      await h.call('POST', '/api/auth/login', { body: { email: user.email, password: user.password } })
    ).json()) as { access_token: string; user: { id: string } };
    userToken = login.access_token;
    seeded = records(login.user.id);
    mine = seeded.filter((r) => r.userId === login.user.id);
    await h.deps.requestLogs.insert(seeded);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('usage per day: every day from..to, zero-filled, sums equal to the records', async () => {
    const res = await get('/usage', { from: FROM, to: TO });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(expectedSeries(seeded, FROM, TO, 'day').map((p) => p.usage));
    expect(res.body.data).toHaveLength(7);
    expect(res.body.data[0]).toEqual({
      period: '2025-04-01T00:00:00.000Z',
      request_count: 3,
      prompt_tokens: 60,
      completion_tokens: 30,
      total_tokens: 90,
    });
    expect(res.body.data[1]).toEqual({
      period: '2025-04-02T00:00:00.000Z',
      request_count: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
    });
  });

  it('usage per hour and per week (Monday), inclusive bounds to the millisecond', async () => {
    const hourly = { from: '2025-04-01T10:00:00Z', to: '2025-04-01T12:30:00Z', group_by: 'hour' };
    const hours = await get('/usage', hourly);
    expect(hours.body.data).toEqual(
      expectedSeries(seeded, hourly.from, hourly.to, 'hour').map((p) => p.usage),
    );
    expect(hours.body.data.map((p: { request_count: number }) => p.request_count)).toEqual([2, 0, 1]);
    const weekly = { from: '2025-03-31T00:00:00Z', to: '2025-04-13T00:00:00Z', group_by: 'week' };
    const weeks = await get('/usage', weekly);
    expect(weeks.body.data).toEqual(
      expectedSeries(seeded, weekly.from, weekly.to, 'week').map((p) => p.usage),
    );
    expect(weeks.body.data.map((p: { period: string }) => p.period)).toEqual([
      '2025-03-31T00:00:00.000Z',
      '2025-04-07T00:00:00.000Z',
    ]);
    expect(weeks.body.data.map((p: { request_count: number }) => p.request_count)).toEqual([5, 1]);
    const edge = await get('/usage', { from: '2025-03-31T23:59:59.999Z', to: '2025-04-01T10:15:00Z' });
    expect(edge.body.data.map((p: { request_count: number }) => p.request_count)).toEqual([1, 1]);
    const before = await get('/usage', { from: '2025-03-31T12:00:00Z', to: '2025-03-31T23:59:59.998Z' });
    expect(before.body.data).toEqual([
      {
        period: '2025-03-31T00:00:00.000Z',
        request_count: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        total_tokens: 0,
      },
    ]);
  });

  it('filters by model', async () => {
    const res = await get('/usage', { from: FROM, to: TO, model: 'ana-b' });
    const onlyB = seeded.filter((r) => r.model === 'ana-b');
    expect(res.body.data).toEqual(expectedSeries(onlyB, FROM, TO, 'day').map((p) => p.usage));
    const stats = await get('/usage/stats', { from: FROM, to: TO, model: 'nope' });
    expect(stats.body).toEqual({
      total_requests: 0,
      total_tokens: 0,
      avg_latency_ms: null,
      ...NO_TOKEN_DETAILS,
      models: {},
      endpoints: {},
    });
    const before1970 = await get('/usage/stats', { from: '1969-12-01', to: '1969-12-31' });
    expect(before1970.body).toEqual({
      total_requests: 0,
      total_tokens: 0,
      avg_latency_ms: null,
      ...NO_TOKEN_DETAILS,
      models: {},
      endpoints: {},
    });
  });

  it('usage stats: totals, average latency and per-model usage', async () => {
    const res = await get('/usage/stats', { from: FROM, to: TO });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      total_requests: 5,
      total_tokens: 225,
      avg_latency_ms: 300,
      cache_read_tokens: 15,
      cache_write_tokens: 15,
      reasoning_tokens: 15,
      models: { 'ana-a': { requests: 3, tokens: 150 }, 'ana-b': { requests: 2, tokens: 75 } },
      endpoints: { '/v1/chat/completions': { requests: 5, tokens: 225 } },
    });
  });

  it('costs per period and per model; unpriced requests add 0 and are counted', async () => {
    const res = await get('/costs', { from: FROM, to: TO });
    expect(res.status).toBe(200);
    const expected = expectedSeries(seeded, FROM, TO, 'day');
    expect(res.body.data).toHaveLength(expected.length);
    expected.forEach(({ period, rs }, i) => {
      const got = res.body.data[i];
      expect(got.period).toBe(period);
      expect(got.total_cost_usd).toBeCloseTo(
        rs.reduce((n, r) => n + (r.costUsd ?? 0), 0),
        10,
      );
      expectCloseRecord(got.by_model, costByModel(rs));
      expect(got.unpriced_requests).toBe(rs.filter((r) => r.costUsd === null).length);
    });
    expect(res.body.data[0].unpriced_requests).toBe(1);
    expect(res.body.data[1]).toEqual({
      period: '2025-04-02T00:00:00.000Z',
      total_cost_usd: 0,
      by_model: {},
      unpriced_requests: 0,
    });
  });

  it('cost stats: total, average per UTC day, per model, unpriced count', async () => {
    const res = await get('/costs/stats', { from: FROM, to: TO });
    expect(res.status).toBe(200);
    expect(res.body.total_cost_usd).toBeCloseTo(0.12, 10);
    expect(res.body.avg_daily_cost_usd).toBe(Math.round((0.12 / 7) * 1e9) / 1e9); // shown to the nano-dollar
    expectCloseRecord(res.body.by_model, { 'ana-a': 0.1, 'ana-b': 0.02 });
    expect(res.body.unpriced_requests).toBe(1);
    // What the total leaves out, by model: the one to give prices to.
    expect(res.body.unpriced_models).toEqual({ 'ana-b': 1 });
    expect(res.body).toMatchObject({ cache_read_tokens: 15, cache_write_tokens: 15, reasoning_tokens: 15 });
    const oneDay = await get('/costs/stats', { from: '2025-04-01T10:00:00Z', to: '2025-04-01T10:59:59Z' });
    expect(oneDay.body.total_cost_usd).toBeCloseTo(0.03, 10);
    expect(oneDay.body.avg_daily_cost_usd).toBeCloseTo(0.03, 10);
    expect(oneDay.body.unpriced_requests).toBe(0);
    expect(oneDay.body.unpriced_models).toEqual({});
  });

  it('a non-admin sees only its own requests', async () => {
    const usage = await get('/usage', { from: FROM, to: TO }, userToken);
    expect(usage.status).toBe(200);
    expect(usage.body.data).toEqual(expectedSeries(mine, FROM, TO, 'day').map((p) => p.usage));
    const stats = await get('/usage/stats', { from: FROM, to: TO }, userToken);
    expect(stats.body).toEqual({
      total_requests: 3,
      total_tokens: 120,
      avg_latency_ms: 800 / 3,
      cache_read_tokens: 8,
      cache_write_tokens: 8,
      reasoning_tokens: 8,
      models: { 'ana-a': { requests: 2, tokens: 75 }, 'ana-b': { requests: 1, tokens: 45 } },
      endpoints: { '/v1/chat/completions': { requests: 3, tokens: 120 } },
    });
    const costs = await get('/costs', { from: FROM, to: TO, model: 'ana-a' }, userToken);
    expect(
      costs.body.data.reduce((n: number, p: { total_cost_usd: number }) => n + p.total_cost_usd, 0),
    ).toBeCloseTo(0.05, 10);
    const costStats = await get('/costs/stats', { from: FROM, to: TO }, userToken);
    // The caller's only ana-b request is unpriced: no $0 entry, it is counted instead.
    expectCloseRecord(costStats.body.by_model, { 'ana-a': 0.05 });
    expect(costStats.body.unpriced_requests).toBe(1);
    expect(costStats.body.unpriced_models).toEqual({ 'ana-b': 1 });
    expect(costStats.body).toMatchObject({ cache_read_tokens: 8, reasoning_tokens: 8 });
    const clients = await get('/clients', { from: FROM, to: TO }, userToken);
    expect(clients.body.data.map((c: { client_name: string }) => c.client_name)).toEqual([
      'codex',
      'codex',
      null,
    ]);
    expect(clients.body.data.reduce((n: number, c: { requests: number }) => n + c.requests, 0)).toBe(3);
    const errors = await get('/errors', { from: FROM, to: TO }, userToken);
    expect(errors.body).toEqual({
      data: [{ error_type: 'rate_limit_error', client_name: 'codex', status_code: 429, requests: 1 }],
    });
  });

  it('by client: requests, errors, tokens and cost per client name and version, most requests first', async () => {
    const res = await get('/clients', { from: FROM, to: TO });
    expect(res.status).toBe(200);
    const client = (name: string | null, version: string | null, i: number[], cost: number | null) => {
      const rows = i.map((n) => seeded[n]!);
      return {
        client_name: name,
        client_version: version,
        requests: rows.length,
        errors: rows.filter((r) => r.statusCode >= 400).length,
        prompt_tokens: rows.reduce((n, r) => n + r.promptTokens, 0),
        completion_tokens: rows.reduce((n, r) => n + r.completionTokens, 0),
        cache_read_tokens: rows.reduce((n, r) => n + r.cachedTokens, 0),
        cache_write_tokens: rows.reduce((n, r) => n + r.cacheWriteTokens, 0),
        reasoning_tokens: rows.reduce((n, r) => n + r.reasoningTokens, 0),
        cost_usd: cost,
        unpriced_requests: rows.filter((r) => r.costUsd === null).length,
      };
    };
    expect(res.body).toEqual({
      data: [
        client('claude-code', '2.1.3', [2, 5], 0.07),
        client('codex', '0.171.0', [1], 0.01),
        client('codex', '0.172.0', [4], 0.04),
        // Its only request is unpriced: its cost is unknown, not $0.
        client(null, null, [3], null),
      ],
    });
    expect(res.body.data[0]).toMatchObject({
      requests: 2,
      errors: 1,
      cache_read_tokens: 7,
      reasoning_tokens: 7,
    });
    const onlyB = await get('/clients', { from: FROM, to: TO, model: 'ana-b' });
    expect(onlyB.body.data).toEqual([
      client('claude-code', '2.1.3', [2], 0.02),
      client(null, null, [3], null),
    ]);
    expect((await get('/clients', { from: '2025-05-01', to: '2025-05-02' })).body).toEqual({ data: [] });
  });

  it('errors: failed and refused requests per error type, client and status code', async () => {
    const res = await get('/errors', { from: FROM, to: TO });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { error_type: 'invalid_request_error', client_name: 'claude-code', status_code: 400, requests: 1 },
        { error_type: 'rate_limit_error', client_name: 'codex', status_code: 429, requests: 1 },
      ],
    });
    expect((await get('/errors', { from: FROM, to: TO, model: 'ana-a' })).body.data).toEqual([
      { error_type: 'rate_limit_error', client_name: 'codex', status_code: 429, requests: 1 },
    ]);
  });

  it('defaults to the last 7 days by day', async () => {
    const res = await get('/usage');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(8);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body.data.at(-1).period).toBe(`${today}T00:00:00.000Z`);
    expect((await get('/costs/stats')).status).toBe(200);
    expect((await get('/clients')).status).toBe(200);
    expect((await get('/errors')).status).toBe(200);
  });

  it('refuses bad dates, unknown group_by, from after to and over-long ranges with 422', async () => {
    const bads: [string, Query][] = [
      ['/usage', { from: 'yesterday' }],
      ['/usage', { to: '2025-13-01' }],
      ['/usage', { group_by: 'month' }],
      ['/costs', { from: '2025-04-02', to: '2025-04-01' }],
      ['/usage/stats', { from: '2025-04-02', to: '2025-04-01' }],
      ['/costs/stats', { from: '2999-01-01' }],
      ['/usage', { from: '2025-01-01', to: '2025-02-01T00:00:01Z', group_by: 'hour' }],
      ['/costs', { from: '2024-01-01', to: '2025-01-02', group_by: 'day' }],
      ['/usage', { from: '2019-01-01', to: '2025-01-01', group_by: 'week' }],
      ['/costs/stats', { from: '2019-01-01', to: '2025-01-01' }],
      ['/clients', { from: '2019-01-01', to: '2025-01-01' }],
      ['/clients', { from: 'yesterday' }],
      ['/errors', { from: '2025-04-02', to: '2025-04-01' }],
      ['/errors', { model: '' }],
    ];
    for (const [path, query] of bads) {
      const res = await get(path, query);
      expect(res.status, `${path} ${JSON.stringify(query)}`).toBe(422);
      expect(res.body.error.type).toBe('validation_error');
    }
    expect((await get('/usage', { from: '2025-01-01', to: '2025-02-01', group_by: 'hour' })).status).toBe(
      200,
    );
  });

  it('needs a signed-in user: 401 without a token', async () => {
    for (const path of ['/usage', '/usage/stats', '/costs', '/costs/stats', '/clients', '/errors']) {
      expect((await get(path, {}, '')).status).toBe(401);
    }
  });

  it('answered as documented in the OpenAPI document', () => {
    expect(checked.problems).toEqual([]);
  });
});
