// The access and application log views: GET /api/admin/access-logs and /api/admin/app-logs
// (admin) over the configured store — ClickHouse, and Postgres when CLICKHOUSE_URL is empty.
// Seeded records go in through the console's own stores; then real traffic: a request to the
// gateway and one to the console must show up in the access log with the right port, status
// and user, and a WARN the proxy logs must show up in the app log. Every answer is checked
// against the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import type { AccessLogRecord, AppLogRecord } from '../../shared/src/logs/server/records';
import { createClickHouse } from '../../shared/src/stores/clickhouse';
import { CLICKHOUSE_URL } from '../helpers/env';
import { LOG_VIEW_STORES, type LogQuery, type LogView, shortIds, startLogView } from '../helpers/log-view';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

async function dropClickHouseDatabase(database: string): Promise<void> {
  const ch = createClickHouse({ url: CLICKHOUSE_URL, requestTimeoutMs: 10_000 });
  await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(database)}`.sql });
  await ch.close();
}

const USER = '8a000000-0000-4000-8000-000000000001';
const T0 = Date.UTC(2025, 3, 1, 10, 0, 0, 250);
/** Every seeded record is before this; real requests of the run are after it. */
const SEEDED_TO = '2025-04-02T00:00:00Z';

/** Twelve requests a minute apart to both ports; a few failures, one with % and _ in its path. */
function accessRecords(): AccessLogRecord[] {
  return Array.from({ length: 12 }, (_, i) => ({
    id: `d${String(i).padStart(7, '0')}-0000-4000-8000-000000000000`,
    createdAt: new Date(T0 + i * 60_000),
    source: i % 2 === 0 ? ('gateway' as const) : ('console' as const),
    port: i % 2 === 0 ? 3000 : 3001,
    method: i % 3 === 0 ? 'POST' : 'GET',
    path: i === 7 ? '/api/50%_off' : i % 3 === 0 ? '/v1/chat/completions' : `/api/keys/${i}`,
    statusCode: i % 4 === 0 ? 502 : 200,
    userId: i % 5 === 0 ? null : USER,
    latencyMs: i * 10,
    ip: i % 2 === 0 ? '203.0.113.9' : null,
    userAgent: i % 2 === 0 ? 'OpenAI/Python 1.2' : 'Mozilla/5.0',
  }));
}

/** Ten lines, two of each level, from both servers. */
function appRecords(): AppLogRecord[] {
  const levels = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
  return Array.from({ length: 10 }, (_, i) => ({
    id: `e${String(i).padStart(7, '0')}-0000-4000-8000-000000000000`,
    createdAt: new Date(T0 + i * 60_000),
    level: levels[i % 5] ?? 'INFO',
    source: i % 2 === 0 ? ('gateway' as const) : ('console' as const),
    target: i < 5 ? 'proxy' : 'key-jobs',
    message: i === 3 ? 'Response cache unavailable' : `line ${i}`,
    fields: i === 3 ? { error: 'redis down', attempt: 2 } : {},
  }));
}

describe.each(LOG_VIEW_STORES)('GET /api/admin/access-logs and /app-logs ($store)', ({ store }) => {
  let access: LogView;
  const seeded = accessRecords();
  const lines = appRecords();
  const accessLogs = (query: LogQuery = {}, token?: string) =>
    access.logs({ to: SEEDED_TO, ...query }, token);
  const appLogs = async (query: LogQuery = {}, token?: string) => {
    const search = new URLSearchParams(
      Object.entries({ to: SEEDED_TO, ...query }).map(([k, v]) => [k, String(v)]),
    );
    const res = await access.h.call('GET', `/api/admin/app-logs?${search}`, {
      token: token ?? access.adminToken,
    });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    access = await startLogView({
      name: 'l_server_logs',
      store,
      clickhouseDatabase: 'sluice_l_console_server_logs',
      path: '/api/admin/access-logs',
      seed: async (h) => {
        await h.deps.accessLogs.insert(seeded);
        await h.deps.appLogs.insert(lines);
      },
    });
  }, 60_000);
  afterAll(async () => {
    // The last access-log batch lands before the pool closes.
    await access?.h.deps.flushLogs();
    await access?.h.close();
  });

  it('lists access records newest first with total, offset 0 and limit 50, in snake_case', async () => {
    const res = await accessLogs();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 12, offset: 0, limit: 50 });
    expect(shortIds(res)).toEqual(seeded.map((r) => r.id.slice(0, 8)).reverse());
    expect(res.body.entries[1]).toEqual({
      id: 'd0000010-0000-4000-8000-000000000000',
      created_at: new Date(T0 + 10 * 60_000).toISOString(),
      port: 3000,
      method: 'GET',
      path: '/api/keys/10',
      status_code: 200,
      user_id: null,
      latency_ms: 100,
      ip: '203.0.113.9',
      user_agent: 'OpenAI/Python 1.2',
      source: 'gateway',
    });
  });

  it('filters access records by method, path, status, port, user, q and an inclusive range', async () => {
    expect(shortIds(await accessLogs({ method: 'post' }))).toEqual([
      'd0000009',
      'd0000006',
      'd0000003',
      'd0000000',
    ]);
    expect((await accessLogs({ path: '/API/KEYS' })).body.total).toBe(7);
    expect(shortIds(await accessLogs({ path: '50%_off' }))).toEqual(['d0000007']);
    expect((await accessLogs({ path: '%' })).body.total).toBe(1);
    expect(shortIds(await accessLogs({ status_code: 502 }))).toEqual(['d0000008', 'd0000004', 'd0000000']);
    // A class of codes: 5xx is 500..599.
    expect(shortIds(await accessLogs({ status_code: '5xx' }))).toEqual(['d0000008', 'd0000004', 'd0000000']);
    expect((await accessLogs({ status_code: '2xx' })).body.total).toBe(9);
    expect((await accessLogs({ status_code: '4xx' })).body.total).toBe(0);
    expect((await accessLogs({ port: 3001 })).body.total).toBe(6);
    expect((await accessLogs({ source: 'console' })).body.total).toBe(6);
    expect(shortIds(await accessLogs({ source: 'gateway', status_code: '5xx', method: 'GET' }))).toEqual([
      'd0000008',
      'd0000004',
    ]);
    expect(shortIds(await accessLogs({ port: 3000, status_code: 502, method: 'GET' }))).toEqual([
      'd0000008',
      'd0000004',
    ]);
    expect((await accessLogs({ user_id: USER })).body.total).toBe(9);
    expect((await accessLogs({ q: 'openai/python' })).body.total).toBe(6);
    expect((await accessLogs({ q: 'completions', port: 3001 })).body.total).toBe(2);
    const from = new Date(T0 + 2 * 60_000).toISOString();
    const to = new Date(T0 + 4 * 60_000).toISOString();
    expect(shortIds(await accessLogs({ from, to }))).toEqual(['d0000004', 'd0000003', 'd0000002']);
    expect((await accessLogs({ to: '2025-04-01T10:00:00.249Z' })).body.total).toBe(0);
  });

  it('pages access records with limit and offset; the total stays that of every match', async () => {
    const page = await accessLogs({ limit: 5, offset: 5 });
    expect(page.body).toMatchObject({ total: 12, limit: 5, offset: 5 });
    expect(shortIds(page)).toEqual(['d0000006', 'd0000005', 'd0000004', 'd0000003', 'd0000002']);
    expect((await accessLogs({ limit: 200, offset: 12 })).body).toEqual({
      total: 12,
      offset: 12,
      limit: 200,
      entries: [],
    });
  });

  it('lists app lines with a minimum level, target and message substrings', async () => {
    const all = await appLogs();
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 10, offset: 0, limit: 50 });
    expect(all.body.entries[6]).toEqual({
      id: 'e0000003-0000-4000-8000-000000000000',
      created_at: new Date(T0 + 3 * 60_000).toISOString(),
      level: 'WARN',
      source: 'console',
      target: 'proxy',
      message: 'Response cache unavailable',
      fields: { error: 'redis down', attempt: 2 },
    });
    const levels = async (level: string) =>
      (await appLogs({ level })).body.entries.map((e: { level: string }) => e.level);
    expect(await levels('WARN')).toEqual(['ERROR', 'WARN', 'ERROR', 'WARN']);
    expect(await levels('ERROR')).toEqual(['ERROR', 'ERROR']);
    expect((await appLogs({ level: 'TRACE' })).body.total).toBe(10);
    expect((await appLogs({ level: 'INFO' })).body.total).toBe(6);
    expect((await appLogs({ target: 'JOBS' })).body.total).toBe(5);
    expect((await appLogs({ q: 'cache UNAVAILABLE', target: 'prox' })).body.total).toBe(1);
    expect((await appLogs({ q: 'line', level: 'WARN', limit: 1, offset: 1 })).body).toMatchObject({
      total: 3,
      limit: 1,
      offset: 1,
      entries: [{ id: 'e0000008-0000-4000-8000-000000000000' }],
    });
  });

  it('refuses bad parameters with 422', async () => {
    const bads: LogQuery[] = [
      { limit: 201 },
      { limit: 0 },
      { offset: -1 },
      { port: 0 },
      { port: 65_536 },
      { port: 'gateway' },
      { source: 'proxy' },
      { status_code: 99 },
      { status_code: '6xx' },
      { status_code: '4XX' },
      { method: 'G T' },
      { user_id: 'not-a-uuid' },
      { path: '' },
      { q: 'x'.repeat(257) },
      { from: 'yesterday' },
      { from: '2025-04-02', to: '2025-04-01' },
    ];
    for (const bad of bads) {
      const res = await access.logs(bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.error.type).toBe('validation_error');
    }
    for (const bad of [
      { level: 'NOTICE' },
      { level: 'warn' },
      { limit: 500 },
      { from: '2025-13-01' },
      { target: '' },
    ] as LogQuery[]) {
      const res = await appLogs(bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.error.type).toBe('validation_error');
    }
  });

  it('is for admins only: 401 without a token, 403 for a user', async () => {
    expect((await accessLogs({}, '')).status).toBe(401);
    expect((await accessLogs({}, access.userToken)).status).toBe(403);
    expect((await appLogs({}, '')).status).toBe(401);
    const res = await appLogs({}, access.userToken);
    expect(res.status).toBe(403);
    expect(res.body.error.type).toBe('permission_error');
  });

  it("records the console's own requests, with port 3001 and the signed-in user", async () => {
    const refused = await access.h.call('GET', '/api/auth/me?secret=1');
    expect(refused.status).toBe(401);
    const found = await vi.waitFor(
      async () => {
        const res = await access.logs({ port: 3001, path: '/api/auth/me', status_code: 401 });
        // The page and the total are two queries: wait for the row itself, not the count.
        if (res.body.entries.length < 1) throw new Error('not recorded yet');
        return res.body.entries[0];
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(found).toMatchObject({
      method: 'GET',
      path: '/api/auth/me',
      user_id: null,
      ip: access.h.defaultIp,
    });
    // The admin's own earlier listing is recorded with the admin's id.
    const mine = await access.logs({
      port: 3001,
      path: '/api/admin/access-logs',
      status_code: 200,
      limit: 1,
    });
    expect(mine.body.entries[0]).toMatchObject({ method: 'GET', user_agent: 'vitest' });
    expect(mine.body.entries[0].user_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answered as documented in the OpenAPI document', () => {
    expect(access.problems).toEqual([]);
  });
});

const GATEWAY_PORT = 9310;
const CONSOLE_PORT = 9311;

describe('real traffic through the gateway and the console', () => {
  let h: ProxyHarness;
  let adminId: string;

  beforeAll(async () => {
    // The harness's ClickHouse database outlives a run: start from an empty one, so only this
    // run's requests can match.
    await dropClickHouseDatabase('sluice_it_l_server_logs_traffic');
    // Ports of their own, as `npm start` gives them to the apps: the records must say these.
    h = await proxyHarness('l_server_logs_traffic', {
      SLUICE_GATEWAY_PORT: String(GATEWAY_PORT),
      SLUICE_CONSOLE_PORT: String(CONSOLE_PORT),
    });
    adminId = (await h.admin('GET', '/api/auth/me')).body.id;
  }, 60_000);
  afterAll(async () => {
    vi.restoreAllMocks();
    await h?.close();
  });

  const waitForEntries = (path: string, query: Record<string, string | number>, count = 1) =>
    vi.waitFor(
      async () => {
        const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
        const res = await h.admin('GET', `${path}?${search}`);
        expect(res.status).toBe(200);
        // The page and the total are two queries: a row landing between them can be counted
        // before it is listed, so wait for the rows themselves.
        if (res.body.entries.length < count) throw new Error(`${res.body.entries.length} of ${count} so far`);
        return res.body.entries;
      },
      { timeout: 10_000, interval: 100 },
    );

  it('records gateway requests with the port it listens on, status, the key owner, ip and user agent; 401s without a user', async () => {
    const ok = await h.post(
      '/v1/chat/completions?trace=1',
      { model: 'm-openai', messages: [{ role: 'user', content: 'access log' }] },
      { 'user-agent': 'access-log-test/1.0', 'cf-connecting-ip': '198.51.100.77' },
    );
    expect(ok.status).toBe(200);
    await ok.text();
    const refused = await h.gateway.call('GET', '/v1/models');
    expect(refused.status).toBe(401);
    const [entry] = await waitForEntries('/api/admin/access-logs', {
      port: GATEWAY_PORT,
      q: 'access-log-test',
    });
    expect(entry).toMatchObject({
      source: 'gateway',
      port: GATEWAY_PORT,
      method: 'POST',
      path: '/v1/chat/completions',
      status_code: 200,
      user_id: adminId,
      ip: '198.51.100.77',
      user_agent: 'access-log-test/1.0',
    });
    expect(entry.latency_ms).toBeGreaterThanOrEqual(0);
    const [anonymous] = await waitForEntries('/api/admin/access-logs', {
      source: 'gateway',
      path: '/v1/models',
      status_code: 401,
    });
    expect(anonymous).toMatchObject({ method: 'GET', user_id: null, ip: null, port: GATEWAY_PORT });
  });

  it('records console requests with the port it listens on and the JWT user', async () => {
    await h.admin('GET', '/api/keys');
    const [entry] = await waitForEntries('/api/admin/access-logs', {
      port: CONSOLE_PORT,
      path: '/api/keys',
      method: 'get',
    });
    expect(entry).toMatchObject({
      source: 'console',
      port: CONSOLE_PORT,
      status_code: 200,
      user_id: adminId,
      user_agent: 'vitest',
    });
    // Nothing was recorded with the default ports.
    for (const port of [3000, 3001]) {
      expect((await h.admin('GET', `/api/admin/access-logs?port=${port}`)).body.total, String(port)).toBe(0);
    }
  });

  it('stores the line each server starts with, so a healthy stack has an app log', async () => {
    const lines = await waitForEntries('/api/admin/app-logs', { target: 'server', level: 'INFO' }, 2);
    expect(lines.map((l: { source: string; message: string }) => `${l.source}: ${l.message}`).sort()).toEqual(
      expect.arrayContaining(['console: console started', 'gateway: gateway isolate started']),
    );
    expect(lines.find((l: { source: string }) => l.source === 'gateway')).toMatchObject({
      level: 'INFO',
      fields: { port: GATEWAY_PORT, log_level: 'INFO' },
    });
  });

  it('stores a WARN the proxy logs (an unreadable response cache entry) in the app log, from the gateway', async () => {
    const body = { model: 'm-openai', messages: [{ role: 'user', content: 'app log' }] };
    const key = await h.gateway.deps.proxy.cache.keyFor(`key:${h.keyId}`, 'openai-chat', body);
    await h.gateway.deps.redis.set(key, 'not a cached answer', { ex: 60 });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const res = await h.post('/v1/chat/completions', body);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sluice-cache')).toBe('MISS');
    await res.text();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('response cache entry unreadable'));
    const [line] = await waitForEntries('/api/admin/app-logs', {
      level: 'WARN',
      target: 'proxy',
      q: 'entry unreadable',
    });
    expect(line).toMatchObject({
      level: 'WARN',
      source: 'gateway',
      target: 'proxy',
      message: 'response cache entry unreadable; calling upstream',
      fields: { bytes: 19 },
    });
    // Below the minimum level asked for, the line is not listed.
    const errorsOnly = await h.admin('GET', '/api/admin/app-logs?level=ERROR&q=entry%20unreadable');
    expect(errorsOnly.body.total).toBe(0);
  });
});
