// Architecture: one way a console write reaches the gateways' isolate caches — commit, then move
// the counter of each part it touched (shared/src/runtime/cache-versions.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_VERSION_KEYS, type CachePart } from '../../shared/src/runtime/cache-versions';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { appEnv, freshDatabase } from '../helpers/stores';

let h: ConsoleHarness;
let adminToken: string;
let memberToken: string;
let memberId: string;
/** The version counters the app moved, in order (its own Redis client, recorded on the way). */
let moved: string[] = [];

const PART_OF_KEY = new Map<string, CachePart>(
  Object.entries(CACHE_VERSION_KEYS).map(([part, key]) => [key, part as CachePart]),
);

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field.
async function call(method: string, path: string, token: string, body?: unknown): Promise<any> {
  const res = await h.call(method, path, { token, body });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** Runs a console call and answers its status with the cache parts it moved. */
async function partsMovedBy(method: string, path: string, body?: unknown, token = adminToken) {
  moved = [];
  const { status } = await call(method, path, token, body);
  return { status, parts: moved.map((key) => PART_OF_KEY.get(key) ?? key).sort() };
}

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_cache_versions')));
  // The app reads its Redis client from deps on every request: this one records each INCR.
  const redis = h.deps.redis;
  const recordIncr = (key: string) => {
    moved.push(key);
    return redis.incr(key);
  };
  h.deps.redis = new Proxy(redis, {
    get: (target, name) => {
      if (name === 'incr') return recordIncr;
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const admin = { email: 'versions@example.com', display_name: 'V', password: 'versions-password-1' };
  adminToken = (await call('POST', '/api/setup/initialize', '', { admin })).body.access_token;
  const member = { email: 'm@versions.example', display_name: 'M', password: 'member-password-1' };
  memberId = (await call('POST', '/api/auth/register', '', member)).body.id;
  memberToken = (
    await call('POST', '/api/auth/login', '', { email: member.email, password: member.password })
  ).body.access_token;
});
afterAll(() => h.close());

describe('every console write moves the counters of what it changed, and only after it committed', () => {
  let providerId: string;
  let keyId: string;

  it('providers, models and prices move routing', async () => {
    const provider = {
      name: 'p1',
      display_name: 'P1',
      provider_type: 'openai',
      base_url: 'https://p1.example/v1',
    };
    moved = [];
    const created = await call('POST', '/api/admin/providers', adminToken, { ...provider, api_key: 'sk-p1' });
    expect(created.status).toBe(201);
    expect(moved).toEqual([CACHE_VERSION_KEYS.routing]);
    providerId = created.body.id;
    expect(
      await partsMovedBy('PATCH', `/api/admin/providers/${providerId}`, { display_name: 'P one' }),
    ).toEqual({
      status: 200,
      parts: ['routing'],
    });
    const model = { name: 'm1', routes: [{ provider_id: providerId, upstream_model: 'gpt-4o' }] };
    expect(await partsMovedBy('POST', '/api/admin/models', model)).toEqual({
      status: 201,
      parts: ['routing'],
    });
    const price = { vendor: 'acme', input_price_per_mtok: 1, output_price_per_mtok: 2 };
    expect(await partsMovedBy('PUT', '/api/admin/model-prices/m1', price)).toEqual({
      status: 201,
      parts: ['routing'],
    });
  });

  it('a refused or failed write moves nothing, and neither does a read', async () => {
    const again = {
      name: 'p1',
      display_name: 'P1',
      provider_type: 'openai',
      base_url: 'https://x.example',
      api_key: 'k',
    };
    expect(await partsMovedBy('POST', '/api/admin/providers', again)).toEqual({ status: 409, parts: [] });
    expect(await partsMovedBy('POST', '/api/admin/models', { name: '' })).toEqual({ status: 422, parts: [] });
    expect(await partsMovedBy('GET', '/api/admin/models')).toEqual({ status: 200, parts: [] });
    expect(await partsMovedBy('POST', '/api/admin/roles', { name: 'x' }, memberToken)).toEqual({
      status: 403,
      parts: [],
    });
  });

  it('the MCP registry moves mcp', async () => {
    const server = { name: 'tools', endpoint_url: 'http://127.0.0.1:9/mcp' };
    expect(await partsMovedBy('POST', '/api/mcp/servers', server)).toEqual({ status: 201, parts: ['mcp'] });
  });

  it('settings move settings; roles, teams and rules move limits', async () => {
    expect(
      await partsMovedBy('PATCH', '/api/admin/settings', { settings: { site_name: 'Versions' } }),
    ).toEqual({
      status: 200,
      parts: ['settings'],
    });
    expect(await partsMovedBy('POST', '/api/admin/roles', { name: 'analysts' })).toEqual({
      status: 201,
      parts: ['limits'],
    });
  });

  it('a key change moves keys (before its commit for the tombstones, and again after)', async () => {
    const key = await call('POST', '/api/keys', memberToken, { name: 'k' });
    expect(key.status).toBe(201);
    keyId = key.body.id;
    const revoked = await partsMovedBy('DELETE', `/api/keys/${keyId}`, undefined, memberToken);
    expect(revoked).toEqual({ status: 204, parts: ['keys', 'keys'] });
  });

  it("a user's role moves keys and limits; a display name moves nothing", async () => {
    expect(await partsMovedBy('PATCH', `/api/admin/users/${memberId}`, { display_name: 'Em' })).toEqual({
      status: 200,
      parts: [],
    });
    const promoted = await partsMovedBy('PATCH', `/api/admin/users/${memberId}`, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect([...new Set(promoted.parts)]).toEqual(['keys', 'limits']);
  });
});
