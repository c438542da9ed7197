// Beyond /api/keys (a caller's own keys): GET /api/admin/keys, every user's keys with
// their owner, so an admin can pick any key (the web UI's limits screen). Filters user_id,
// status, q; paging like the log views; admins only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckedApi, checkedApi } from '../helpers/checked-api';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { appEnv, freshDatabase } from '../helpers/stores';

let h: ConsoleHarness;
let checked: CheckedApi;
const people = {
  admin: { email: 'ak-admin@example.com', token: '', id: '' },
  user: { email: 'ak-user_50pc@example.com', token: '', id: '' },
};

const api = (method: string, path: string, token = people.admin.token, body?: unknown) =>
  checked.call(method, path, { token, body });

const names = (body: { name: string }[]) => body.map((e) => e.name);

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_admin_keys')));
  checked = await checkedApi(h);
  const password = 'ak-password-123';
  const init = await h.call('POST', '/api/setup/initialize', {
    body: { admin: { email: people.admin.email, display_name: 'A', password } },
  });
  const admin = (await init.json()) as { access_token: string; user: { id: string } };
  people.admin.token = admin.access_token;
  people.admin.id = admin.user.id;
  await h.call('POST', '/api/auth/register', {
    body: { email: people.user.email, display_name: 'U', password },
  });
  const login = await h.call('POST', '/api/auth/login', { body: { email: people.user.email, password } });
  const user = (await login.json()) as { access_token: string; user: { id: string } };
  people.user.token = user.access_token;
  people.user.id = user.user.id;
  // Oldest first, so the list (newest first) reads backwards.
  for (const [who, name] of [
    ['admin', 'admin ci'],
    ['user', 'user laptop'],
    ['user', 'user 50%_off'],
    ['admin', 'admin 50 kick off'],
    ['admin', 'admin revoked'],
  ] as const) {
    const created = await api('POST', '/api/keys', people[who].token, { name });
    expect(created.status).toBe(201);
    if (name === 'admin revoked') await api('DELETE', `/api/keys/${created.body.id}`);
  }
}, 60_000);
afterAll(() => h?.close());

describe('GET /api/admin/keys', () => {
  it("lists every user's keys but revoked ones, newest first, with the owner and no secret", async () => {
    const all = await api('GET', '/api/admin/keys');
    expect(all.status).toBe(200);
    expect(all.headers.get('x-total-count')).toBe('4');
    expect(all.body).toHaveLength(4);
    expect(names(all.body)).toEqual(['admin 50 kick off', 'user 50%_off', 'user laptop', 'admin ci']);
    expect(all.body[1]).toMatchObject({
      user_id: people.user.id,
      owner_email: people.user.email,
      status: 'active',
    });
    expect(JSON.stringify(all.body)).not.toMatch(/sk-|"key"/);
  });

  it('filters by owner, status and a literal substring of name, prefix or owner email', async () => {
    expect(names((await api('GET', `/api/admin/keys?user_id=${people.admin.id}`)).body)).toEqual([
      'admin 50 kick off',
      'admin ci',
    ]);
    expect(names((await api('GET', '/api/admin/keys?status=revoked')).body)).toEqual(['admin revoked']);
    // % and _ are literal: "50%_off" matches one key name, not every key with "50" and "off".
    expect(names((await api('GET', `/api/admin/keys?q=${encodeURIComponent('50%_off')}`)).body)).toEqual([
      'user 50%_off',
    ]);
    expect(names((await api('GET', '/api/admin/keys?q=AK-USER')).body)).toEqual([
      'user 50%_off',
      'user laptop',
    ]);
    const first = (await api('GET', '/api/admin/keys')).body[1];
    expect(names((await api('GET', `/api/admin/keys?q=${first.prefix}`)).body)).toContain(first.name);
  });

  it('pages with a stable order and a total', async () => {
    const page = await api('GET', '/api/admin/keys?limit=2&offset=1');
    expect(page.headers.get('x-total-count')).toBe('4');
    expect(page.body).toHaveLength(2);
    expect(names(page.body)).toEqual(['user 50%_off', 'user laptop']);
  });

  it('refuses bad queries (422), non-admins (403) and anonymous callers (401)', async () => {
    for (const bad of ['limit=201', 'limit=0', 'offset=-1', 'user_id=nope', 'status=gone', 'q=']) {
      expect((await api('GET', `/api/admin/keys?${bad}`)).status, bad).toBe(422);
    }
    expect((await api('GET', '/api/admin/keys', people.user.token)).status).toBe(403);
    expect((await h.call('GET', '/api/admin/keys')).status).toBe(401);
  });

  it('answers as the OpenAPI document says', () => {
    expect(checked.problems).toEqual([]);
  });
});
