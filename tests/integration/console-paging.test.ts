// Every console list pages one way: limit (1..200, default 50) entries from offset (default 0),
// answered as a JSON array of the page's entries with the total the list holds in the
// X-Total-Count header, in an order that never changes between calls, so walking the pages visits
// each entry once; bad paging values are a 422 in the console's envelope. (The log searches keep
// their { total, offset, limit, entries } envelope: console-audit, console-gateway-logs, ….)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, mcpTools, oauthGrants } from '../../shared/src/db/schema';
import { type CheckedApi, checkedApi } from '../helpers/checked-api';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { appEnv, freshDatabase } from '../helpers/stores';

let h: ConsoleHarness;
let checked: CheckedApi;
let token = '';
let adminId = '';

/** One page as a client reads it: the body's entries and the total from X-Total-Count. */
interface Page {
  total: number;
  entries: Array<Record<string, unknown>>;
}

const api = (method: string, path: string, body?: unknown) => checked.call(method, path, { token, body });

async function created(path: string, body: unknown): Promise<{ id: string }> {
  const res = await api('POST', path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

async function page(path: string, query: string): Promise<Page> {
  const res = await api('GET', withQuery(path, query));
  expect(res.status, `${path} ${query}: ${JSON.stringify(res.body)}`).toBe(200);
  expect(Array.isArray(res.body), `${path} ${query}: ${res.text.slice(0, 200)}`).toBe(true);
  const total = res.headers.get('x-total-count');
  expect(total, `${path} ${query}: X-Total-Count`).toMatch(/^\d+$/);
  return { total: Number(total), entries: res.body };
}

/** What identifies an entry of each list (the price table's is its model, a connection's its server). */
const keyOf = (entry: Record<string, unknown>) => String(entry.id ?? entry.model ?? entry.server_id);

/** Every list, what it holds after the setup below, and the order it promises. */
const LISTS: Array<{ path: string; total: number; order: (entries: Page['entries']) => string[] }> = [];
const byName = (entries: Page['entries']) => entries.map((e) => String(e.name));

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_paging')));
  checked = await checkedApi(h);
  const init = await h.call('POST', '/api/setup/initialize', {
    body: { admin: { email: 'pg-admin@example.com', display_name: 'A', password: 'paging-password-1' } },
  });
  const admin = (await init.json()) as { access_token: string; user: { id: string } };
  token = admin.access_token;
  adminId = admin.user.id;

  const providers = [];
  for (const name of ['pg-charlie', 'pg-alpha', 'pg-bravo', 'pg-delta', 'pg-echo']) {
    providers.push(
      await created('/api/admin/providers', {
        name,
        display_name: name,
        provider_type: 'openai',
        base_url: `https://${name}.example/v1`,
        api_key: 'sk-paging',
      }),
    );
  }
  const route = { provider_id: providers[0]?.id, upstream_model: 'pg-unknown-upstream' };
  for (const name of ['m-delta', 'm-alpha', 'm-echo', 'm-charlie', 'm-bravo'])
    await created('/api/admin/models', { name, routes: [route] });
  await created('/api/admin/models', {
    name: 'm-priced',
    input_price_per_mtok: 1,
    output_price_per_mtok: 2,
    routes: [route],
  });
  for (const name of ['r-charlie', 'r-alpha', 'r-bravo', 'r-delta', 'r-echo'])
    await created('/api/admin/roles', { name });
  for (const name of ['t-bravo', 't-echo', 't-alpha', 't-delta', 't-charlie'])
    await created('/api/admin/teams', { name });
  const users = [];
  for (const n of [1, 2, 3, 4])
    users.push(
      await created('/api/admin/users', {
        email: `pg-user-${n}@example.com`,
        display_name: `U${n}`,
        password: 'paging-password-1',
      }),
    );
  for (const [i, user] of users.entries())
    await created('/api/admin/permissions', {
      user_id: user.id,
      permission: i % 2 ? 'rate_limits:read' : 'rate_limits:write',
      scope_type: 'global',
    });
  for (const n of [1, 2, 3]) await created('/api/keys', { name: `key ${n}`, expires_in_days: n });
  // Five keys created in the same instant: only their ids can order them.
  const sameInstant = new Date('2030-01-01T00:00:00Z');
  await h.deps.db.insert(apiKeys).values(
    [1, 2, 3, 4, 5].map((n) => ({
      userId: adminId,
      name: `tied ${n}`,
      keyHash: `tied-hash-${n}`,
      prefix: `sluice-tie${n}`,
      createdAt: sameInstant,
    })),
  );
  // Grants of MCP clients: two active, one revoked (listed last).
  await h.deps.db.insert(oauthGrants).values(
    ['client a', 'client b', 'client c'].map((clientName, i) => ({
      userId: adminId,
      clientId: `https://client-${i}.example/metadata`,
      clientName,
      resource: 'https://gateway.example/mcp',
      scope: 'mcp',
      revokedAt: i === 1 ? new Date() : null,
    })),
  );

  // MCP: three servers (two where each user signs in), five tools, three virtual servers.
  const servers: Array<{ id: string }> = [];
  for (const [name, auth_type] of [
    ['s-charlie', 'oauth'],
    ['s-alpha', 'none'],
    ['s-bravo', 'oauth'],
  ])
    servers.push(
      await created('/api/mcp/servers', { name, endpoint_url: 'http://127.0.0.1:9/mcp', auth_type }),
    );
  await h.deps.db.insert(mcpTools).values(
    ['t-echo', 't-alpha', 't-delta', 't-bravo', 't-charlie'].map((name, i) => ({
      serverId: String(servers[i % servers.length]?.id),
      name,
      description: name,
    })),
  );
  for (const name of ['v-bravo', 'v-charlie', 'v-alpha'])
    await created('/api/mcp/virtual-servers', { name, tools: ['s-alpha__t-alpha'] });

  const desc = (field: string) => (entries: Page['entries']) => entries.map((e) => String(e[field]));
  LISTS.push(
    { path: '/api/keys', total: 8, order: desc('created_at') },
    { path: '/api/keys/expiring?days=30', total: 3, order: desc('expires_at') },
    { path: '/api/admin/users', total: 5, order: desc('created_at') },
    { path: '/api/admin/providers', total: 5, order: byName },
    { path: '/api/admin/models', total: 6, order: byName },
    { path: '/api/admin/models/unpriced', total: 5, order: byName },
    { path: '/api/admin/roles', total: 5, order: byName },
    { path: '/api/admin/teams', total: 5, order: byName },
    { path: '/api/admin/permissions', total: 4, order: desc('created_at') },
    { path: '/api/oauth/grants', total: 3, order: (entries) => entries.map((e) => String(e.revoked_at)) },
    { path: '/api/mcp/servers', total: 3, order: byName },
    {
      path: '/api/mcp/tools',
      total: 5,
      order: (entries) => entries.map((e) => `${e.server_name}/${e.name}`),
    },
    { path: '/api/mcp/virtual-servers', total: 3, order: byName },
    { path: '/api/mcp/connections', total: 2, order: desc('server_name') },
  );
  const prices = await page('/api/admin/model-prices', 'limit=1');
  LISTS.push({
    path: '/api/admin/model-prices',
    total: prices.total,
    order: (entries) => entries.map((e) => `${e.vendor}\u0000${e.model}`),
  });
}, 60_000);
afterAll(() => h?.close());

describe('every console list pages one way', () => {
  it('answers a JSON array with the total in X-Total-Count', async () => {
    for (const path of ['/api/keys', '/api/admin/roles']) {
      const res = await api('GET', path);
      expect(res.status, path).toBe(200);
      expect(Array.isArray(res.body), path).toBe(true);
      expect(res.headers.get('x-total-count'), path).toBe(String(res.body.length));
    }
    const roles = await api('GET', '/api/admin/roles');
    expect(roles.body.map((r: { name: string }) => r.name)).toEqual([
      'r-alpha',
      'r-bravo',
      'r-charlie',
      'r-delta',
      'r-echo',
    ]);
  });

  it('answers the first 50 by default, with the total the list holds', async () => {
    for (const { path, total } of LISTS) {
      const first = await page(path, '');
      expect(first.total, path).toBe(total);
      expect(first.entries, path).toHaveLength(Math.min(total, 50));
    }
  });

  it('walks pages of 2 over every entry once, in the order of the whole list', async () => {
    for (const { path, total } of LISTS) {
      const whole = await page(path, 'limit=200');
      expect(whole.entries, path).toHaveLength(total);
      const walked: string[] = [];
      for (let offset = 0; offset < total; offset += 2) {
        const one = await page(path, `limit=2&offset=${offset}`);
        expect(one.total, path).toBe(total);
        expect(one.entries.length, path).toBe(Math.min(2, total - offset));
        // The page is the whole list's slice at that offset.
        expect(one.entries.map(keyOf), path).toEqual(whole.entries.slice(offset, offset + 2).map(keyOf));
        walked.push(...one.entries.map(keyOf));
      }
      expect(walked, path).toEqual(whole.entries.map(keyOf));
      expect(new Set(walked).size, path).toBe(total);
    }
  });

  it('keeps the order each list promises', async () => {
    const sorted = (values: string[]) => [...values].sort();
    for (const { path, order } of LISTS) {
      const values = order((await page(path, 'limit=200')).entries);
      if (path.startsWith('/api/keys?') || path === '/api/keys') {
        expect(values, path).toEqual(sorted(values).reverse());
      } else if (path === '/api/oauth/grants') {
        // Active first (revoked_at null), then the revoked one.
        expect(values, path).toEqual(['null', 'null', expect.stringMatching(/^\d{4}-/)]);
      } else {
        expect(values, path).toEqual(sorted(values));
      }
    }
  });

  it('orders entries created in the same instant by id, so no page repeats or skips one', async () => {
    const tied = (await page('/api/keys', 'limit=200')).entries.filter((k) =>
      String(k.name).startsWith('tied '),
    );
    const ids = tied.map((k) => String(k.id));
    expect(ids).toHaveLength(5);
    expect(ids).toEqual([...ids].sort().reverse());
    // The tied keys are the newest: the first page ends, and the second starts, among them.
    const first = await page('/api/keys', 'limit=3');
    const second = await page('/api/keys', 'limit=3&offset=3');
    expect([...first.entries, ...second.entries].map(keyOf).slice(0, 5)).toEqual(ids);
  });

  it('answers an offset past the end with no entries and the same total', async () => {
    for (const { path, total } of LISTS) {
      expect(await page(path, `offset=${total}`), path).toEqual({ total, entries: [] });
      expect(await page(path, 'offset=100000'), path).toEqual({ total, entries: [] });
    }
  });

  it('takes the bounds: limit 1 and 200', async () => {
    for (const { path, total } of LISTS) {
      expect(await page(path, 'limit=1'), path).toMatchObject({ total, entries: [expect.anything()] });
      const most = await page(path, 'limit=200');
      expect(most.total, path).toBe(total);
      expect(most.entries, path).toHaveLength(Math.min(total, 200));
    }
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=-5', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=ten', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=0.5', 'offset'],
    ['offset=x', 'offset'],
  ])('refuses %s with 422 in the console envelope, naming the parameter', async (query, field) => {
    for (const { path } of LISTS) {
      const res = await api('GET', withQuery(path, query));
      expect(res.status, `${path} ${query}`).toBe(422);
      expect(res.body.error).toMatchObject({
        type: 'validation_error',
        message: expect.stringContaining(field),
        details: [expect.objectContaining({ path: field })],
      });
    }
  });

  it('keeps the filters each list had, counted in its total', async () => {
    const [holder] = (await page('/api/admin/permissions', 'limit=1')).entries;
    const held = await page('/api/admin/permissions', `user_id=${holder?.user_id}`);
    expect(held.total).toBe(1);
    const tools = (query: string) => page('/api/mcp/tools', query);
    expect((await tools('q=ALP')).entries.map((t) => t.name)).toEqual(['t-alpha']);
    expect((await tools('q=t%25')).total).toBe(0);
    const ofAlpha = await tools('server=s-alpha&limit=1');
    expect(ofAlpha).toEqual({
      total: 2,
      entries: [expect.objectContaining({ name: 't-alpha', server_name: 's-alpha' })],
    });
    const soon = await page('/api/keys/expiring', 'days=2');
    expect(soon.total).toBe(2);
    expect(soon.entries.map((k) => k.name)).toEqual(['key 1', 'key 2']);
  });

  it('answers every call as the OpenAPI document says', () => {
    expect(checked.problems).toEqual([]);
  });
});
