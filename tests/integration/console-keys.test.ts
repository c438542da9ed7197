// The console's API key endpoints (docs/keys.md): the key resource, its states and transitions, the
// errors of /api/keys*, the expiry setting, and keys refused once revoked, expired, disabled by
// inactivity or past their rotation grace.
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEntry, keyCacheKey } from '../../shared/src/auth/api-keys/auth-cache';
import { authenticateGatewayRequest } from '../../shared/src/auth/gateway/authenticate';
import { apiKeys, auditLog, settings } from '../../shared/src/db/schema';
import {
  rotateDueKeys,
  runKeyJobs,
  sweepExpiredKeys,
  sweepInactiveKeys,
} from '../../shared/src/keys/lifecycle-jobs';
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

const DAY = 86_400_000;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const LIST_FIELDS = [
  'allowed_models',
  'created_at',
  'expires_at',
  'id',
  'inactivity_timeout_days',
  'last_used_at',
  'name',
  'prefix',
  'rate_limit_rpm',
  'rotation_interval_days',
  'status',
];

let h: ConsoleHarness;
let gw: GatewayHarness;
let checked: CheckedApi;
const users: Record<'alice' | 'bob', { token: string; id: string }> = {
  alice: { token: '', id: '' },
  bob: { token: '', id: '' },
};

const api = (method: string, path: string, options?: CheckedCallOptions) =>
  checked.call(method, path, options);

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const rowOf = async (id: string) => (await h.deps.db.select().from(apiKeys).where(eq(apiKeys.id, id)))[0]!;
const auditFor = (id: string, action: string) =>
  h.deps.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.resourceId, id), eq(auditLog.action, action)));

async function createKey(who: 'alice' | 'bob', body: Record<string, unknown> = {}): Promise<CheckedReply> {
  const res = await api('POST', '/api/keys', { token: users[who].token, body: { name: 'k', ...body } });
  expect(res.status, res.text).toBe(201);
  return res;
}

/** The gateway's authentication with a fake clock; background work is awaited. */
async function authenticateAt(key: string, now: Date) {
  const tasks: Promise<unknown>[] = [];
  const deps = { ...gw.deps.auth, now: () => now };
  const outcome = await authenticateGatewayRequest(deps, `Bearer ${key}`, { allowJwt: false }, (t) => {
    tasks.push(t);
  }).then(
    () => 'accepted',
    () => 'refused',
  );
  await Promise.all(tasks);
  return outcome;
}

beforeAll(async () => {
  const url = await freshDatabase('sluice_it_keys');
  h = await consoleHarness(appEnv(url));
  gw = gatewayHarness(appEnv(url));
  checked = await checkedApi(h);
  for (const name of ['alice', 'bob'] as const) {
    const credentials = { email: `${name}@keys.example`, password: `${name}-password-1` };
    const reg = await api('POST', '/api/auth/register', { body: { ...credentials, display_name: name } });
    users[name].id = reg.body.id;
    users[name].token = (
      await api('POST', '/api/auth/login', {
        body: { email: credentials.email, password: credentials.password },
      })
    ).body.access_token;
  }
});
afterAll(() => h.close());

describe('authentication', () => {
  it.each([
    ['GET', '/api/keys'],
    ['POST', '/api/keys'],
    ['GET', '/api/keys/expiring'],
    ['GET', `/api/keys/${UNKNOWN_ID}`],
    ['PATCH', `/api/keys/${UNKNOWN_ID}`],
    ['DELETE', `/api/keys/${UNKNOWN_ID}`],
    ['POST', `/api/keys/${UNKNOWN_ID}/rotate`],
  ])('%s %s needs a valid JWT (401)', async (method, path) => {
    const body = method === 'GET' ? undefined : { name: 'x' };
    expect((await api(method, path, { body })).status).toBe(401);
    const bad = await api(method, path, { token: 'not-a-jwt', body });
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ error: { type: 'authentication_error' } });
  });
});

describe('POST /api/keys', () => {
  it('creates a key with defaults: all models (null), unlimited, no expiry', async () => {
    const { body } = await createKey('alice', { name: 'defaults' });
    expect(Object.keys(body).sort()).toEqual([
      'allowed_models',
      'created_at',
      'expires_at',
      'id',
      'key',
      'name',
      'rate_limit_rpm',
    ]);
    expect(body).toMatchObject({
      name: 'defaults',
      allowed_models: null,
      rate_limit_rpm: null,
      expires_at: null,
    });
    expect(body.key).toMatch(/^sluice-[A-Za-z0-9_-]{43}$/);
    const row = await rowOf(body.id);
    expect(row).toMatchObject({
      keyHash: sha256(body.key),
      prefix: body.key.slice(0, 12),
      userId: users.alice.id,
    });
  });

  it('stores models, rate limit and expiry', async () => {
    const before = Date.now();
    const { body } = await createKey('alice', {
      allowed_models: ['gpt-a', 'gpt-b', 'gpt-a'],
      rate_limit_rpm: 30,
      expires_in_days: 30,
    });
    expect(body).toMatchObject({ allowed_models: ['gpt-a', 'gpt-b'], rate_limit_rpm: 30 });
    const expires = Date.parse(body.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 30 * DAY);
    expect(expires).toBeLessThan(Date.now() + 30 * DAY + 1000);
  });

  it.each([
    ['no name', {}],
    ['empty name', { name: '  ' }],
    ['negative rpm', { name: 'x', rate_limit_rpm: -1 }],
    ['zero rpm', { name: 'x', rate_limit_rpm: 0 }],
    ['non-integer rpm', { name: 'x', rate_limit_rpm: 1.5 }],
    ['string rpm', { name: 'x', rate_limit_rpm: '10' }],
    ['model of the wrong type', { name: 'x', allowed_models: [1] }],
    ['models not a list', { name: 'x', allowed_models: 'gpt-a' }],
    ['empty model list', { name: 'x', allowed_models: [] }],
    ['zero days', { name: 'x', expires_in_days: 0 }],
    ['days above api_key_max_expiry_days (365)', { name: 'x', expires_in_days: 366 }],
    ['an unknown field', { name: 'x', scopes: ['all'] }],
  ])('refuses %s with 422 and details', async (_label, body) => {
    const res = await api('POST', '/api/keys', { token: users.alice.token, body });
    expect(res.status, res.text).toBe(422);
    expect(res.body.error).toMatchObject({ type: 'validation_error' });
    expect(res.body.error.details.length).toBeGreaterThan(0);
  });

  it('follows the api_key_max_expiry_days setting, and answers malformed JSON with 400', async () => {
    await h.deps.db.insert(settings).values({ key: 'api_key_max_expiry_days', category: 'keys', value: 10 });
    try {
      const over = await api('POST', '/api/keys', {
        token: users.alice.token,
        body: { name: 'x', expires_in_days: 11 },
      });
      expect(over.status).toBe(422);
      expect(over.body.error.details).toEqual([
        { path: 'expires_in_days', message: expect.stringContaining('10') },
      ]);
      await createKey('alice', { expires_in_days: 10 });
    } finally {
      await h.deps.db.delete(settings).where(eq(settings.key, 'api_key_max_expiry_days'));
    }
    expect((await api('POST', '/api/keys', { token: users.alice.token, raw: '{"name":' })).status).toBe(400);
  });
});

describe('GET /api/keys and /api/keys/{id}', () => {
  it('lists only own keys, never with the secret or its hash', async () => {
    const mine = await createKey('alice', { name: 'listed' });
    const theirs = await createKey('bob', { name: 'bobs' });
    const list = await api('GET', '/api/keys?limit=200', { token: users.alice.token });
    expect(list.status).toBe(200);
    for (const item of list.body) expect(Object.keys(item).sort()).toEqual(LIST_FIELDS);
    const ids = list.body.map((k: { id: string }) => k.id);
    expect(ids).toContain(mine.body.id);
    expect(ids).not.toContain(theirs.body.id);
    expect(list.text).not.toContain(mine.body.key);
    expect(list.text).not.toContain(sha256(mine.body.key));
    const one = await api('GET', `/api/keys/${mine.body.id}`, { token: users.alice.token });
    expect(one.status).toBe(200);
    expect(Object.keys(one.body).sort()).toEqual(LIST_FIELDS);
    expect(one.body).toMatchObject({ id: mine.body.id, name: 'listed', prefix: mine.body.key.slice(0, 12) });
    expect(one.text).not.toContain(sha256(mine.body.key));
  });

  it('answers GET /api/keys (no query) as an array of key objects, the total in X-Total-Count', async () => {
    const mine = await createKey('alice', {
      name: 'spec shape',
      allowed_models: ['gpt-4o'],
      rate_limit_rpm: 60,
      // Past every expiring window the tests below ask for.
      expires_in_days: 200,
    });
    const list = await api('GET', '/api/keys', { token: users.alice.token });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    const total = Number(list.headers.get('x-total-count'));
    expect(total).toBeGreaterThan(0);
    expect(list.body).toHaveLength(Math.min(total, 50));
    for (const item of list.body) {
      expect(item).toEqual(
        expect.objectContaining({
          id: expect.any(String),
          name: expect.any(String),
          prefix: expect.any(String),
          allowed_models: item.allowed_models === null ? null : expect.any(Array),
          rate_limit_rpm: item.rate_limit_rpm === null ? null : expect.any(Number),
          expires_at: item.expires_at === null ? null : expect.any(String),
          created_at: expect.any(String),
          last_used_at: item.last_used_at === null ? null : expect.any(String),
        }),
      );
    }
    expect(list.body.find((k: { id: string }) => k.id === mine.body.id)).toMatchObject({
      id: mine.body.id,
      name: 'spec shape',
      prefix: mine.body.key.slice(0, 12),
      allowed_models: ['gpt-4o'],
      rate_limit_rpm: 60,
      expires_at: mine.body.expires_at,
      created_at: mine.body.created_at,
      last_used_at: null,
    });
  });

  it("answers 404 for another user's, an unknown and a malformed id", async () => {
    const theirs = await createKey('bob');
    for (const id of [theirs.body.id, UNKNOWN_ID, 'not-a-uuid']) {
      const res = await api('GET', `/api/keys/${id}`, { token: users.alice.token });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: { type: 'not_found_error' } });
    }
  });
});

describe('PATCH /api/keys/{id}', () => {
  it('changes every field, answers the documented shape and invalidates the gateway cache', async () => {
    const created = await createKey('alice', { name: 'before' });
    const hash = sha256(created.body.key);
    const res = await api('PATCH', `/api/keys/${created.body.id}`, {
      token: users.alice.token,
      body: {
        name: 'after',
        allowed_models: ['gpt-a'],
        rate_limit_rpm: 5,
        expires_in_days: 2,
        rotation_interval_days: 30,
        inactivity_timeout_days: 14,
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'allowed_models',
      'expires_at',
      'id',
      'inactivity_timeout_days',
      'name',
      'prefix',
      'rate_limit_rpm',
      'rotation_interval_days',
      'updated_at',
    ]);
    expect(res.body).toMatchObject({
      name: 'after',
      allowed_models: ['gpt-a'],
      rate_limit_rpm: 5,
      rotation_interval_days: 30,
      inactivity_timeout_days: 14,
    });
    expect(Date.parse(res.body.expires_at) - Date.now()).toBeGreaterThan(2 * DAY - 5000);
    expect(decodeEntry(await h.deps.redis.get(keyCacheKey(hash)))).toEqual({ kind: 'stale' });
    const cleared = await api('PATCH', `/api/keys/${created.body.id}`, {
      token: users.alice.token,
      body: { allowed_models: null, rate_limit_rpm: null, expires_in_days: null },
    });
    expect(cleared.body).toMatchObject({
      allowed_models: null,
      rate_limit_rpm: null,
      expires_at: null,
      name: 'after',
    });
  });

  it('answers 422 for bad bodies and 404 for keys that are not the caller’s', async () => {
    const created = await createKey('alice');
    const path = `/api/keys/${created.body.id}`;
    for (const body of [
      {},
      { rate_limit_rpm: -5 },
      { inactivity_timeout_days: 1.5 },
      { expires_in_days: 400 },
      { key: 'x' },
    ]) {
      expect((await api('PATCH', path, { token: users.alice.token, body })).status).toBe(422);
    }
    expect((await api('PATCH', path, { token: users.bob.token, body: { name: 'mine' } })).status).toBe(404);
    expect(
      (await api('PATCH', '/api/keys/nope', { token: users.alice.token, body: { name: 'x' } })).status,
    ).toBe(404);
  });
});

describe('DELETE /api/keys/{id}', () => {
  it('revokes irreversibly (204); afterwards the key is gone: 404 everywhere', async () => {
    const created = await createKey('alice');
    const path = `/api/keys/${created.body.id}`;
    expect((await api('DELETE', path, { token: users.bob.token })).status).toBe(404);
    const res = await api('DELETE', path, { token: users.alice.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await rowOf(created.body.id)).toMatchObject({ status: 'revoked', revokedAt: expect.any(Date) });
    expect((await api('GET', path, { token: users.alice.token })).status).toBe(404);
    expect((await api('DELETE', path, { token: users.alice.token })).status).toBe(404);
    expect((await api('POST', `${path}/rotate`, { token: users.alice.token })).status).toBe(404);
    expect((await api('PATCH', path, { token: users.alice.token, body: { name: 'x' } })).status).toBe(404);
    const list = await api('GET', '/api/keys?limit=200', { token: users.alice.token });
    expect(list.body.map((k: { id: string }) => k.id)).not.toContain(created.body.id);
    expect(await authenticateAt(created.body.key, new Date())).toBe('refused');
  });
});

describe('POST /api/keys/{id}/rotate', () => {
  it('returns a new secret once; the old one stays valid for the grace period', async () => {
    const created = await createKey('alice');
    const res = await api('POST', `/api/keys/${created.body.id}/rotate`, { token: users.alice.token });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['grace_period_ends_at', 'id', 'key', 'name', 'rotated_at']);
    expect(res.body.key).not.toBe(created.body.key);
    expect(Date.parse(res.body.grace_period_ends_at) - Date.parse(res.body.rotated_at)).toBe(86_400_000);
    const row = await rowOf(created.body.id);
    expect(row).toMatchObject({ keyHash: sha256(res.body.key), previousKeyHash: sha256(created.body.key) });
    const now = new Date();
    expect(await authenticateAt(created.body.key, now)).toBe('accepted');
    expect(await authenticateAt(res.body.key, now)).toBe('accepted');
    expect(await authenticateAt(created.body.key, new Date(now.getTime() + DAY + 1000))).toBe('refused');
    const listed = await api('GET', `/api/keys/${created.body.id}`, { token: users.alice.token });
    expect(listed.body.prefix).toBe(res.body.key.slice(0, 12));
    expect(
      (await api('POST', `/api/keys/${created.body.id}/rotate`, { token: users.bob.token })).status,
    ).toBe(404);
  });
});

describe('audit', () => {
  it('records key.create, key.update, key.rotate and key.revoke with ip and user agent, never secrets', async () => {
    const created = await createKey('alice', { name: 'audited' });
    const path = `/api/keys/${created.body.id}`;
    await api('PATCH', path, { token: users.alice.token, body: { rate_limit_rpm: 9 } });
    const rotated = await api('POST', `${path}/rotate`, { token: users.alice.token });
    await api('DELETE', path, { token: users.alice.token });
    for (const action of ['key.create', 'key.update', 'key.rotate', 'key.revoke']) {
      const rows = await auditFor(created.body.id, action);
      expect(rows, action).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        userId: users.alice.id,
        userEmail: 'alice@keys.example',
        resourceType: 'api_key',
        ipAddress: h.defaultIp,
        userAgent: 'vitest',
      });
      const details = JSON.stringify(rows[0]!.details);
      for (const secret of [
        created.body.key,
        rotated.body.key,
        sha256(created.body.key),
        sha256(rotated.body.key),
      ]) {
        expect(details).not.toContain(secret);
      }
    }
  });
});

describe('GET /api/keys/expiring', () => {
  it('lists own active keys expiring within days (default 7), soonest first', async () => {
    const soon = await createKey('alice', { name: 'soon', expires_in_days: 3 });
    const later = await createKey('alice', { name: 'later', expires_in_days: 20 });
    await createKey('bob', { name: 'bob-soon', expires_in_days: 2 });
    const byDefault = await api('GET', '/api/keys/expiring', { token: users.alice.token });
    expect(byDefault.status).toBe(200);
    expect(byDefault.headers.get('x-total-count')).toBe('1');
    expect(byDefault.body).toEqual([
      {
        id: soon.body.id,
        name: 'soon',
        prefix: soon.body.key.slice(0, 12),
        expires_at: soon.body.expires_at,
        days_remaining: 3,
        owner_email: 'alice@keys.example',
      },
    ]);
    const wider = await api('GET', '/api/keys/expiring?days=30&limit=200', { token: users.alice.token });
    const ids = wider.body.map((k: { id: string }) => k.id);
    expect(ids.indexOf(soon.body.id)).toBeLessThan(ids.indexOf(later.body.id));
    expect(wider.body.find((k: { id: string }) => k.id === later.body.id).days_remaining).toBe(20);
    for (const days of ['abc', '0', '-1', '1.5']) {
      expect((await api('GET', `/api/keys/expiring?days=${days}`, { token: users.alice.token })).status).toBe(
        422,
      );
    }
  });
});

describe('time-driven transitions (fake clock)', () => {
  it('expiry sweep marks passed keys expired; they are final (PATCH/rotate 409)', async () => {
    const created = await createKey('alice', { expires_in_days: 1 });
    const future = new Date(Date.now() + 2 * DAY);
    expect(await sweepExpiredKeys(h.deps, future)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(created.body.id)).toMatchObject({ status: 'expired' });
    expect(await auditFor(created.body.id, 'key.expire')).toHaveLength(1);
    const path = `/api/keys/${created.body.id}`;
    expect(
      (await api('PATCH', path, { token: users.alice.token, body: { expires_in_days: 5 } })).status,
    ).toBe(409);
    expect((await api('POST', `${path}/rotate`, { token: users.alice.token })).status).toBe(409);
    expect(await authenticateAt(created.body.key, new Date())).toBe('refused');
  });

  it('inactivity: lazily at authentication and by the sweep; a disabled key stays disabled', async () => {
    const lazy = await createKey('alice');
    const swept = await createKey('alice');
    const busy = await createKey('alice');
    for (const k of [lazy, swept, busy]) {
      await api('PATCH', `/api/keys/${k.body.id}`, {
        token: users.alice.token,
        body: { inactivity_timeout_days: 1 },
      });
    }
    const later = new Date(Date.now() + 2 * DAY);
    await h.deps.db.update(apiKeys).set({ lastUsedAt: later }).where(eq(apiKeys.id, busy.body.id));
    expect(await authenticateAt(lazy.body.key, later)).toBe('refused');
    expect(await rowOf(lazy.body.id)).toMatchObject({ status: 'disabled', disabledAt: later });
    expect(await sweepInactiveKeys(h.deps, later)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(swept.body.id)).toMatchObject({ status: 'disabled', disabledAt: later });
    expect(await rowOf(busy.body.id)).toMatchObject({ status: 'active' });
    // The owner's list says so, with the timeout that did it.
    const listed = (await api('GET', '/api/keys?limit=200', { token: users.alice.token })).body as Record<
      string,
      unknown
    >[];
    expect(listed.find((k) => k.id === swept.body.id)).toMatchObject({
      status: 'disabled',
      inactivity_timeout_days: 1,
      rotation_interval_days: null,
    });
    expect(listed.find((k) => k.id === busy.body.id)).toMatchObject({ status: 'active' });
    expect(await auditFor(swept.body.id, 'key.disable')).toEqual([
      expect.objectContaining({ details: { automatic: true, reason: 'inactivity' } }),
    ]);
    // Used again (behind the console's back): still disabled, never re-enabled.
    await h.deps.db.update(apiKeys).set({ lastUsedAt: later }).where(eq(apiKeys.id, swept.body.id));
    await runKeyJobs(h.deps, later);
    expect(await rowOf(swept.body.id)).toMatchObject({ status: 'disabled' });
    expect(await authenticateAt(swept.body.key, later)).toBe('refused');
  });

  it('automatic rotation retires the value after the grace; the owner fetches a new one by rotating', async () => {
    const created = await createKey('alice');
    const path = `/api/keys/${created.body.id}`;
    await api('PATCH', path, { token: users.alice.token, body: { rotation_interval_days: 30 } });
    const due = new Date(Date.now() + 31 * DAY);
    expect(await rotateDueKeys(h.deps, new Date(Date.now() + 29 * DAY))).toBe(0);
    expect(await rotateDueKeys(h.deps, due)).toBeGreaterThanOrEqual(1);
    const row = await rowOf(created.body.id);
    expect(row).toMatchObject({ previousKeyHash: sha256(created.body.key), rotatedAt: due });
    expect(row.keyHash).toMatch(/^unissued:/);
    expect(row.gracePeriodEndsAt!.getTime()).toBe(due.getTime() + DAY);
    const [audit] = await auditFor(created.body.id, 'key.rotate');
    expect(audit!.details).toMatchObject({ automatic: true });
    expect(await rotateDueKeys(h.deps, due)).toBe(0);
    expect(await authenticateAt(created.body.key, due)).toBe('accepted');
    expect(await authenticateAt(created.body.key, new Date(due.getTime() + DAY + 1))).toBe('refused');
    // The owner sees it coming: the expiring list shows the key stopping at the grace end.
    const expiring = async () =>
      (await api('GET', '/api/keys/expiring?days=40&limit=200', { token: users.alice.token })).body.find(
        (k: { id: string }) => k.id === created.body.id,
      );
    expect(await expiring()).toMatchObject({ expires_at: new Date(due.getTime() + DAY).toISOString() });
    // A manual rotation issues a value and keeps the consumers' old value on its grace.
    const manual = await api('POST', `${path}/rotate`, { token: users.alice.token });
    expect(manual.status).toBe(200);
    expect(Date.parse(manual.body.grace_period_ends_at)).toBe(due.getTime() + DAY);
    expect(await rowOf(created.body.id)).toMatchObject({ previousKeyHash: sha256(created.body.key) });
    expect(await authenticateAt(manual.body.key, new Date())).toBe('accepted');
    expect(await authenticateAt(created.body.key, new Date())).toBe('accepted');
    expect(await expiring()).toBeUndefined();
  });

  it('leaves keys that are not due alone (fixture rows with no intervals)', async () => {
    const fixture = await insertApiKey(h.deps.db, users.bob.id);
    await runKeyJobs(h.deps, new Date(Date.now() + 400 * DAY));
    expect(await rowOf(fixture.id)).toMatchObject({ status: 'active', keyHash: fixture.hash });
  });
});

describe('OpenAPI document', () => {
  it('documents every response above, and every /api/keys operation was exercised', () => {
    expect(checked.problems).toEqual([]);
    const keyOps = checked.conformance.operations().filter((op) => op.includes(' /api/keys'));
    expect(keyOps).toHaveLength(7);
    expect(keyOps.filter((op) => !checked.conformance.exercisedOperations().includes(op))).toEqual([]);
  });
});
