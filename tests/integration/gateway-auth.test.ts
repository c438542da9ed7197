// The gateway's health endpoints; GET /v1/models; API key authentication, refusing keys that are
// revoked, expired, inactive or past their rotation grace; the 401 error envelope.
import { beforeAll, describe, expect, it } from 'vitest';
import { createJwtSigner } from '../../shared/src/auth/console/jwt';
import { TEST_SECRETS } from '../helpers/env';
import { insertApiKey, insertModelWithRoute, insertUser } from '../helpers/fixtures';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { appEnv, freshDatabase } from '../helpers/stores';

let gw: GatewayHarness;
let keys: Record<'all' | 'limited' | 'revoked' | 'expired' | 'rotated' | 'graceOver' | 'inactive', string>;
let previousValue: string;
let staleValue: string;
let userToken: string;

const UNAUTHORIZED = { error: { message: 'Missing or invalid API key', type: 'authentication_error' } };

beforeAll(async () => {
  gw = gatewayHarness(appEnv(await freshDatabase('sluice_it_gateway')));
  const db = gw.deps.db;
  const owner = await insertUser(db, 'owner@example.com');
  await insertModelWithRoute(db, 'gpt-alpha', 'prov-a');
  await insertModelWithRoute(db, 'gpt-beta', 'prov-b');
  const hourAgo = new Date(Date.now() - 3_600_000);
  const inAnHour = new Date(Date.now() + 3_600_000);
  const rotatedOld = await insertApiKey(db, owner.id);
  const staleOld = await insertApiKey(db, owner.id);
  previousValue = rotatedOld.key;
  staleValue = staleOld.key;
  keys = {
    all: (await insertApiKey(db, owner.id)).key,
    limited: (await insertApiKey(db, owner.id, { allowedModels: ['gpt-beta'] })).key,
    revoked: (await insertApiKey(db, owner.id, { status: 'revoked' })).key,
    expired: (await insertApiKey(db, owner.id, { expiresAt: hourAgo })).key,
    // A rotated key keeps its old value valid until the grace period ends.
    rotated: (
      await insertApiKey(db, owner.id, { previousKeyHash: rotatedOld.hash, gracePeriodEndsAt: inAnHour })
    ).key,
    graceOver: (
      await insertApiKey(db, owner.id, { previousKeyHash: staleOld.hash, gracePeriodEndsAt: hourAgo })
    ).key,
    inactive: (
      await insertApiKey(db, owner.id, {
        inactivityTimeoutDays: 1,
        lastUsedAt: new Date(Date.now() - 2 * 86_400_000),
      })
    ).key,
  };
  // The old rows' own hashes must not also match, so move them off their values.
  const { apiKeys } = await import('../../shared/src/db/schema');
  const { eq } = await import('drizzle-orm');
  await db.delete(apiKeys).where(eq(apiKeys.keyHash, rotatedOld.hash));
  await db.delete(apiKeys).where(eq(apiKeys.keyHash, staleOld.hash));
  userToken = await createJwtSigner(TEST_SECRETS.SLUICE_JWT_SECRET).signAccess(
    { userId: owner.id, email: owner.email, role: 'user' },
    300,
  );
});

describe('health', () => {
  it('answers /health, /health/live and /health/ready', async () => {
    expect(await (await gw.call('GET', '/health')).json()).toEqual({ status: 'ok' });
    expect(await (await gw.call('GET', '/health/live')).json()).toEqual({ status: 'alive' });
    const ready = await gw.call('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });
});

describe('authentication middleware', () => {
  it.each([
    ['no header', undefined],
    ['garbage', 'garbage'],
    ['unknown key', `sluice-${'A'.repeat(43)}`],
    ['forged JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'],
  ])('refuses %s with the 401 envelope', async (_label, token) => {
    const res = await gw.call('GET', '/v1/models', { token });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="sluice"');
    expect(await res.json()).toEqual(UNAUTHORIZED);
  });

  it.each(['revoked', 'expired', 'inactive'] as const)('refuses a %s key', async (name) => {
    const res = await gw.call('GET', '/v1/models', { token: keys[name] });
    expect(res.status).toBe(401);
  });

  it('refuses the old value after the grace period and accepts it during', async () => {
    expect((await gw.call('GET', '/v1/models', { token: staleValue })).status).toBe(401);
    expect((await gw.call('GET', '/v1/models', { token: previousValue })).status).toBe(200);
    expect((await gw.call('GET', '/v1/models', { token: keys.rotated })).status).toBe(200);
    expect((await gw.call('GET', '/v1/models', { token: keys.graceOver })).status).toBe(200);
  });

  it('guards /mcp and every /v1 path, adding type:"error" on /v1/messages', async () => {
    expect((await gw.call('POST', '/mcp', { body: {} })).status).toBe(401);
    const messages = await gw.call('POST', '/v1/messages', { body: {} });
    expect(messages.status).toBe(401);
    expect(await messages.json()).toEqual({ type: 'error', ...UNAUTHORIZED });
  });
});

describe('GET /v1/models', () => {
  it('lists every servable model for an unrestricted key and for a JWT', async () => {
    for (const token of [keys.all, userToken]) {
      const res = await gw.call('GET', '/v1/models', { token });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { object: string; data: Array<Record<string, unknown>> };
      expect(body.object).toBe('list');
      expect(body.data.map((m) => m.id)).toEqual(['gpt-alpha', 'gpt-beta']);
      expect(body.data[0]).toMatchObject({ object: 'model', owned_by: 'prov-a' });
      expect(Number.isInteger(body.data[0]?.created)).toBe(true);
    }
  });

  it("lists only the models a key's allowed_models permits", async () => {
    const body = (await (await gw.call('GET', '/v1/models', { token: keys.limited })).json()) as {
      data: Array<{ id: string }>;
    };
    expect(body.data.map((m) => m.id)).toEqual(['gpt-beta']);
  });
});

describe('GET /v1/models/{id}', () => {
  it('answers the model object the list holds, for a key and for a JWT', async () => {
    for (const token of [keys.all, userToken]) {
      const res = await gw.call('GET', '/v1/models/gpt-alpha', { token });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        id: 'gpt-alpha',
        object: 'model',
        created: expect.any(Number),
        owned_by: 'prov-a',
        kind: 'chat',
      });
    }
  });

  it("is a 404 in the OpenAI envelope for an unknown model, and for one the key's allowed_models excludes", async () => {
    const cases: Array<[string, string]> = [
      ['no-such-model', keys.all],
      ['gpt-alpha', keys.limited],
    ];
    for (const [id, token] of cases) {
      const res = await gw.call('GET', `/v1/models/${id}`, { token });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        error: {
          message: `The model '${id}' does not exist or you do not have access to it`,
          type: 'invalid_request_error',
        },
      });
    }
    expect((await gw.call('GET', '/v1/models/gpt-beta', { token: keys.limited })).status).toBe(200);
  });

  it('needs a valid key (401)', async () => {
    expect((await gw.call('GET', '/v1/models/gpt-alpha', {})).status).toBe(401);
  });
});

describe('bad input', () => {
  it('refuses bodies over the gateway limit with 413 in the model envelope', async () => {
    const { createGatewayApp } = await import('../../gateway-worker/src/app');
    const app = createGatewayApp(gw.deps);
    const res = await app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(21 * 1024 * 1024) },
      body: 'x'.repeat(21 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { type: 'request_too_large' } });
  });
});
