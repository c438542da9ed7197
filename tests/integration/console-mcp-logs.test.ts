// Issue 6 › MCP call log: GET /api/mcp/logs (admin) over the configured store — ClickHouse, and
// Postgres when CLICKHOUSE_URL is empty. Records go in through the console's own store
// (deps.mcpLogs, what the gateway will write); every answer is also checked against the
// OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chIdent, chSql } from '../../shared/src/analytics/clickhouse-sql';
import type { McpLogRecord } from '../../shared/src/mcp/ports';
import { createClickHouse } from '../../shared/src/stores/clickhouse';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { CLICKHOUSE_URL } from '../helpers/env';
import { OpenApiConformance } from '../helpers/openapi-conformance';
import { appEnv, freshDatabase } from '../helpers/stores';

// Its own ClickHouse database, so totals are exact whatever else shares the server.
const CH_DATABASE = 'sluice_it_console_mcp_logs';
const SERVER = '5a000000-0000-4000-8000-000000000001';
const OTHER_SERVER = '5b000000-0000-4000-8000-000000000002';
const USER = '6a000000-0000-4000-8000-000000000001';
const KEY = '7a000000-0000-4000-8000-000000000001';
const T0 = Date.UTC(2025, 2, 1, 9, 30, 0, 250);

function records(): McpLogRecord[] {
  const at = (i: number) => new Date(T0 + i * 60_000);
  const base = { userId: USER, apiKeyId: KEY, serverId: SERVER, serverName: 'everything', error: null };
  return Array.from({ length: 12 }, (_, i) => ({
    ...base,
    id: `c${String(i).padStart(7, '0')}-0000-4000-8000-000000000000`,
    createdAt: at(i),
    toolName: i % 3 === 0 ? 'add' : 'echo',
    status: i % 4 === 0 ? ('error' as const) : ('success' as const),
    durationMs: (i * 37) % 100,
    ...(i % 4 === 0 ? { error: 'upstream said no' } : {}),
    ...(i === 11 ? { userId: null, apiKeyId: null, serverId: OTHER_SERVER, serverName: 'gone' } : {}),
  }));
}

interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field.
  body: any;
}

type Query = Record<string, string | number>;

describe.each<{ store: string; extra: Record<string, string> }>([
  { store: 'clickhouse', extra: { CLICKHOUSE_DATABASE: CH_DATABASE } },
  { store: 'postgres', extra: { CLICKHOUSE_URL: '' } },
])('GET /api/mcp/logs ($store)', ({ store, extra }) => {
  let h: ConsoleHarness;
  let conformance: OpenApiConformance;
  const problems: string[] = [];
  let adminToken: string;
  let userToken: string;
  const seeded = records();

  async function api(method: string, path: string, options: { body?: unknown; token?: string } = {}) {
    const res = await h.call(method, path, options);
    const text = await res.text();
    const body = text === '' ? undefined : JSON.parse(text);
    if (conformance) problems.push(...conformance.check({ method, path, status: res.status, body }));
    return { status: res.status, body } as Reply;
  }
  const logs = (query: Query = {}, token = adminToken) =>
    api(
      'GET',
      `/api/mcp/logs?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
      {
        token,
      },
    );
  const ids = (reply: Reply) => reply.body.entries.map((e: { id: string }) => e.id.slice(0, 8));

  beforeAll(async () => {
    if (store === 'clickhouse') {
      const ch = createClickHouse({ url: CLICKHOUSE_URL, requestTimeoutMs: 10_000 });
      await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(CH_DATABASE)}`.sql });
      await ch.close();
    }
    h = await consoleHarness(appEnv(await freshDatabase(`sluice_it_console_mcp_logs_${store}`), extra));
    conformance = new OpenApiConformance(await (await h.call('GET', '/api/openapi.json')).json());
    const admin = { email: 'logs-admin@example.com', display_name: 'A', password: 'logs-admin-password' };
    adminToken = (await api('POST', '/api/setup/initialize', { body: { admin } })).body.access_token;
    const user = { email: 'logs-user@example.com', display_name: 'U', password: 'logs-user-password' };
    await api('POST', '/api/auth/register', { body: user });
    userToken = (
      await api('POST', '/api/auth/login', { body: { email: user.email, password: user.password } })
    ).body.access_token;
    await h.deps.mcpLogs.insert(seeded);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('lists newest first with the total, offset 0 and limit 50 by default, in snake_case', async () => {
    const res = await logs();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 12, offset: 0, limit: 50 });
    expect(ids(res)).toEqual(seeded.map((r) => r.id.slice(0, 8)).reverse());
    expect(res.body.entries[0]).toEqual({
      id: 'c0000011-0000-4000-8000-000000000000',
      created_at: new Date(T0 + 11 * 60_000).toISOString(),
      user_id: null,
      api_key_id: null,
      server_id: OTHER_SERVER,
      server_name: 'gone',
      tool_name: 'echo',
      status: 'success',
      duration_ms: 7,
      error: null,
    });
    expect(res.body.entries.at(-1)).toMatchObject({
      user_id: USER,
      api_key_id: KEY,
      error: 'upstream said no',
    });
  });

  it('filters by user, server, exact tool name, status and an inclusive date range', async () => {
    expect((await logs({ user_id: USER })).body.total).toBe(11);
    expect(ids(await logs({ server_id: OTHER_SERVER }))).toEqual(['c0000011']);
    expect((await logs({ tool_name: 'add' })).body.total).toBe(4);
    expect((await logs({ tool_name: 'ad' })).body.total).toBe(0);
    expect(ids(await logs({ status: 'error' }))).toEqual(['c0000008', 'c0000004', 'c0000000']);
    expect(ids(await logs({ status: 'error', tool_name: 'add', server_id: SERVER }))).toEqual(['c0000000']);
    const from = new Date(T0 + 2 * 60_000).toISOString();
    const to = new Date(T0 + 4 * 60_000).toISOString();
    expect(ids(await logs({ from, to }))).toEqual(['c0000004', 'c0000003', 'c0000002']);
    expect((await logs({ from: '2025-03-01', to: '2025-03-01T09:30:00.250+00:00' })).body.total).toBe(1);
    expect((await logs({ to: '2025-03-01T09:30:00.249Z' })).body.total).toBe(0);
  });

  it('sorts by duration_ms descending, ties by id', async () => {
    const res = await logs({ sort_by: 'duration_ms' });
    const durations = res.body.entries.map((e: { duration_ms: number }) => e.duration_ms);
    expect(durations).toEqual([...durations].sort((a, b) => b - a));
    expect(durations[0]).toBe(seeded.reduce((max, r) => Math.max(max, r.durationMs), 0));
    expect((await logs({ sort_by: 'created_at' })).body.entries[0].id).toBe(seeded[11]?.id);
  });

  it('pages with limit and offset; the total stays that of every match', async () => {
    const page = await logs({ limit: 5, offset: 5 });
    expect(page.body).toMatchObject({ total: 12, limit: 5, offset: 5 });
    expect(ids(page)).toEqual(['c0000006', 'c0000005', 'c0000004', 'c0000003', 'c0000002']);
    expect((await logs({ limit: 200, offset: 12 })).body).toEqual({
      total: 12,
      offset: 12,
      limit: 200,
      entries: [],
    });
  });

  it('refuses bad parameters with 422', async () => {
    const bads: Query[] = [
      { limit: 201 },
      { limit: 0 },
      { limit: 'ten' },
      { offset: -1 },
      { status: 'failed' },
      { sort_by: 'tool_name' },
      { user_id: 'not-a-uuid' },
      { server_id: '123' },
      { from: 'yesterday' },
      { from: '2025-03-02', to: '2025-03-01' },
    ];
    for (const bad of bads) {
      const res = await logs(bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.error.type).toBe('validation_error');
    }
  });

  it('is for admins only: 401 without a token, 403 for a user', async () => {
    expect((await logs({}, '')).status).toBe(401);
    const res = await logs({}, userToken);
    expect(res.status).toBe(403);
    expect(res.body.error.type).toBe('permission_error');
  });

  it('answered as documented in the OpenAPI document', () => {
    expect(problems).toEqual([]);
  });
});
