// Roles and teams (docs/limits.md, Roles and teams): global and team-attached roles grant limits;
// roles, teams and a user's extra roles; the rules' kinds, windows and periods; admin JWT only
// (403 for other roles). Also: audit in the same transaction, limits version bump for gateways.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckedApi, type CheckedCallOptions, checkedApi, signUp } from '../helpers/checked-api';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { auditOf, cacheVersion } from '../helpers/console-changes';
import { appEnv, freshDatabase } from '../helpers/stores';

const IP = '198.51.100.61';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const admin = { email: 'root@limits.example', display_name: 'Root', password: 'root-password-1' };
const member = { email: 'member@limits.example', display_name: 'Member', password: 'member-password-1' };

let h: ConsoleHarness;
let checked: CheckedApi;
let adminToken: string;
let memberToken: string;
let memberId: string;
let roleId: string;
let teamId: string;

const api = (method: string, path: string, options?: CheckedCallOptions) =>
  checked.call(method, path, options);

const asAdmin = (method: string, path: string, body?: unknown) =>
  api(method, path, { token: adminToken, body });

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_limits_roles')));
  checked = await checkedApi(h, { ip: IP });
  adminToken = (await api('POST', '/api/setup/initialize', { body: { admin } })).body.access_token;
  ({ id: memberId, token: memberToken } = await signUp(checked, member));
});
afterAll(() => h.close());

describe('roles, teams and user roles: authentication and authorisation', () => {
  const calls: Array<[string, string, unknown?]> = [
    ['GET', '/api/admin/roles'],
    ['POST', '/api/admin/roles', { name: 'x' }],
    ['GET', `/api/admin/roles/${UNKNOWN_ID}`],
    ['PATCH', `/api/admin/roles/${UNKNOWN_ID}`, { description: 'x' }],
    ['DELETE', `/api/admin/roles/${UNKNOWN_ID}`],
    ['GET', '/api/admin/teams'],
    ['POST', '/api/admin/teams', { name: 'x' }],
    ['GET', `/api/admin/teams/${UNKNOWN_ID}`],
    ['PATCH', `/api/admin/teams/${UNKNOWN_ID}`, { description: 'x' }],
    ['DELETE', `/api/admin/teams/${UNKNOWN_ID}`],
    ['PUT', `/api/admin/teams/${UNKNOWN_ID}/members`, { user_ids: [] }],
    ['PUT', `/api/admin/teams/${UNKNOWN_ID}/roles`, { role_ids: [] }],
    ['GET', `/api/admin/limits/user/${UNKNOWN_ID}/roles`],
    ['PUT', `/api/admin/limits/user/${UNKNOWN_ID}/roles`, { role_ids: [] }],
  ];

  it.each(calls)('%s %s: 401 without or with an invalid JWT', async (method, path, body) => {
    expect((await api(method, path, { body })).status).toBe(401);
    expect((await api(method, path, { body, token: 'not-a-jwt' })).status).toBe(401);
  });

  it.each(calls)('%s %s: 403 for a non-admin', async (method, path, body) => {
    expect((await api(method, path, { body, token: memberToken })).status).toBe(403);
  });
});

describe('roles', () => {
  it('creates a role with rules and budgets, audits it and bumps the limits version', async () => {
    const before = await cacheVersion(h, 'limits');
    const res = await asAdmin('POST', '/api/admin/roles', {
      name: 'user',
      description: 'Everyone with the user role',
      rules: [
        { kind: 'tokens', window: '1d', limit: 1_000_000 },
        { kind: 'requests', window: '1h', limit: 600 },
        { kind: 'requests', window: '1m', limit: 0 },
      ],
      budgets: [{ period: 'monthly', limit_tokens: 1e12 }],
    });
    expect(res.status).toBe(201);
    roleId = res.body.id;
    // Rules come back requests first, shortest window first.
    expect(res.body).toMatchObject({
      name: 'user',
      description: 'Everyone with the user role',
      rules: [
        { kind: 'requests', window: '1m', limit: 0 },
        { kind: 'requests', window: '1h', limit: 600 },
        { kind: 'tokens', window: '1d', limit: 1_000_000 },
      ],
      budgets: [{ period: 'monthly', limit_tokens: 1e12 }],
    });
    expect(await cacheVersion(h, 'limits')).toBeGreaterThanOrEqual(before + 1);
    const [audit] = await auditOf(h, 'role.create', roleId);
    expect(audit).toMatchObject({ userEmail: admin.email, details: { name: 'user' } });
  });

  it('lists by name and reads one; unknown or malformed ids are 404', async () => {
    await asAdmin('POST', '/api/admin/roles', { name: 'gold' });
    const list = await asAdmin('GET', '/api/admin/roles');
    expect(list.headers.get('x-total-count')).toBe('2');
    expect(list.body.map((r: { name: string }) => r.name)).toEqual(['gold', 'user']);
    expect(list.body[0]).toMatchObject({ description: null, rules: [], budgets: [] });
    expect((await asAdmin('GET', `/api/admin/roles/${roleId}`)).body.id).toBe(roleId);
    expect((await asAdmin('GET', `/api/admin/roles/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await asAdmin('GET', '/api/admin/roles/not-a-uuid')).status).toBe(404);
  });

  it('refuses a duplicate name with 409, on create and on rename', async () => {
    expect((await asAdmin('POST', '/api/admin/roles', { name: 'gold' })).status).toBe(409);
    expect((await asAdmin('PATCH', `/api/admin/roles/${roleId}`, { name: 'gold' })).status).toBe(409);
  });

  it.each([
    ['a name that is not a slug', { name: 'Gold Tier' }],
    ['an unknown window', { name: 'r1', rules: [{ kind: 'requests', window: '2m', limit: 1 }] }],
    ['a negative limit', { name: 'r1', rules: [{ kind: 'requests', window: '1m', limit: -1 }] }],
    ['a fractional limit', { name: 'r1', rules: [{ kind: 'tokens', window: '1m', limit: 1.5 }] }],
    ['a limit above 1e12', { name: 'r1', budgets: [{ period: 'daily', limit_tokens: 1e12 + 1 }] }],
    ['an unknown field', { name: 'r1', colour: 'gold' }],
  ])('refuses %s with 422', async (_label, body) => {
    expect((await asAdmin('POST', '/api/admin/roles', body)).status).toBe(422);
  });

  it('refuses a repeated kind and window (or period) with 422 naming the entry', async () => {
    const rule = { kind: 'requests', window: '1m', limit: 5 };
    const res = await asAdmin('POST', '/api/admin/roles', {
      name: 'r2',
      rules: [rule, { ...rule, limit: 9 }],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([expect.objectContaining({ path: 'rules.1' })]);
    const budget = { period: 'daily', limit_tokens: 1 };
    expect((await asAdmin('PATCH', `/api/admin/roles/${roleId}`, { budgets: [budget, budget] })).status).toBe(
      422,
    );
  });

  it('patches fields; rules and budgets given replace the whole list, others stay', async () => {
    const before = await cacheVersion(h, 'limits');
    const res = await asAdmin('PATCH', `/api/admin/roles/${roleId}`, {
      description: null,
      rules: [{ kind: 'tokens', window: '1w', limit: 5 }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'user',
      description: null,
      rules: [{ kind: 'tokens', window: '1w', limit: 5 }],
      budgets: [{ period: 'monthly', limit_tokens: 1e12 }],
    });
    expect(await cacheVersion(h, 'limits')).toBeGreaterThanOrEqual(before + 1);
    const [audit] = await auditOf(h, 'role.update', roleId);
    expect(audit?.details).toMatchObject({ changes: ['description', 'rules'] });
    expect((await asAdmin('PATCH', `/api/admin/roles/${roleId}`, {})).status).toBe(422);
    expect((await asAdmin('PATCH', `/api/admin/roles/${UNKNOWN_ID}`, { description: 'x' })).status).toBe(404);
  });
});

describe('teams', () => {
  it('creates, renames and lists a team, with audit and version bumps', async () => {
    const before = await cacheVersion(h, 'limits');
    const res = await asAdmin('POST', '/api/admin/teams', { name: 'research', description: 'R&D' });
    expect(res.status).toBe(201);
    teamId = res.body.id;
    expect(res.body).toMatchObject({ name: 'research', description: 'R&D', member_ids: [], role_ids: [] });
    expect((await asAdmin('POST', '/api/admin/teams', { name: 'research' })).status).toBe(409);
    expect((await asAdmin('POST', '/api/admin/teams', { name: 'Research Team' })).status).toBe(422);
    const renamed = await asAdmin('PATCH', `/api/admin/teams/${teamId}`, { name: 'labs' });
    expect(renamed.body).toMatchObject({ name: 'labs', description: 'R&D' });
    expect((await asAdmin('GET', '/api/admin/teams')).body.map((t: { id: string }) => t.id)).toEqual([
      teamId,
    ]);
    expect(await cacheVersion(h, 'limits')).toBeGreaterThanOrEqual(before + 2);
    expect(await auditOf(h, 'team.create', teamId)).toHaveLength(1);
    const [update] = await auditOf(h, 'team.update', teamId);
    expect(update?.details).toMatchObject({ name: 'labs', renamed_from: 'research' });
  });

  it('replaces members and roles; repeats are dropped', async () => {
    const members = await asAdmin('PUT', `/api/admin/teams/${teamId}/members`, {
      user_ids: [memberId, memberId],
    });
    expect(members.status).toBe(200);
    expect(members.body.member_ids).toEqual([memberId]);
    const roles = await asAdmin('PUT', `/api/admin/teams/${teamId}/roles`, { role_ids: [roleId] });
    expect(roles.body).toMatchObject({ member_ids: [memberId], role_ids: [roleId] });
    expect((await asAdmin('GET', `/api/admin/teams/${teamId}`)).body.role_ids).toEqual([roleId]);
    const [audit] = await auditOf(h, 'team.members.update', teamId);
    expect(audit?.details).toMatchObject({ user_ids: [memberId] });
    expect(await auditOf(h, 'team.roles.update', teamId)).toHaveLength(1);
  });

  it('refuses unknown ids in bodies with 422 naming each entry, and leaves the lists as they were', async () => {
    const res = await asAdmin('PUT', `/api/admin/teams/${teamId}/members`, {
      user_ids: [memberId, UNKNOWN_ID],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ path: 'user_ids.1', message: 'user not found' }]);
    const roles = await asAdmin('PUT', `/api/admin/teams/${teamId}/roles`, { role_ids: [UNKNOWN_ID] });
    expect(roles.body.error.details).toEqual([{ path: 'role_ids.0', message: 'role not found' }]);
    expect((await asAdmin('PUT', `/api/admin/teams/${teamId}/roles`, { role_ids: ['nope'] })).status).toBe(
      422,
    );
    expect((await asAdmin('GET', `/api/admin/teams/${teamId}`)).body).toMatchObject({
      member_ids: [memberId],
      role_ids: [roleId],
    });
    expect((await asAdmin('PUT', `/api/admin/teams/${UNKNOWN_ID}/members`, { user_ids: [] })).status).toBe(
      404,
    );
  });
});

describe("a user's extra global roles", () => {
  it('reads and replaces them, with audit and a version bump', async () => {
    expect((await asAdmin('GET', `/api/admin/limits/user/${memberId}/roles`)).body).toEqual({
      user_id: memberId,
      role_ids: [],
    });
    const before = await cacheVersion(h, 'limits');
    const res = await asAdmin('PUT', `/api/admin/limits/user/${memberId}/roles`, { role_ids: [roleId] });
    expect(res.body).toEqual({ user_id: memberId, role_ids: [roleId] });
    expect(await cacheVersion(h, 'limits')).toBeGreaterThanOrEqual(before + 1);
    const [audit] = await auditOf(h, 'user.roles.update', memberId);
    expect(audit?.details).toMatchObject({ role_ids: [roleId] });
  });

  it('is 404 for an unknown user and 422 for an unknown role', async () => {
    expect((await asAdmin('GET', `/api/admin/limits/user/${UNKNOWN_ID}/roles`)).status).toBe(404);
    expect(
      (await asAdmin('PUT', `/api/admin/limits/user/${UNKNOWN_ID}/roles`, { role_ids: [] })).status,
    ).toBe(404);
    const res = await asAdmin('PUT', `/api/admin/limits/user/${memberId}/roles`, { role_ids: [UNKNOWN_ID] });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ path: 'role_ids.0', message: 'role not found' }]);
  });
});

describe('deleting', () => {
  it('a role detaches it from users and teams and removes its rules', async () => {
    const before = await cacheVersion(h, 'limits');
    expect((await asAdmin('DELETE', `/api/admin/roles/${roleId}`)).status).toBe(204);
    expect((await asAdmin('DELETE', `/api/admin/roles/${roleId}`)).status).toBe(404);
    expect((await asAdmin('GET', `/api/admin/teams/${teamId}`)).body.role_ids).toEqual([]);
    expect((await asAdmin('GET', `/api/admin/limits/user/${memberId}/roles`)).body.role_ids).toEqual([]);
    // A new role of the same name starts without the old rules.
    expect((await asAdmin('POST', '/api/admin/roles', { name: 'user' })).body.rules).toEqual([]);
    expect(await cacheVersion(h, 'limits')).toBeGreaterThanOrEqual(before + 2);
    const [audit] = await auditOf(h, 'role.delete', roleId);
    expect(audit?.details).toMatchObject({ name: 'user', rules_removed: 1, budgets_removed: 1 });
  });

  it('a team removes it with its memberships', async () => {
    expect((await asAdmin('DELETE', `/api/admin/teams/${teamId}`)).status).toBe(204);
    expect((await asAdmin('GET', `/api/admin/teams/${teamId}`)).status).toBe(404);
    expect((await asAdmin('DELETE', `/api/admin/teams/${teamId}`)).status).toBe(404);
    expect(await auditOf(h, 'team.delete', teamId)).toHaveLength(1);
  });

  it('answered every call as the OpenAPI document says, covering every roles and teams operation', () => {
    expect(checked.problems).toEqual([]);
    const mine = checked.conformance
      .operations()
      .filter((op) => /\/api\/admin\/(roles|teams)|\/api\/admin\/limits\/user\/\{id\}\/roles/.test(op));
    expect(mine).toHaveLength(14);
    expect(mine.filter((op) => !checked.conformance.exercisedOperations().includes(op))).toEqual([]);
  });
});
