// Who may read and change a key's or a user's limits (docs/limits.md, Permission grants):
// rate_limits:read to read, rate_limits:write to change, in a scope covering the subject. The
// grant model: global covers every key and user; team the members and their keys; own the
// holder's keys only; write implies read; 404 for an unknown subject comes before 403.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog } from '../../shared/src/db/schema';
import { type CheckedApi, type CheckedCallOptions, checkedApi } from '../helpers/checked-api';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { appEnv, freshDatabase } from '../helpers/stores';

const IP = '198.51.100.63';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const admin = { email: 'root@scopes.example', display_name: 'Root', password: 'root-password-1' };
const people = ['alice', 'bob', 'carol'] as const;
type Who = (typeof people)[number];

let h: ConsoleHarness;
let checked: CheckedApi;
let adminToken: string;
/** alice holds the grants; bob is in team blue; carol is in no team. */
const users = {} as Record<Who, { id: string; token: string; keyId: string }>;
let blueTeam: string;

const api = (method: string, path: string, options?: CheckedCallOptions) =>
  checked.call(method, path, options);

const asAdmin = (method: string, path: string, body?: unknown) =>
  api(method, path, { token: adminToken, body });

const keyOf = (who: Who) => `/api/admin/limits/api_key/${users[who].keyId}`;
const userOf = (who: Who) => `/api/admin/limits/user/${users[who].id}`;
const RULES = { rules: [{ kind: 'requests', window: '1m', limit: 30 }] };
const BUDGETS = { budgets: [{ period: 'daily', limit_tokens: 1000 }] };

/** What alice gets for a read and for a write (PUT rules) of the subject. */
async function aliceCan(subject: string): Promise<{ read: number; write: number }> {
  const token = users.alice.token;
  const read = (await api('GET', `${subject}/rules`, { token })).status;
  const write = (await api('PUT', `${subject}/rules`, { token, body: RULES })).status;
  return { read, write };
}

async function grant(permission: 'read' | 'write', scope_type: string, scope_id?: string): Promise<void> {
  const res = await asAdmin('POST', '/api/admin/permissions', {
    user_id: users.alice.id,
    permission: `rate_limits:${permission}`,
    scope_type,
    ...(scope_id && { scope_id }),
  });
  expect(res.status).toBe(201);
}

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_limits_scopes')));
  checked = await checkedApi(h, { ip: IP });
  adminToken = (await api('POST', '/api/setup/initialize', { body: { admin } })).body.access_token;
  for (const who of people) {
    const creds = { email: `${who}@scopes.example`, display_name: who, password: `${who}-password-1` };
    const id = (await api('POST', '/api/auth/register', { body: creds })).body.id;
    const token = (
      await api('POST', '/api/auth/login', { body: { email: creds.email, password: creds.password } })
    ).body.access_token;
    const keyId = (await api('POST', '/api/keys', { token, body: { name: `${who} key` } })).body.id;
    users[who] = { id, token, keyId };
  }
  blueTeam = (await asAdmin('POST', '/api/admin/teams', { name: 'blue' })).body.id;
  await asAdmin('PUT', `/api/admin/teams/${blueTeam}/members`, { user_ids: [users.bob.id] });
});
afterAll(() => h.close());

// Each case starts from no grants at all.
beforeEach(async () => {
  const held = await asAdmin('GET', `/api/admin/permissions?user_id=${users.alice.id}`);
  for (const g of held.body) await asAdmin('DELETE', `/api/admin/permissions/${g.id}`);
});

describe('a non-admin without grants', () => {
  it('is refused (403) on every key and user, own key and self included', async () => {
    for (const subject of [keyOf('alice'), keyOf('bob'), userOf('alice'), userOf('carol')]) {
      expect(await aliceCan(subject), subject).toEqual({ read: 403, write: 403 });
      expect((await api('GET', `${subject}/budgets`, { token: users.alice.token })).status).toBe(403);
      expect((await api('DELETE', `${subject}/budgets`, { token: users.alice.token })).status).toBe(403);
    }
  });

  it('gets 404, not 403, for a subject that does not exist', async () => {
    expect(await aliceCan(`/api/admin/limits/api_key/${UNKNOWN_ID}`)).toEqual({ read: 404, write: 404 });
    expect(await aliceCan(`/api/admin/limits/user/${UNKNOWN_ID}`)).toEqual({ read: 404, write: 404 });
  });

  it('is refused before the body is validated', async () => {
    const res = await api('PUT', `${keyOf('bob')}/rules`, { token: users.alice.token, body: { rules: 'x' } });
    expect(res.status).toBe(403);
  });
});

describe('scope own', () => {
  it('read covers the holder’s own keys only, and not users', async () => {
    await grant('read', 'own');
    expect(await aliceCan(keyOf('alice'))).toEqual({ read: 200, write: 403 });
    expect(await aliceCan(userOf('alice'))).toEqual({ read: 403, write: 403 });
    expect(await aliceCan(keyOf('bob'))).toEqual({ read: 403, write: 403 });
  });

  it('write implies read on the own keys; changes are audited as the holder', async () => {
    await grant('write', 'own');
    expect(await aliceCan(keyOf('alice'))).toEqual({ read: 200, write: 200 });
    const token = users.alice.token;
    expect((await api('PUT', `${keyOf('alice')}/budgets`, { token, body: BUDGETS })).status).toBe(200);
    expect((await api('DELETE', `${keyOf('alice')}/budgets`, { token })).status).toBe(204);
    expect((await api('PUT', `${keyOf('alice')}/rules`, { token, body: { rules: 'x' } })).status).toBe(422);
    expect(await aliceCan(keyOf('carol'))).toEqual({ read: 403, write: 403 });
    const [audit] = await h.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'limits.budgets.delete'), eq(auditLog.resourceId, users.alice.keyId)));
    expect(audit).toMatchObject({ userId: users.alice.id, userEmail: 'alice@scopes.example' });
  });
});

describe('scope team', () => {
  it('read covers the members and the keys they own, nobody else', async () => {
    await grant('read', 'team', blueTeam);
    expect(await aliceCan(keyOf('bob'))).toEqual({ read: 200, write: 403 });
    expect(await aliceCan(userOf('bob'))).toEqual({ read: 200, write: 403 });
    expect((await api('GET', `${userOf('bob')}/budgets`, { token: users.alice.token })).status).toBe(200);
    expect(await aliceCan(keyOf('carol'))).toEqual({ read: 403, write: 403 });
    expect(await aliceCan(userOf('carol'))).toEqual({ read: 403, write: 403 });
    // The holder is not a member of blue, so even her own key is outside this scope.
    expect(await aliceCan(keyOf('alice'))).toEqual({ read: 403, write: 403 });
  });

  it('write covers changes to members and their keys', async () => {
    await grant('write', 'team', blueTeam);
    expect(await aliceCan(keyOf('bob'))).toEqual({ read: 200, write: 200 });
    expect(await aliceCan(userOf('bob'))).toEqual({ read: 200, write: 200 });
    const token = users.alice.token;
    expect((await api('PUT', `${userOf('bob')}/budgets`, { token, body: BUDGETS })).status).toBe(200);
    expect((await api('DELETE', `${keyOf('bob')}/rules`, { token })).status).toBe(204);
    expect(await aliceCan(userOf('carol'))).toEqual({ read: 403, write: 403 });
  });

  it('follows membership as it is now', async () => {
    await grant('write', 'team', blueTeam);
    await asAdmin('PUT', `/api/admin/teams/${blueTeam}/members`, {
      user_ids: [users.bob.id, users.carol.id],
    });
    expect(await aliceCan(keyOf('carol'))).toEqual({ read: 200, write: 200 });
    await asAdmin('PUT', `/api/admin/teams/${blueTeam}/members`, { user_ids: [users.bob.id] });
    expect(await aliceCan(keyOf('carol'))).toEqual({ read: 403, write: 403 });
  });
});

describe('scope global', () => {
  it('read covers every key and user; write is still refused', async () => {
    await grant('read', 'global');
    for (const subject of [keyOf('carol'), userOf('carol'), userOf('alice'), keyOf('bob')])
      expect(await aliceCan(subject), subject).toEqual({ read: 200, write: 403 });
  });

  it('write covers changing any key or user', async () => {
    await grant('write', 'global');
    for (const subject of [keyOf('carol'), userOf('carol'), userOf('alice')])
      expect(await aliceCan(subject), subject).toEqual({ read: 200, write: 200 });
    const body = (await api('GET', `${userOf('carol')}/rules`, { token: users.alice.token })).body;
    expect(body).toEqual({ subject_type: 'user', subject_id: users.carol.id, ...RULES });
  });

  it('stops at once when revoked', async () => {
    await grant('write', 'global');
    expect((await aliceCan(keyOf('carol'))).read).toBe(200);
    const [held] = (await asAdmin('GET', `/api/admin/permissions?user_id=${users.alice.id}`)).body;
    await asAdmin('DELETE', `/api/admin/permissions/${held.id}`);
    expect(await aliceCan(keyOf('carol'))).toEqual({ read: 403, write: 403 });
  });
});

describe('grants do not open admin endpoints', () => {
  it('a global writer still gets 403 on roles, teams, permissions and user roles', async () => {
    await grant('write', 'global');
    const token = users.alice.token;
    expect((await api('GET', '/api/admin/roles', { token })).status).toBe(403);
    expect((await api('GET', '/api/admin/teams', { token })).status).toBe(403);
    expect((await api('GET', '/api/admin/permissions', { token })).status).toBe(403);
    expect((await api('GET', `/api/admin/limits/user/${users.bob.id}/roles`, { token })).status).toBe(403);
  });

  it('answered every call as the OpenAPI document says', () => {
    expect(checked.problems).toEqual([]);
  });
});
