// The first-run setup (docs/users-and-auth.md): POST /api/setup/initialize answers 400 once
// initialized, 422 for bad input and 429 past 5 calls a minute from one client.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, providers, users } from '../../shared/src/db/schema';
import { CACHE_VERSION_KEYS } from '../../shared/src/runtime/cache-versions';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { appEnv, freshDatabase } from '../helpers/stores';

let h: ConsoleHarness;
const admin = { email: 'Admin@Example.com', display_name: 'Ada Admin', password: 'correct horse battery' };
const provider = {
  name: 'openai-main',
  display_name: 'OpenAI',
  provider_type: 'openai',
  base_url: 'https://api.openai.example/v1',
  api_key: 'sk-test-super-secret',
};

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_setup')));
});
afterAll(() => h.close());

describe('setup', () => {
  it('reports an uninitialized system', async () => {
    const res = await h.call('GET', '/api/setup/status');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      initialized: false,
      needs_setup: true,
      site_name: 'Sluice',
      gateway_base_url: '',
    });
  });

  it('validates the admin and a partial provider with 422', async () => {
    const weak = await h.call('POST', '/api/setup/initialize', {
      body: { admin: { ...admin, password: 'short' } },
      ip: '203.0.113.10',
    });
    expect(weak.status).toBe(422);
    const body = (await weak.json()) as { error: { type: string; message: string; details: unknown[] } };
    expect(body.error.type).toBe('validation_error');
    expect(body.error.message).toContain('admin.password');
    const badEmail = await h.call('POST', '/api/setup/initialize', {
      body: { admin: { ...admin, email: 'not-an-email' } },
      ip: '203.0.113.10',
    });
    expect(badEmail.status).toBe(422);
    const partial = await h.call('POST', '/api/setup/initialize', {
      body: { admin, provider: { name: 'x' } },
      ip: '203.0.113.10',
    });
    expect(partial.status).toBe(422);
  });

  it('answers malformed JSON with 400 in the envelope', async () => {
    const res = await h.call('POST', '/api/setup/initialize', { raw: '{"admin": ', ip: '203.0.113.11' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
  });

  it('creates exactly one admin under concurrent initialize calls', async () => {
    const routingVersion = async () => Number((await h.deps.redis.get(CACHE_VERSION_KEYS.routing)) ?? 0);
    const versionBefore = await routingVersion();
    const attempts = await Promise.all(
      ['203.0.113.21', '203.0.113.22', '203.0.113.23'].map((ip) =>
        h.call('POST', '/api/setup/initialize', { body: { admin, provider }, ip }),
      ),
    );
    const statuses = attempts.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400, 400]);
    const winner = attempts.find((r) => r.status === 200)!;
    const body = (await winner.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 900,
      user: { email: 'admin@example.com', display_name: 'Ada Admin', role: 'admin' },
    });
    expect(typeof body.access_token).toBe('string');
    expect(typeof body.refresh_token).toBe('string');
    expect(Object.keys(body.user as object).sort()).toEqual(['display_name', 'email', 'id', 'role']);
    const admins = await h.deps.db.select().from(users).where(eq(users.role, 'admin'));
    expect(admins).toHaveLength(1);
    // The provider it created reaches every gateway at once, as one created in the console does.
    expect(await routingVersion()).toBeGreaterThan(versionBefore);
    const loser = attempts.find((r) => r.status === 400)!;
    expect(await loser.json()).toEqual({
      error: { message: 'System is already initialized', type: 'invalid_request_error' },
    });
  });

  it('stores the first provider with its key encrypted, and audits it', async () => {
    const [row] = await h.deps.db.select().from(providers).where(eq(providers.name, 'openai-main'));
    expect(row?.apiKeyEncrypted).toMatch(/^v1\./);
    expect(row?.apiKeyEncrypted).not.toContain('super-secret');
    expect(await h.deps.secrets.decrypt(row!.apiKeyEncrypted)).toBe(provider.api_key);
    const actions = (await h.deps.db.select({ action: auditLog.action }).from(auditLog)).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['setup.initialize', 'user.create', 'provider.create']));
  });

  it('then reports initialized and refuses a second initialize with 400', async () => {
    expect(await (await h.call('GET', '/api/setup/status')).json()).toEqual({
      initialized: true,
      needs_setup: false,
      site_name: 'Sluice',
      gateway_base_url: '',
    });
    const again = await h.call('POST', '/api/setup/initialize', { body: { admin }, ip: '203.0.113.30' });
    expect(again.status).toBe(400);
    // Afterwards the endpoint answers 400 whatever the body: its state is checked before the body.
    for (const body of [{}, { admin: { email: 'not-an-email' } }]) {
      const late = await h.call('POST', '/api/setup/initialize', { body, ip: '203.0.113.31' });
      expect(late.status).toBe(400);
      expect(await late.json()).toEqual({
        error: { message: 'System is already initialized', type: 'invalid_request_error' },
      });
    }
  });

  it('refuses the sixth call within a minute from one client with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await h.call('POST', '/api/setup/initialize', { body: {}, ip: '203.0.113.99' });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
        expect(await res.json()).toMatchObject({ error: { type: 'rate_limit_error' } });
      }
    }
    // Counted before anything else: once initialized the first five are 400s, the sixth 429.
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });
});

describe('setup race with different admins', () => {
  it('creates exactly one admin when concurrent calls name different emails', async () => {
    // Different emails: only the lock and the in-transaction re-check can stop a second admin.
    const race = await consoleHarness(appEnv(await freshDatabase('sluice_it_setup_race')));
    try {
      const attempts = await Promise.all(
        [1, 2, 3, 4].map((n) =>
          race.call('POST', '/api/setup/initialize', {
            body: { admin: { ...admin, email: `admin${n}@race.example` } },
            ip: `203.0.113.${40 + n}`,
          }),
        ),
      );
      expect(attempts.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
      const admins = await race.deps.db.select().from(users);
      expect(admins).toHaveLength(1);
      expect(admins[0]?.role).toBe('admin');
    } finally {
      await race.close();
    }
  });
});
