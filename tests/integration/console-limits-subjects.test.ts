// The limits of an API key or a user (docs/limits.md, Limits of an API key or a user): a key's
// own rules and budgets, a user's overrides, and the rules' kinds, windows and periods. Admin
// callers here; scopes of non-admins are in console-limits-scopes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSubjectRules, replaceSubjectRules } from '../../shared/src/limits-admin/subject-limits';
import { type CheckedApi, type CheckedCallOptions, checkedApi, signUp } from '../helpers/checked-api';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { auditOf, cacheVersion } from '../helpers/console-changes';
import { appEnv, freshDatabase } from '../helpers/stores';

const IP = '198.51.100.62';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const admin = { email: 'root@subjects.example', display_name: 'Root', password: 'root-password-1' };
const member = { email: 'member@subjects.example', display_name: 'Member', password: 'member-password-1' };

let h: ConsoleHarness;
let checked: CheckedApi;
let adminToken: string;
let memberToken: string;
let memberId: string;
let keyId: string;
let teamId: string;

/** A body given to a GET is dropped, so one table of calls can cover every method. */
const api = (method: string, path: string, options: CheckedCallOptions = {}) =>
  checked.call(method, path, { ...options, body: method === 'GET' ? undefined : options.body });

const asAdmin = (method: string, path: string, body?: unknown) =>
  api(method, path, { token: adminToken, body });

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_limits_subjects')));
  checked = await checkedApi(h, { ip: IP });
  adminToken = (await api('POST', '/api/setup/initialize', { body: { admin } })).body.access_token;
  ({ id: memberId, token: memberToken } = await signUp(checked, member));
  keyId = (await api('POST', '/api/keys', { token: memberToken, body: { name: 'k' } })).body.id;
  teamId = (await asAdmin('POST', '/api/admin/teams', { name: 'ops' })).body.id;
});
afterAll(() => h.close());

describe.each(['rules', 'budgets'] as const)('limits %s: authentication and subjects', (list) => {
  const body = { [list]: [] };

  it.each(['GET', 'PUT', 'DELETE'])('%s: 401 without or with an invalid JWT', async (method) => {
    const path = `/api/admin/limits/api_key/${UNKNOWN_ID}/${list}`;
    expect((await api(method, path, { body })).status).toBe(401);
    expect((await api(method, path, { body, token: 'not-a-jwt' })).status).toBe(401);
  });

  it.each(['GET', 'PUT', 'DELETE'])('%s: 404 for an unknown subject, id or subject type', async (method) => {
    for (const path of [
      `/api/admin/limits/api_key/${UNKNOWN_ID}/${list}`,
      `/api/admin/limits/user/${UNKNOWN_ID}/${list}`,
      `/api/admin/limits/api_key/not-a-uuid/${list}`,
      `/api/admin/limits/role/${UNKNOWN_ID}/${list}`,
    ]) {
      expect((await asAdmin(method, path, body)).status, path).toBe(404);
      // 404 before 403: a caller without any grant learns the same.
      expect((await api(method, path, { body, token: memberToken })).status, path).toBe(404);
    }
  });
});

describe('limits of an API key (admin)', () => {
  const rules = [
    { kind: 'tokens', window: '5h', limit: 50_000 },
    { kind: 'requests', window: '1m', limit: 10 },
  ];

  it('starts empty, replaces the rule list, audits and bumps the limits version', async () => {
    const path = `/api/admin/limits/api_key/${keyId}/rules`;
    expect((await asAdmin('GET', path)).body).toEqual({
      subject_type: 'api_key',
      subject_id: keyId,
      rules: [],
    });
    const before = await cacheVersion(h, 'limits');
    const res = await asAdmin('PUT', path, { rules });
    expect(res.status).toBe(200);
    expect(res.body.rules).toEqual([rules[1], rules[0]]);
    expect((await asAdmin('GET', path)).body.rules).toEqual([rules[1], rules[0]]);
    expect(await cacheVersion(h, 'limits')).toBeGreaterThanOrEqual(before + 1);
    const [audit] = await auditOf(h, 'limits.rules.update', keyId);
    expect(audit).toMatchObject({ userEmail: admin.email, resourceType: 'api_key', details: { rules } });
  });

  it('replaces, not merges: a second PUT leaves only its rules', async () => {
    const path = `/api/admin/limits/api_key/${keyId}/rules`;
    const res = await asAdmin('PUT', path, { rules: [{ kind: 'requests', window: '1w', limit: 0 }] });
    expect(res.body.rules).toEqual([{ kind: 'requests', window: '1w', limit: 0 }]);
  });

  it('replaces budgets and deletes both lists', async () => {
    const path = `/api/admin/limits/api_key/${keyId}/budgets`;
    const budgets = [
      { period: 'monthly', limit_tokens: 9_000_000 },
      { period: 'daily', limit_tokens: 300_000 },
    ];
    const res = await asAdmin('PUT', path, { budgets });
    expect(res.body).toEqual({
      subject_type: 'api_key',
      subject_id: keyId,
      budgets: [budgets[1], budgets[0]],
    });
    const before = await cacheVersion(h, 'limits');
    expect((await asAdmin('DELETE', path)).status).toBe(204);
    expect((await asAdmin('DELETE', `/api/admin/limits/api_key/${keyId}/rules`)).status).toBe(204);
    expect((await asAdmin('GET', path)).body.budgets).toEqual([]);
    expect((await asAdmin('GET', `/api/admin/limits/api_key/${keyId}/rules`)).body.rules).toEqual([]);
    expect(await cacheVersion(h, 'limits')).toBeGreaterThanOrEqual(before + 2);
    expect((await auditOf(h, 'limits.budgets.update', keyId))[0]?.details).toEqual({ budgets });
    expect((await auditOf(h, 'limits.budgets.delete', keyId))[0]?.details).toEqual({ removed: 2 });
    expect((await auditOf(h, 'limits.rules.delete', keyId))[0]?.details).toEqual({ removed: 1 });
  });

  it.each([
    [
      'a repeated kind and window',
      {
        rules: [
          { kind: 'requests', window: '1m', limit: 1 },
          { kind: 'requests', window: '1m', limit: 2 },
        ],
      },
      'rules',
    ],
    ['a negative limit', { rules: [{ kind: 'requests', window: '1m', limit: -5 }] }, 'rules'],
    ['a limit above 1e12', { rules: [{ kind: 'tokens', window: '1d', limit: 2e12 }] }, 'rules'],
    ['an unknown kind', { rules: [{ kind: 'cost', window: '1d', limit: 1 }] }, 'rules'],
    ['a missing list', {}, 'rules'],
    [
      'a repeated period',
      {
        budgets: [
          { period: 'weekly', limit_tokens: 1 },
          { period: 'weekly', limit_tokens: 2 },
        ],
      },
      'budgets',
    ],
    ['an unknown period', { budgets: [{ period: 'hourly', limit_tokens: 1 }] }, 'budgets'],
  ])('refuses %s with 422', async (_label, body, list) => {
    const res = await asAdmin('PUT', `/api/admin/limits/api_key/${keyId}/${list}`, body);
    expect(res.status).toBe(422);
    expect(res.body.error.details.length).toBeGreaterThan(0);
  });
});

describe("a user's overrides (admin)", () => {
  it('are kept apart from the same id as another subject', async () => {
    const path = `/api/admin/limits/user/${memberId}/rules`;
    const res = await asAdmin('PUT', path, { rules: [{ kind: 'requests', window: '1h', limit: 100 }] });
    expect(res.body).toMatchObject({ subject_type: 'user', subject_id: memberId });
    expect((await asAdmin('GET', `/api/admin/limits/user/${memberId}/budgets`)).body.budgets).toEqual([]);
    const [audit] = await auditOf(h, 'limits.rules.update', memberId);
    expect(audit).toMatchObject({ resourceType: 'user' });
  });
});

describe('permission grants (admin)', () => {
  let grantId: string;

  it.each([
    ['GET', '/api/admin/permissions'],
    ['POST', '/api/admin/permissions'],
    ['DELETE', `/api/admin/permissions/${UNKNOWN_ID}`],
  ])('%s %s: 401 without a JWT, 403 for a non-admin', async (method, path) => {
    const body = { user_id: memberId, permission: 'rate_limits:read', scope_type: 'global' };
    expect((await api(method, path, { body })).status).toBe(401);
    expect((await api(method, path, { body, token: memberToken })).status).toBe(403);
  });

  it('grants in a team scope, lists (filtered by holder) and audits', async () => {
    const body = { user_id: memberId, permission: 'rate_limits:write', scope_type: 'team', scope_id: teamId };
    const res = await asAdmin('POST', '/api/admin/permissions', body);
    expect(res.status).toBe(201);
    grantId = res.body.id;
    expect(res.body).toMatchObject(body);
    await asAdmin('POST', '/api/admin/permissions', {
      user_id: memberId,
      permission: 'rate_limits:read',
      scope_type: 'own',
    });
    const mine = await asAdmin('GET', `/api/admin/permissions?user_id=${memberId}`);
    expect(mine.body.map((g: { scope_type: string }) => g.scope_type)).toEqual(['team', 'own']);
    expect(mine.body[1]).toMatchObject({ scope_id: null });
    const unknown = await asAdmin('GET', `/api/admin/permissions?user_id=${UNKNOWN_ID}`);
    expect(unknown.body).toEqual([]);
    expect(unknown.headers.get('x-total-count')).toBe('0');
    expect((await asAdmin('GET', '/api/admin/permissions')).headers.get('x-total-count')).toBe('2');
    expect((await asAdmin('GET', '/api/admin/permissions?limit=1&offset=1')).body).toEqual([mine.body[1]]);
    expect((await asAdmin('GET', '/api/admin/permissions?user_id=nope')).status).toBe(422);
    const [audit] = await auditOf(h, 'permission.grant', grantId);
    expect(audit).toMatchObject({ resourceType: 'permission_grant', details: { scope_id: teamId } });
  });

  it('refuses the same grant twice with 409', async () => {
    const body = { user_id: memberId, permission: 'rate_limits:write', scope_type: 'team', scope_id: teamId };
    expect((await asAdmin('POST', '/api/admin/permissions', body)).status).toBe(409);
  });

  it.each([
    ['team scope without scope_id', { scope_type: 'team' }, 'scope_id'],
    ['scope_id on a global grant', { scope_type: 'global', scope_id: UNKNOWN_ID }, 'scope_id'],
    ['an unknown team', { scope_type: 'team', scope_id: UNKNOWN_ID }, 'scope_id'],
    ['an unknown user', { scope_type: 'global', user_id: UNKNOWN_ID }, 'user_id'],
    ['an unknown permission', { scope_type: 'global', permission: 'rate_limits:admin' }, 'permission'],
    ['an unknown scope', { scope_type: 'org' }, 'scope_type'],
  ])('refuses %s with 422 naming the field', async (_label, fields, path) => {
    const body = { user_id: memberId, permission: 'rate_limits:read', ...fields };
    const res = await asAdmin('POST', '/api/admin/permissions', body);
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([expect.objectContaining({ path })]);
  });

  it('revokes a grant (404 the second time) and audits it', async () => {
    expect((await asAdmin('DELETE', `/api/admin/permissions/${grantId}`)).status).toBe(204);
    expect((await asAdmin('DELETE', `/api/admin/permissions/${grantId}`)).status).toBe(404);
    expect((await asAdmin('DELETE', '/api/admin/permissions/not-a-uuid')).status).toBe(404);
    expect(await auditOf(h, 'permission.revoke', grantId)).toHaveLength(1);
  });

  it('goes with its team when the team is deleted', async () => {
    const team = (await asAdmin('POST', '/api/admin/teams', { name: 'short-lived' })).body.id;
    const body = { user_id: memberId, permission: 'rate_limits:read', scope_type: 'team', scope_id: team };
    const grant = (await asAdmin('POST', '/api/admin/permissions', body)).body.id;
    expect((await asAdmin('DELETE', `/api/admin/teams/${team}`)).status).toBe(204);
    const left = (await asAdmin('GET', `/api/admin/permissions?user_id=${memberId}`)).body;
    expect(left.map((g: { id: string }) => g.id)).not.toContain(grant);
    expect((await auditOf(h, 'team.delete', team))[0]?.details).toMatchObject({ grants_removed: 1 });
  });
});

describe('after commit', () => {
  it('a failed version bump is logged, not returned: the change stands', async () => {
    const warnings: string[] = [];
    const logger = { warn: (message: string) => warnings.push(message) };
    const redis = { incr: () => Promise.reject(new Error('redis down')) };
    const subject = { type: 'api_key' as const, id: keyId };
    const rules = [{ kind: 'requests' as const, window: '1d' as const, limit: 7 }];
    const view = await replaceSubjectRules(
      { db: h.deps.db, redis, logger },
      subject,
      { rules },
      { userId: null },
    );
    expect(view.rules).toEqual(rules);
    expect((await getSubjectRules(h.deps.db, subject)).rules).toEqual(rules);
    expect(warnings).toEqual([expect.stringContaining('version bump failed')]);
  });

  it('answered every call as the OpenAPI document says, covering every limits and permissions operation', () => {
    expect(checked.problems).toEqual([]);
    const mine = checked.conformance.operations().filter(
      (op) =>
        /\/api\/admin\/(permissions|limits\/\{subject\})/.test(op) &&
        !op.endsWith('/usage') &&
        // Tool limits have a suite of their own (console-tool-limits).
        !op.includes('/tool-limits'),
    );
    expect(mine).toHaveLength(9);
    expect(mine.filter((op) => !checked.conformance.exercisedOperations().includes(op))).toEqual([]);
  });
});
