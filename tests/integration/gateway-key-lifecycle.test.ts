// API key states and transitions as the gateway sees them (docs/keys.md): a revoked, expired or
// disabled key, or an old value past its rotation grace, is refused; GET /v1/models filtered by
// allowed_models; last_used_at updated as the key is used.
// The console and the gateway share one database and one Redis: every change made through
// the console must show on the gateway's very next request, even with its key cache warm.
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createKeyAuthCache,
  decodeEntry,
  invalidateKeyHashes,
  keyCacheKey,
} from '../../shared/src/auth/api-keys/auth-cache';
import { findApiKeyForAuth } from '../../shared/src/db/repos/api-keys-repo';
import { apiKeys, auditLog, settings } from '../../shared/src/db/schema';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { insertModelWithRoute } from '../helpers/fixtures';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { appEnv, freshDatabase } from '../helpers/stores';

const DAY = 86_400_000;
const GRACE_SECONDS = 2;

let h: ConsoleHarness;
let gw: GatewayHarness;
let token: string;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field.
type Res = { status: number; body: any };

async function consoleApi(method: string, path: string, body?: unknown): Promise<Res> {
  const res = await h.call(method, path, { token, body });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

async function createKey(body: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  const res = await consoleApi('POST', '/api/keys', { name: 'lifecycle', ...body });
  expect(res.status).toBe(201);
  return res.body;
}

/** GET /v1/models with `key`; `kept`: through gw.request, so gw.settled() waits for its work. */
async function models(key: string, kept = false): Promise<{ status: number; ids: string[] }> {
  const res = kept
    ? await gw.request('/v1/models', { headers: { authorization: `Bearer ${key}` } })
    : await gw.call('GET', '/v1/models', { token: key });
  if (res.status !== 200) return { status: res.status, ids: [] };
  const body = (await res.json()) as { data: Array<{ id: string }> };
  return { status: 200, ids: body.data.map((m) => m.id) };
}

/** Uses the key once and waits for the background fill, so the next lookup is a cache hit. */
async function warm(key: string): Promise<void> {
  expect((await models(key)).status).toBe(200);
  await vi.waitFor(async () => {
    expect(decodeEntry(await gw.deps.redis.get(keyCacheKey(sha256(key))))).toMatchObject({ kind: 'hit' });
  });
}

beforeAll(async () => {
  const url = await freshDatabase('sluice_it_keylife');
  h = await consoleHarness(appEnv(url));
  gw = gatewayHarness(appEnv(url));
  await insertModelWithRoute(h.deps.db, 'gpt-alpha', 'prov-a');
  await insertModelWithRoute(h.deps.db, 'gpt-beta', 'prov-b');
  await h.deps.db
    .insert(settings)
    .values({ key: 'api_key_rotation_grace_seconds', category: 'keys', value: GRACE_SECONDS });
  const credentials = { email: 'life@keys.example', password: 'lifecycle-password' };
  await h.call('POST', '/api/auth/register', { body: { ...credentials, display_name: 'Life' } });
  const login = await h.call('POST', '/api/auth/login', {
    body: { email: credentials.email, password: credentials.password },
  });
  token = ((await login.json()) as { access_token: string }).access_token;
});
afterAll(() => h.close());

describe('a key created in the console', () => {
  it('works on the gateway, and is served from the cache once warm', async () => {
    const { id, key } = await createKey();
    expect(await models(key)).toEqual({ status: 200, ids: ['gpt-alpha', 'gpt-beta'] });
    await warm(key);
    // A change behind the console's back (no invalidation) is not seen until the entry
    // expires: proof that the lookup really is the cache, and why the console invalidates.
    await h.deps.db.update(apiKeys).set({ status: 'revoked' }).where(eq(apiKeys.id, id));
    expect((await models(key)).status).toBe(200);
  });

  it('keeps dates through the JSON round trip (expiry checked from the cached record)', async () => {
    const { key } = await createKey({ expires_in_days: 1 });
    await warm(key);
    const entry = decodeEntry(await gw.deps.redis.get(keyCacheKey(sha256(key))));
    expect(entry.kind === 'hit' && entry.record?.expiresAt).toBeInstanceOf(Date);
    expect((await models(key)).status).toBe(200);
  });

  it('caches unknown keys as negative entries', async () => {
    const unknown = `sluice-${'Z'.repeat(43)}`;
    expect((await models(unknown)).status).toBe(401);
    await vi.waitFor(async () => {
      expect(decodeEntry(await gw.deps.redis.get(keyCacheKey(sha256(unknown))))).toEqual({
        kind: 'hit',
        record: null,
      });
    });
    expect((await models(unknown)).status).toBe(401);
  });
});

describe('changes through the console take effect on the next gateway request', () => {
  it('revocation: 401 immediately, with the cache warm', async () => {
    const { id, key } = await createKey();
    await warm(key);
    expect((await consoleApi('DELETE', `/api/keys/${id}`)).status).toBe(204);
    expect((await models(key)).status).toBe(401);
  });

  it('rotation: the old value works until the grace period ends, the new one at once', async () => {
    const { id, key: oldKey } = await createKey();
    await warm(oldKey);
    const rotated = await consoleApi('POST', `/api/keys/${id}/rotate`);
    expect(rotated.status).toBe(200);
    const graceEnds = Date.parse(rotated.body.grace_period_ends_at);
    expect(graceEnds - Date.parse(rotated.body.rotated_at)).toBe(GRACE_SECONDS * 1000);
    expect((await models(rotated.body.key)).status).toBe(200);
    expect((await models(oldKey)).status).toBe(200);
    // The gateway judges the grace period by its clock: set it past the end.
    const clock = gw.deps.auth.now;
    gw.deps.auth.now = () => new Date(graceEnds + 1);
    try {
      expect((await models(oldKey)).status).toBe(401);
      expect((await models(rotated.body.key)).status).toBe(200);
    } finally {
      gw.deps.auth.now = clock;
    }
  });

  it('PATCH allowed_models: the next /v1/models reflects it', async () => {
    const { id, key } = await createKey();
    await warm(key);
    const patched = await consoleApi('PATCH', `/api/keys/${id}`, { allowed_models: ['gpt-beta'] });
    expect(patched.status).toBe(200);
    expect(await models(key)).toEqual({ status: 200, ids: ['gpt-beta'] });
    await consoleApi('PATCH', `/api/keys/${id}`, { allowed_models: null });
    expect(await models(key)).toEqual({ status: 200, ids: ['gpt-alpha', 'gpt-beta'] });
  });
  it('a cache fill racing with an invalidation cannot bring the old record back', async () => {
    const { key } = await createKey();
    const hash = sha256(key);
    // A lookup that read Postgres just before a change and fills the cache just after it.
    const stale = await findApiKeyForAuth(h.deps.db, hash);
    await invalidateKeyHashes(h.deps.redis, [hash]);
    const fills: Promise<unknown>[] = [];
    const racing = createKeyAuthCache(gw.deps.redis, async () => stale, { warn: () => {} });
    await racing.find(hash, (task) => fills.push(task));
    await Promise.all(fills);
    expect(decodeEntry(await gw.deps.redis.get(keyCacheKey(hash)))).toEqual({ kind: 'stale' });
  });
});

describe('use of a key', () => {
  it('persists an inactive key as disabled when the gateway refuses it', async () => {
    const { id, key } = await createKey();
    await consoleApi('PATCH', `/api/keys/${id}`, { inactivity_timeout_days: 1 });
    // Two days without use, simulated by moving the key's history back.
    const past = new Date(Date.now() - 2 * DAY);
    await h.deps.db.update(apiKeys).set({ createdAt: past, lastUsedAt: past }).where(eq(apiKeys.id, id));
    expect((await models(key)).status).toBe(401);
    await vi.waitFor(async () => {
      const [row] = await h.deps.db.select().from(apiKeys).where(eq(apiKeys.id, id));
      expect(row).toMatchObject({ status: 'disabled', disabledAt: expect.any(Date) });
    });
    const audit = await h.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resourceId, id), eq(auditLog.action, 'key.disable')));
    expect(audit).toHaveLength(1);
    expect((await consoleApi('PATCH', `/api/keys/${id}`, { inactivity_timeout_days: 30 })).status).toBe(409);
    expect((await models(key)).status).toBe(401);
  });

  it('sets last_used_at, at most once a minute per key', async () => {
    const { id, key } = await createKey();
    expect((await consoleApi('GET', `/api/keys/${id}`)).body.last_used_at).toBeNull();
    const before = Date.now();
    expect((await models(key)).status).toBe(200);
    let first = '';
    await vi.waitFor(async () => {
      first = (await consoleApi('GET', `/api/keys/${id}`)).body.last_used_at;
      expect(first).not.toBeNull();
    });
    expect(Date.parse(first)).toBeGreaterThanOrEqual(before - 1000);
    expect((await models(key, true)).status).toBe(200);
    // Once the work this use handed to waitUntil is done, it wrote nothing.
    await gw.settled();
    expect((await consoleApi('GET', `/api/keys/${id}`)).body.last_used_at).toBe(first);
  });
});
