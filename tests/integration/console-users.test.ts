// User administration (docs/users-and-auth.md, Users): admin JWT only; the user resource; errors
// (403 for other roles, 409/422); passwords never returned. Also: deactivation ends sign-in,
// refresh and API keys.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEntry, encodeEntry, keyCacheKey } from '../../shared/src/auth/api-keys/auth-cache';
import { findApiKeyForAuth } from '../../shared/src/db/repos/api-keys-repo';
import { auditLog, users } from '../../shared/src/db/schema';
import {
  type CheckedApi,
  type CheckedCallOptions,
  type CheckedReply,
  checkedApi,
} from '../helpers/checked-api';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { insertApiKey } from '../helpers/fixtures';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { appEnv, freshDatabase } from '../helpers/stores';

const IP = '198.51.100.31';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const admin = { email: 'root@users.example', display_name: 'Root', password: 'root-password-1' };
const member = { email: 'member@users.example', display_name: 'Member', password: 'member-password-1' };

let h: ConsoleHarness;
let gw: GatewayHarness;
let checked: CheckedApi;
let adminToken: string;
let adminId: string;
let memberToken: string;
let memberId: string;

const api = (method: string, path: string, options?: CheckedCallOptions) =>
  checked.call(method, path, options);

async function login(email: string, password: string): Promise<CheckedReply> {
  return api('POST', '/api/auth/login', { body: { email, password } });
}

beforeAll(async () => {
  const url = await freshDatabase('sluice_it_users');
  h = await consoleHarness(appEnv(url));
  gw = gatewayHarness(appEnv(url));
  checked = await checkedApi(h, { ip: IP });
  const init = await api('POST', '/api/setup/initialize', { body: { admin } });
  expect(init.status).toBe(200);
  adminToken = init.body.access_token;
  adminId = init.body.user.id;
  const registered = await api('POST', '/api/auth/register', { body: member });
  memberId = registered.body.id;
  memberToken = (await login(member.email, member.password)).body.access_token;
});
afterAll(() => h.close());

describe('admin users: authentication and authorisation', () => {
  const calls: Array<[string, string, unknown?]> = [
    ['GET', '/api/admin/users'],
    ['POST', '/api/admin/users', { email: 'x@users.example', display_name: 'X', password: 'x-password-1' }],
    ['GET', `/api/admin/users/${UNKNOWN_ID}`],
    ['PATCH', `/api/admin/users/${UNKNOWN_ID}`, { display_name: 'X' }],
    ['DELETE', `/api/admin/users/${UNKNOWN_ID}`],
  ];

  it.each(calls)('%s %s: 401 without or with an invalid JWT', async (method, path, body) => {
    expect((await api(method, path, { body })).status).toBe(401);
    const bad = await api(method, path, { body, token: 'not-a-jwt' });
    expect(bad.status).toBe(401);
    expect(bad.body.error.type).toBe('authentication_error');
  });

  it.each(calls)('%s %s: 403 for a non-admin', async (method, path, body) => {
    const res = await api(method, path, { body, token: memberToken });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: { message: 'Admin role required', type: 'permission_error' } });
  });
});

describe('GET and POST /api/admin/users', () => {
  it('lists every user with the documented fields plus is_active', async () => {
    const res = await api('GET', '/api/admin/users', { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(res.body.map((u: { email: string }) => u.email)).toEqual([admin.email, member.email]);
    expect(Object.keys(res.body[0]).sort()).toEqual([
      'created_at',
      'display_name',
      'email',
      'id',
      'is_active',
      'role',
      'updated_at',
    ]);
    expect(res.text).not.toMatch(/password|argon2/i);
  });

  it('creates a user (role defaults to user) who can sign in, and audits it', async () => {
    const body = { email: 'New@Users.example', display_name: 'New', password: 'new-password-1' };
    const res = await api('POST', '/api/admin/users', { token: adminToken, body });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'display_name', 'email', 'id', 'role']);
    expect(res.body).toMatchObject({ email: 'new@users.example', display_name: 'New', role: 'user' });
    expect((await login('new@users.example', body.password)).status).toBe(200);
    const [row] = await h.deps.db.select().from(users).where(eq(users.id, res.body.id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    const [audit] = await h.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.create'), eq(auditLog.resourceId, res.body.id)));
    expect(audit).toMatchObject({ userId: adminId, userEmail: admin.email, ipAddress: IP });
    expect(JSON.stringify(audit?.details)).not.toContain(body.password);
  });

  it('creates a user with an explicit role', async () => {
    const body = {
      email: 'ops@users.example',
      display_name: 'Ops',
      password: 'ops-password-1',
      role: 'operator',
    };
    const res = await api('POST', '/api/admin/users', { token: adminToken, body });
    expect(res.status).toBe(201);
    expect(res.body.role).toBe('operator');
  });

  it('refuses a duplicate email in any case with 409', async () => {
    const body = { email: 'MEMBER@users.example', display_name: 'Dup', password: 'dup-password-1' };
    const res = await api('POST', '/api/admin/users', { token: adminToken, body });
    expect(res.status).toBe(409);
    expect(res.body.error.type).toBe('conflict_error');
  });

  it.each([
    ['a short password', { email: 'a@users.example', display_name: 'A', password: 'short' }],
    [
      'an unknown role',
      { email: 'a@users.example', display_name: 'A', password: 'long-enough', role: 'root' },
    ],
    ['a bad email', { email: 'not-an-email', display_name: 'A', password: 'long-enough' }],
    ['missing fields', { email: 'a@users.example' }],
    ['an empty display name', { email: 'a@users.example', display_name: ' ', password: 'long-enough' }],
  ])('refuses %s with 422', async (_label, body) => {
    const res = await api('POST', '/api/admin/users', { token: adminToken, body });
    expect(res.status).toBe(422);
    expect(res.body.error.type).toBe('validation_error');
  });
});

describe('GET and PATCH /api/admin/users/{id}', () => {
  it('reads one user', async () => {
    const res = await api('GET', `/api/admin/users/${memberId}`, { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: memberId, email: member.email, role: 'user', is_active: true });
  });

  it.each([
    'GET',
    'PATCH',
    'DELETE',
  ])('%s answers 404 for an unknown id and a malformed one', async (method) => {
    const body = method === 'PATCH' ? { display_name: 'X' } : undefined;
    for (const id of [UNKNOWN_ID, 'not-a-uuid']) {
      const res = await api(method, `/api/admin/users/${id}`, { token: adminToken, body });
      expect(res.status, id).toBe(404);
      expect(res.body.error.type).toBe('not_found_error');
    }
  });

  it('changes display name and role, and audits the change', async () => {
    const res = await api('PATCH', `/api/admin/users/${memberId}`, {
      token: adminToken,
      body: { display_name: 'Member Two', role: 'viewer' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ display_name: 'Member Two', role: 'viewer', is_active: true });
    expect(res.body.updated_at >= res.body.created_at).toBe(true);
    const [audit] = await h.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.update'), eq(auditLog.resourceId, memberId)));
    expect(audit?.details).toMatchObject({
      changes: ['display_name', 'role'],
      role: { from: 'user', to: 'viewer' },
    });
  });

  it('sets a password: the new one works, the old one and old refresh tokens do not', async () => {
    const session = await login(member.email, member.password);
    const res = await api('PATCH', `/api/admin/users/${memberId}`, {
      token: adminToken,
      body: { password: 'reset-password-1' },
    });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('reset-password-1');
    expect((await login(member.email, member.password)).status).toBe(401);
    expect((await login(member.email, 'reset-password-1')).status).toBe(200);
    const refresh = await api('POST', '/api/auth/refresh', {
      body: { refresh_token: session.body.refresh_token },
    });
    expect(refresh.status).toBe(401);
    const [audit] = await h.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.update'), eq(auditLog.resourceId, memberId)))
      .orderBy(auditLog.createdAt);
    expect(JSON.stringify(audit?.details)).not.toContain('reset-password-1');
  });

  it.each([
    ['an empty body', {}],
    ['an unknown field', { email: 'other@users.example' }],
    ['an unknown role', { role: 'superuser' }],
    ['a short password', { password: 'short' }],
    ['a non-boolean is_active', { is_active: 'no' }],
  ])('refuses %s with 422', async (_label, body) => {
    const res = await api('PATCH', `/api/admin/users/${memberId}`, { token: adminToken, body });
    expect(res.status).toBe(422);
  });
});

describe('deactivation (DELETE) and the last admin', () => {
  it('deactivates a user: no sign-in, no refresh, API keys refused; PATCH reactivates', async () => {
    const victim = { email: 'victim@users.example', display_name: 'Victim', password: 'victim-password-1' };
    const created = await api('POST', '/api/admin/users', { token: adminToken, body: victim });
    const session = await login(victim.email, victim.password);
    const key = await insertApiKey(h.deps.db, created.body.id);
    expect((await gw.call('GET', '/v1/models', { token: key.key })).status).toBe(200);
    // A gateway may hold the key's auth record (owner active) in the Redis key cache.
    const cached = await findApiKeyForAuth(h.deps.db, key.hash);
    await h.deps.redis.set(keyCacheKey(key.hash), encodeEntry(cached!), { ex: 60 });

    const res = await api('DELETE', `/api/admin/users/${created.body.id}`, { token: adminToken });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await login(victim.email, victim.password)).status).toBe(401);
    const refresh = await api('POST', '/api/auth/refresh', {
      body: { refresh_token: session.body.refresh_token },
    });
    expect(refresh.status).toBe(401);
    expect((await gw.call('GET', '/v1/models', { token: key.key })).status).toBe(401);
    expect(decodeEntry(await h.deps.redis.get(keyCacheKey(key.hash)))).toEqual({ kind: 'stale' });
    const shown = await api('GET', `/api/admin/users/${created.body.id}`, { token: adminToken });
    expect(shown.body.is_active).toBe(false);
    const [audit] = await h.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.delete'), eq(auditLog.resourceId, created.body.id)));
    expect(audit).toMatchObject({ userId: adminId, details: { was_active: true, revoked_sessions: 1 } });

    const back = await api('PATCH', `/api/admin/users/${created.body.id}`, {
      token: adminToken,
      body: { is_active: true },
    });
    expect(back.body.is_active).toBe(true);
    expect((await login(victim.email, victim.password)).status).toBe(200);
  });

  it('refuses to demote or deactivate the last active admin with 409', async () => {
    const demote = await api('PATCH', `/api/admin/users/${adminId}`, {
      token: adminToken,
      body: { role: 'user' },
    });
    expect(demote.status).toBe(409);
    expect(demote.body.error.message).toBe('Cannot demote or deactivate the last active admin');
    const off = await api('PATCH', `/api/admin/users/${adminId}`, {
      token: adminToken,
      body: { is_active: false },
    });
    expect(off.status).toBe(409);
    expect((await api('DELETE', `/api/admin/users/${adminId}`, { token: adminToken })).status).toBe(409);
    const [row] = await h.deps.db.select().from(users).where(eq(users.id, adminId));
    expect(row).toMatchObject({ role: 'admin', isActive: true });
  });

  it('lets exactly one of two admins demoting each other at once succeed', async () => {
    const second = { email: 'second@users.example', display_name: 'Second', password: 'second-password-1' };
    const created = await api('POST', '/api/admin/users', {
      token: adminToken,
      body: { ...second, role: 'admin' },
    });
    const secondToken = (await login(second.email, second.password)).body.access_token;
    const results = await Promise.all([
      api('PATCH', `/api/admin/users/${created.body.id}`, { token: adminToken, body: { role: 'user' } }),
      api('PATCH', `/api/admin/users/${adminId}`, { token: secondToken, body: { role: 'user' } }),
    ]);
    // The loser is refused either way: 409 when both passed the admin check and the last-admin
    // rule stopped the second write, 403 when the first demotion landed before the second
    // request's own admin check (its caller was no longer an admin).
    const [won, lost] = results.map((r) => r.status).sort();
    expect(won).toBe(200);
    expect([403, 409]).toContain(lost);
    const admins = await h.deps.db
      .select()
      .from(users)
      .where(and(eq(users.role, 'admin'), eq(users.isActive, true)));
    expect(admins).toHaveLength(1);
  });

  it('answered every call as the OpenAPI document says', () => {
    expect(checked.problems).toEqual([]);
  });
});

describe('tokens issued before a role change', () => {
  it('lose admin access at once when the user is demoted, and all access when deactivated', async () => {
    // The race test above leaves either root or second as the only admin.
    const [survivor] = await h.deps.db.select().from(users).where(eq(users.role, 'admin'));
    if (!survivor) throw new Error('the race test must leave one admin');
    const password = survivor.email === admin.email ? admin.password : 'second-password-1';
    const adminToken = (await login(survivor.email, password)).body.access_token as string;
    const email = `demoted-${Date.now()}@example.com`;
    const created = await h.call('POST', '/api/admin/users', {
      token: adminToken,
      body: { email, display_name: 'Soon demoted', password: 'demoted-password-1', role: 'admin' },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const signIn = await h.call('POST', '/api/auth/login', {
      body: { email, password: 'demoted-password-1' },
    });
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    const { access_token: token } = (await signIn.json()) as { access_token: string };
    const before = await h.call('GET', '/api/admin/users', { token });
    expect(before.status, await before.clone().text()).toBe(200);

    await h.call('PATCH', `/api/admin/users/${id}`, { token: adminToken, body: { role: 'user' } });
    expect((await h.call('GET', '/api/admin/users', { token })).status).toBe(403);
    expect((await h.call('GET', '/api/auth/me', { token })).status).toBe(200);

    await h.call('DELETE', `/api/admin/users/${id}`, { token: adminToken });
    expect((await h.call('GET', '/api/auth/me', { token })).status).toBe(401);
  });
});
