// MCP tool limits in the console (docs/mcp.md, Tool limits and budgets): /api/admin/limits/
// {api_key|user|role}/{id}/tool-limits creates, lists and deletes them, audited and moving the
// limits version; bad patterns, kinds, windows and numbers are 422 in the console's envelope;
// a key's or user's follow the rate_limits grants, a role's are the admins'; the overview lists
// every subject's with its name; deleting a role takes its tool limits with it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolLimits } from '../../shared/src/db/schema';
import { type CheckedApi, type CheckedCallOptions, checkedApi, signUp } from '../helpers/checked-api';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { auditOf, cacheVersion } from '../helpers/console-changes';
import { appEnv, freshDatabase } from '../helpers/stores';

const IP = '198.51.100.64';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const admin = { email: 'root@tool-limits.example', display_name: 'Root', password: 'root-password-1' };
const member = { email: 'member@tool-limits.example', display_name: 'Member', password: 'member-password-1' };

let h: ConsoleHarness;
let checked: CheckedApi;
let adminToken: string;
let memberToken: string;
let memberId: string;
let keyId: string;
let roleId: string;

const api = (method: string, path: string, options?: CheckedCallOptions) =>
  checked.call(method, path, options);

const asAdmin = (method: string, path: string, body?: unknown) =>
  api(method, path, { token: adminToken, body });
const asMember = (method: string, path: string, body?: unknown) =>
  api(method, path, { token: memberToken, body });

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_console_tool_limits')));
  checked = await checkedApi(h, { ip: IP });
  adminToken = (await api('POST', '/api/setup/initialize', { body: { admin } })).body.access_token;
  ({ id: memberId, token: memberToken } = await signUp(checked, member));
  keyId = (await asMember('POST', '/api/keys', { name: 'agent' })).body.id;
  roleId = (await asAdmin('POST', '/api/admin/roles', { name: 'agents' })).body.id;
});
afterAll(() => h.close());

describe('tool limits of a subject (admin)', () => {
  it('creates a rate and a budget, lists them in order, deletes one; audited, version moved', async () => {
    const path = `/api/admin/limits/api_key/${keyId}/tool-limits`;
    const before = await cacheVersion(h, 'limits');
    const budget = await asAdmin('POST', path, {
      tool: 'github__*',
      kind: 'budget',
      period: 'daily',
      limit: 500,
    });
    expect(budget.status, JSON.stringify(budget.body)).toBe(201);
    expect(budget.body).toMatchObject({
      subject_type: 'api_key',
      subject_id: keyId,
      tool: 'github__*',
      kind: 'budget',
      window: null,
      period: 'daily',
      limit: 500,
    });
    const rate = await asAdmin('POST', path, { tool: 'github__*', kind: 'rate', window: '1m', limit: 10 });
    expect(rate.status).toBe(201);
    const any = await asAdmin('POST', path, { tool: '*', kind: 'rate', window: '1h', limit: 0 });
    expect(any.status).toBe(201);
    expect(await cacheVersion(h, 'limits')).toBeGreaterThanOrEqual(before + 3);

    const listed = await asAdmin('GET', path);
    expect(listed.status).toBe(200);
    expect(listed.body.subject_type).toBe('api_key');
    expect(
      listed.body.tool_limits.map((l: { tool: string; window: string; period: string }) => [
        l.tool,
        l.window ?? l.period,
      ]),
    ).toEqual([
      ['*', '1h'],
      ['github__*', '1m'],
      ['github__*', 'daily'],
    ]);

    const removed = await cacheVersion(h, 'limits');
    expect((await asAdmin('DELETE', `${path}/${rate.body.id}`)).status).toBe(204);
    expect((await asAdmin('DELETE', `${path}/${rate.body.id}`)).status).toBe(404);
    expect(await cacheVersion(h, 'limits')).toBeGreaterThanOrEqual(removed + 1);
    expect((await asAdmin('GET', path)).body.tool_limits).toHaveLength(2);

    const created = await auditOf(h, 'limits.tool_limit.create', keyId);
    expect(created.map((r) => r.details)).toContainEqual({
      tool_limit_id: budget.body.id,
      tool: 'github__*',
      kind: 'budget',
      period: 'daily',
      limit: 500,
    });
    expect(created[0]).toMatchObject({ resourceType: 'api_key', userEmail: admin.email });
    const deleted = await auditOf(h, 'limits.tool_limit.delete', keyId);
    expect(deleted.map((r) => r.details)).toEqual([
      { tool_limit_id: rate.body.id, tool: 'github__*', kind: 'rate', window: '1m', limit: 10 },
    ]);
  });

  it('refuses a second limit of the same tool, kind and window (409); another window is another limit', async () => {
    const path = `/api/admin/limits/user/${memberId}/tool-limits`;
    const body = { tool: 'docs__search', kind: 'rate', window: '5m', limit: 3 };
    expect((await asAdmin('POST', path, body)).status).toBe(201);
    const again = await asAdmin('POST', path, { ...body, limit: 4 });
    expect(again.status).toBe(409);
    expect(again.body.error.type).toBe('conflict_error');
    expect((await asAdmin('POST', path, { ...body, window: '1h' })).status).toBe(201);
    expect(
      (await asAdmin('POST', path, { ...body, kind: 'budget', window: undefined, period: 'weekly' })).status,
    ).toBe(201);
  });

  it.each([
    ['an unknown pattern syntax', { tool: 'github', kind: 'rate', window: '1m', limit: 1 }, 'tool'],
    ['a wildcard inside a name', { tool: 'git*__search', kind: 'rate', window: '1m', limit: 1 }, 'tool'],
    ['an uppercase server', { tool: 'GitHub__*', kind: 'rate', window: '1m', limit: 1 }, 'tool'],
    ['a negative limit', { tool: '*', kind: 'rate', window: '1m', limit: -1 }, 'limit'],
    ['a fractional limit', { tool: '*', kind: 'budget', period: 'daily', limit: 1.5 }, 'limit'],
    ['a limit past 1e12', { tool: '*', kind: 'budget', period: 'daily', limit: 1e13 }, 'limit'],
    ['a string limit', { tool: '*', kind: 'rate', window: '1m', limit: '5' }, 'limit'],
    ['an unknown kind', { tool: '*', kind: 'tokens', window: '1m', limit: 5 }, 'kind'],
    ['an unknown window', { tool: '*', kind: 'rate', window: '2m', limit: 5 }, 'window'],
    ['a period on a rate', { tool: '*', kind: 'rate', period: 'daily', limit: 5 }, 'window'],
    ['a window on a budget', { tool: '*', kind: 'budget', window: '1m', limit: 5 }, 'period'],
    ['an unknown field', { tool: '*', kind: 'rate', window: '1m', limit: 5, scope: 'x' }, 'scope'],
  ])('422 for %s, naming the field', async (_, body, field) => {
    const res = await asAdmin('POST', `/api/admin/limits/role/${roleId}/tool-limits`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error.type).toBe('validation_error');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('400 for a body that is not JSON', async () => {
    const res = await h.call('POST', `/api/admin/limits/role/${roleId}/tool-limits`, {
      token: adminToken,
      ip: IP,
      raw: '{"tool": ',
    });
    expect(res.status).toBe(400);
  });

  it('404 for an unknown subject, subject type or id, before the body is read', async () => {
    const body = { tool: '*', kind: 'rate', window: '1m', limit: 1 };
    for (const path of [
      `/api/admin/limits/role/${UNKNOWN_ID}/tool-limits`,
      `/api/admin/limits/user/${UNKNOWN_ID}/tool-limits`,
      `/api/admin/limits/api_key/${UNKNOWN_ID}/tool-limits`,
      `/api/admin/limits/team/${roleId}/tool-limits`,
      `/api/admin/limits/role/not-a-uuid/tool-limits`,
    ]) {
      expect((await asAdmin('POST', path, { ...body, limit: -1 })).status, path).toBe(404);
      expect((await asAdmin('GET', path)).status, path).toBe(404);
    }
    const role = `/api/admin/limits/role/${roleId}/tool-limits`;
    expect((await asAdmin('DELETE', `${role}/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await asAdmin('DELETE', `${role}/not-a-uuid`)).status).toBe(404);
  });
});

describe('who may read and change tool limits', () => {
  it('401 without a JWT; a role’s are the admins’ (403 for others)', async () => {
    const role = `/api/admin/limits/role/${roleId}/tool-limits`;
    expect((await api('GET', role)).status).toBe(401);
    expect((await asMember('GET', role)).status).toBe(403);
    expect((await asMember('POST', role, { tool: '*', kind: 'rate', window: '1m', limit: 1 })).status).toBe(
      403,
    );
    expect((await asMember('GET', '/api/admin/limits/tool-limits')).status).toBe(403);
  });

  it('a key’s follow the rate_limits grants: own read, then write', async () => {
    const path = `/api/admin/limits/api_key/${keyId}/tool-limits`;
    const body = { tool: 'mine__*', kind: 'rate', window: '1m', limit: 2 };
    expect((await asMember('GET', path)).status).toBe(403);
    const read = await asAdmin('POST', '/api/admin/permissions', {
      user_id: memberId,
      permission: 'rate_limits:read',
      scope_type: 'own',
    });
    expect(read.status).toBe(201);
    expect((await asMember('GET', path)).status).toBe(200);
    expect((await asMember('POST', path, body)).status).toBe(403);
    await asAdmin('POST', '/api/admin/permissions', {
      user_id: memberId,
      permission: 'rate_limits:write',
      scope_type: 'own',
    });
    const created = await asMember('POST', path, body);
    expect(created.status).toBe(201);
    expect((await auditOf(h, 'limits.tool_limit.create', keyId)).map((r) => r.userEmail)).toContain(
      member.email,
    );
    // An own grant covers keys only, never a user (not even the holder).
    expect((await asMember('GET', `/api/admin/limits/user/${memberId}/tool-limits`)).status).toBe(403);
    expect((await asMember('DELETE', `${path}/${created.body.id}`)).status).toBe(204);
  });
});

describe('the overview and a role’s deletion', () => {
  it('lists every tool limit with its subject’s name; deleting the role removes its own', async () => {
    const role = (await asAdmin('POST', '/api/admin/roles', { name: 'short-lived' })).body.id as string;
    const path = `/api/admin/limits/role/${role}/tool-limits`;
    expect(
      (await asAdmin('POST', path, { tool: 'everything__*', kind: 'rate', window: '1d', limit: 9 })).status,
    ).toBe(201);
    const all = await asAdmin('GET', '/api/admin/limits/tool-limits');
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    expect(Number(all.headers.get('x-total-count'))).toBe(all.body.length);
    const names = all.body.map((l: { subject_type: string; subject_name: string; tool: string }) => [
      l.subject_type,
      l.subject_name,
      l.tool,
    ]);
    expect(names).toContainEqual(['role', 'short-lived', 'everything__*']);
    expect(names).toContainEqual(['user', member.email, 'docs__search']);
    expect(names).toContainEqual(['api_key', 'agent', 'github__*']);
    // Roles first, then users, then keys.
    const types = all.body.map((l: { subject_type: string }) => l.subject_type);
    expect(types).toEqual(
      [...types].sort(
        (a: string, b: string) =>
          ['role', 'user', 'api_key'].indexOf(a) - ['role', 'user', 'api_key'].indexOf(b),
      ),
    );

    expect((await asAdmin('DELETE', `/api/admin/roles/${role}`)).status).toBe(204);
    const left = await h.deps.db.select().from(toolLimits).where(eq(toolLimits.subjectId, role));
    expect(left).toEqual([]);
    const [audit] = await auditOf(h, 'role.delete', role);
    expect(audit?.details).toMatchObject({ name: 'short-lived', tool_limits_removed: 1 });
  });
});

describe('after all', () => {
  it('answered every call as the OpenAPI document says, covering every tool limits operation', () => {
    expect(checked.problems).toEqual([]);
    const mine = checked.conformance.operations().filter((op) => op.includes('/tool-limits'));
    expect(mine).toHaveLength(4);
    expect(mine.filter((op) => !checked.conformance.exercisedOperations().includes(op))).toEqual([]);
  });
});
