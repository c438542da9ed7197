// The MCP call log: GET /api/mcp/logs (admin) over the configured store — ClickHouse, and
// Postgres when CLICKHOUSE_URL is empty. Records go in through the console's own store
// (deps.mcpLogs, what the gateway will write); every answer is also checked against the
// OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpLogRecord } from '../../shared/src/mcp/ports';
import { LOG_VIEW_STORES, type LogQuery, type LogView, shortIds, startLogView } from '../helpers/log-view';

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

describe.each(LOG_VIEW_STORES)('GET /api/mcp/logs ($store)', ({ store }) => {
  let view: LogView;
  const seeded = records();
  const logs = (query: LogQuery = {}, token?: string) => view.logs(query, token);
  const ids = shortIds;

  beforeAll(async () => {
    view = await startLogView({
      name: 'console_mcp_logs',
      store,
      clickhouseDatabase: CH_DATABASE,
      path: '/api/mcp/logs',
      seed: (h) => h.deps.mcpLogs.insert(seeded),
    });
  }, 60_000);
  afterAll(async () => {
    await view?.h.close();
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
    const bads: LogQuery[] = [
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
    const res = await logs({}, view.userToken);
    expect(res.status).toBe(403);
    expect(res.body.error.type).toBe('permission_error');
  });

  it('answered as documented in the OpenAPI document', () => {
    expect(view.problems).toEqual([]);
  });
});
