// GET /api/admin/platform-logs (user_id, action, resource, resource_id, from, to, limit: default
// 50, max 200; offset). The management operations of the audit trail (which records management
// operations and authentication) with exact filters: the sign-ins are in GET /api/audit/logs only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { appEnv, freshDatabase } from '../helpers/stores';

let h: ConsoleHarness;
let admin: { token: string; id: string };
let userToken: string;

async function api(path: string, token = admin.token) {
  const res = await h.call('GET', path, { token });
  // biome-ignore lint/suspicious/noExplicitAny: asserted field by field.
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_platform_logs')));
  const init = await h.call('POST', '/api/setup/initialize', {
    body: { admin: { email: 'pl-admin@example.com', display_name: 'A', password: 'pl-admin-password' } },
  });
  const body = (await init.json()) as { access_token: string; user: { id: string } };
  admin = { token: body.access_token, id: body.user.id };
  const user = { email: 'pl-user@example.com', display_name: 'U', password: 'pl-user-password' };
  await h.call('POST', '/api/auth/register', { body: user });
  const login = await h.call('POST', '/api/auth/login', {
    body: { email: user.email, password: user.password },
  });
  userToken = ((await login.json()) as { access_token: string }).access_token;
});
afterAll(() => h.close());

describe('GET /api/admin/platform-logs', () => {
  it('filters by action, resource, resource_id and user exactly, newest first, with a total', async () => {
    const created = await h.call('POST', '/api/keys', { token: admin.token, body: { name: 'pl key' } });
    const key = (await created.json()) as { id: string };
    await h.call('DELETE', `/api/keys/${key.id}`, { token: admin.token });

    const revoked = await api('/api/admin/platform-logs?action=key.revoke');
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ total: 1, offset: 0, limit: 50 });
    expect(revoked.body.entries[0]).toMatchObject({
      action: 'key.revoke',
      resource_type: 'api_key',
      resource_id: key.id,
    });

    const ofKey = await api(`/api/admin/platform-logs?resource=api_key&resource_id=${key.id}`);
    expect(ofKey.body.entries.map((e: { action: string }) => e.action)).toEqual(['key.revoke', 'key.create']);

    const byAdmin = await api(`/api/admin/platform-logs?user_id=${admin.id}&limit=1`);
    expect(byAdmin.body.entries).toHaveLength(1);
    expect(byAdmin.body.total).toBeGreaterThanOrEqual(3);
    expect(byAdmin.body.entries[0].user_id).toBe(admin.id);

    const future = await api(`/api/admin/platform-logs?from=${new Date(Date.now() + 60_000).toISOString()}`);
    expect(future.body).toMatchObject({ total: 0, entries: [] });
  });

  it('lists the management operations of the audit trail, not its sign-ins (those are in the audit log)', async () => {
    // A failed sign-in too: the audit trail has it, the platform log does not.
    await h.call('POST', '/api/auth/login', {
      body: { email: 'pl-user@example.com', password: 'wrong-password' },
    });
    const actions = async (path: string) => {
      const res = await api(path);
      expect(res.status, path).toBe(200);
      return res.body.entries.map((e: { action: string }) => e.action) as string[];
    };
    const audit = await actions('/api/audit/logs?limit=200');
    const platform = await actions('/api/admin/platform-logs?limit=200');
    expect(audit).toEqual(expect.arrayContaining(['auth.register', 'auth.login', 'auth.login_failed']));
    expect(audit).toEqual(expect.arrayContaining(['setup.initialize', 'user.create', 'key.create']));
    expect(platform.filter((a) => a.startsWith('auth.'))).toEqual([]);
    // Every other audit record is in the platform log, in the same order.
    expect(platform).toEqual(audit.filter((a) => !a.startsWith('auth.')));
    expect(platform).toEqual(expect.arrayContaining(['setup.initialize', 'user.create', 'key.create']));
    // Asked for by name, a sign-in is still not a platform operation.
    expect((await api('/api/admin/platform-logs?action=auth.login')).body).toMatchObject({ total: 0 });
    const total = (await api('/api/admin/platform-logs')).body.total;
    expect(total).toBe(platform.length);
    expect((await api('/api/audit/logs')).body.total).toBeGreaterThan(total);
  });

  it('pages up to 200 and refuses bad queries, non-admins and anonymous callers', async () => {
    for (const bad of [
      'limit=201',
      'limit=0',
      'offset=-1',
      'user_id=nope',
      'from=yesterday',
      'from=2026-02-01&to=2026-01-01',
    ]) {
      expect((await api(`/api/admin/platform-logs?${bad}`)).status, bad).toBe(422);
    }
    expect((await api('/api/admin/platform-logs?limit=200')).status).toBe(200);
    expect((await api('/api/admin/platform-logs', userToken)).status).toBe(403);
    expect((await h.call('GET', '/api/admin/platform-logs')).status).toBe(401);
  });
});
