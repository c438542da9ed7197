// Models and their routes in the console (docs/providers-and-models.md): ordered routes with
// RPM/TPM caps; admin JWT only (403 for other roles). Also: routing resolution.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../shared/src/db/schema';
import type { QueryDb } from '../../shared/src/db/types';
import { resolveModelRoutes } from '../../shared/src/routing/resolve';
import { type CheckedApi, type CheckedCallOptions, checkedApi, signUp } from '../helpers/checked-api';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { gatewayHarness } from '../helpers/gateway';
import { appEnv, freshDatabase } from '../helpers/stores';

const IP = '198.51.100.33';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const admin = { email: 'root@models.example', display_name: 'Root', password: 'root-password-1' };
const member = { email: 'member@models.example', display_name: 'Member', password: 'member-password-1' };

let h: ConsoleHarness;
/** The gateway's own database handle (Neon HTTP driver), where resolution really runs. */
let gatewayDb: QueryDb;
let checked: CheckedApi;
let adminToken: string;
let memberToken: string;
let alpha: string;
let beta: string;
let modelId: string;

const api = (method: string, path: string, options?: CheckedCallOptions) =>
  checked.call(method, path, options);

const asAdmin = (method: string, path: string, body?: unknown) =>
  api(method, path, { token: adminToken, body });

async function createProvider(name: string): Promise<string> {
  const res = await asAdmin('POST', '/api/admin/providers', {
    name,
    display_name: name,
    provider_type: 'openai',
    base_url: `https://${name}.example/v1`,
    api_key: `sk-${name}`,
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  const url = await freshDatabase('sluice_it_models');
  h = await consoleHarness(appEnv(url));
  gatewayDb = gatewayHarness(appEnv(url)).deps.db;
  checked = await checkedApi(h, { ip: IP });
  adminToken = (await api('POST', '/api/setup/initialize', { body: { admin } })).body.access_token;
  memberToken = (await signUp(checked, member)).token;
  alpha = await createProvider('p-alpha');
  beta = await createProvider('p-beta');
});
afterAll(() => h.close());

describe('admin models: authentication and authorisation', () => {
  const calls: Array<[string, string, unknown?]> = [
    ['GET', '/api/admin/models'],
    ['GET', '/api/admin/models/unpriced'],
    ['POST', '/api/admin/models', { name: 'x' }],
    ['GET', `/api/admin/models/${UNKNOWN_ID}`],
    ['PATCH', `/api/admin/models/${UNKNOWN_ID}`, { is_active: false }],
    ['DELETE', `/api/admin/models/${UNKNOWN_ID}`],
    ['PUT', `/api/admin/models/${UNKNOWN_ID}/routes`, { routes: [] }],
  ];

  it.each(calls)('%s %s: 401 without or with an invalid JWT', async (method, path, body) => {
    expect((await api(method, path, { body })).status).toBe(401);
    expect((await api(method, path, { body, token: 'not-a-jwt' })).status).toBe(401);
  });

  it.each(calls)('%s %s: 403 for a non-admin', async (method, path, body) => {
    expect((await api(method, path, { body, token: memberToken })).status).toBe(403);
  });
});

describe('POST /api/admin/models', () => {
  it('creates a model with ordered routes and defaults, and audits it', async () => {
    const res = await asAdmin('POST', '/api/admin/models', {
      name: 'gpt-house',
      routes: [
        { provider_id: beta, upstream_model: 'house-4o', rpm_cap: 60, tpm_cap: 100_000 },
        { provider_id: alpha, upstream_model: 'house-4o-mini', weight: 3, is_active: false },
      ],
    });
    expect(res.status).toBe(201);
    modelId = res.body.id;
    expect(res.body).toMatchObject({
      name: 'gpt-house',
      input_weight: 1,
      output_weight: 1,
      input_price_per_mtok: null,
      output_price_per_mtok: null,
      cache_write_price_per_mtok: null,
      cache_write_1h_price_per_mtok: null,
      max_output_tokens: null,
      cache_breakpoints: true,
      is_priced: false,
      is_active: true,
    });
    expect(res.body.routes).toMatchObject([
      { provider_id: beta, provider_name: 'p-beta', upstream_model: 'house-4o', position: 0, rpm_cap: 60 },
      {
        provider_id: alpha,
        upstream_model: 'house-4o-mini',
        position: 1,
        rpm_cap: null,
        weight: 3,
        is_active: false,
      },
    ]);
    const [audit] = await h.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'model.create'), eq(auditLog.resourceId, modelId)));
    expect(audit).toMatchObject({
      userEmail: admin.email,
      details: { name: 'gpt-house', settings: { max_output_tokens: null, cache_breakpoints: true } },
    });
  });

  it('creates a model with its output cap, cache breakpoints off and cache write prices, and audits them', async () => {
    const res = await asAdmin('POST', '/api/admin/models', {
      name: 'agent-anth',
      input_price_per_mtok: 3,
      output_price_per_mtok: 15,
      cache_write_price_per_mtok: 3.75,
      cache_write_1h_price_per_mtok: 6,
      max_output_tokens: 64_000,
      cache_breakpoints: false,
      routes: [{ provider_id: alpha, upstream_model: 'claude-sonnet-4-5' }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      max_output_tokens: 64_000,
      cache_breakpoints: false,
      cache_write_price_per_mtok: 3.75,
      cache_write_1h_price_per_mtok: 6,
      effective_price: {
        source: 'model',
        cache_write_price_per_mtok: 3.75,
        cache_write_1h_price_per_mtok: 6,
      },
    });
    expect((await asAdmin('GET', `/api/admin/models/${res.body.id}`)).body).toEqual(res.body);
    const [audit] = await h.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'model.create'), eq(auditLog.resourceId, res.body.id)));
    expect(audit?.details).toMatchObject({
      name: 'agent-anth',
      settings: {
        max_output_tokens: 64_000,
        cache_breakpoints: false,
        cache_write_price_per_mtok: 3.75,
        cache_write_1h_price_per_mtok: 6,
      },
    });
    // What the gateway resolves: the model's cap and breakpoint choice travel with it.
    expect(await resolveModelRoutes(gatewayDb, 'agent-anth')).toMatchObject({
      maxOutputTokens: 64_000,
      cacheBreakpoints: false,
      cacheWritePricePerMtok: 3.75,
      cacheWrite1hPricePerMtok: 6,
    });
    expect((await asAdmin('DELETE', `/api/admin/models/${res.body.id}`)).status).toBe(204);
  });

  it('creates a priced model with fractional weights', async () => {
    const res = await asAdmin('POST', '/api/admin/models', {
      name: 'claude-house',
      input_weight: 0.5,
      output_weight: 2.5,
      input_price_per_mtok: 3,
      output_price_per_mtok: 0,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ input_weight: 0.5, output_weight: 2.5, is_priced: true, routes: [] });
  });

  it('refuses a duplicate name with 409', async () => {
    expect((await asAdmin('POST', '/api/admin/models', { name: 'gpt-house' })).status).toBe(409);
  });

  it('refuses an unknown provider with 422 naming the route', async () => {
    const res = await asAdmin('POST', '/api/admin/models', {
      name: 'orphan',
      routes: [
        { provider_id: alpha, upstream_model: 'm' },
        { provider_id: UNKNOWN_ID, upstream_model: 'm' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ path: 'routes.1.provider_id', message: 'provider not found' }]);
    expect(
      (await asAdmin('GET', '/api/admin/models')).body.map((m: { name: string }) => m.name),
    ).not.toContain('orphan');
  });

  const route = (patch: Record<string, unknown>) => ({
    provider_id: UNKNOWN_ID,
    upstream_model: 'm',
    ...patch,
  });
  it.each([
    ['an empty name', { name: '' }],
    ['whitespace in the name', { name: 'gpt house' }],
    ['a name over 200 characters', { name: 'm'.repeat(201) }],
    ['a zero rpm_cap', { name: 'a', routes: [route({ rpm_cap: 0 })] }],
    ['a fractional tpm_cap', { name: 'a', routes: [route({ tpm_cap: 1.5 })] }],
    ['a negative weight', { name: 'a', routes: [route({ weight: -1 })] }],
    ['an empty upstream_model', { name: 'a', routes: [route({ upstream_model: '' })] }],
    ['a malformed provider_id', { name: 'a', routes: [route({ provider_id: 'p-alpha' })] }],
    ['a negative price', { name: 'a', input_price_per_mtok: -0.01 }],
    ['a zero input_weight', { name: 'a', input_weight: 0 }],
    ['a zero max_output_tokens', { name: 'a', max_output_tokens: 0 }],
    ['a max_output_tokens over 2,000,000', { name: 'a', max_output_tokens: 2_000_001 }],
    ['a fractional max_output_tokens', { name: 'a', max_output_tokens: 1.5 }],
    ['a cache_breakpoints that is not a boolean', { name: 'a', cache_breakpoints: 'yes' }],
    ['a negative cache write price', { name: 'a', cache_write_price_per_mtok: -1 }],
    ['a one-hour cache write price as a string', { name: 'a', cache_write_1h_price_per_mtok: '6' }],
  ])('refuses %s with 422', async (_label, body) => {
    const res = await asAdmin('POST', '/api/admin/models', body);
    expect(res.status).toBe(422);
    expect(res.body.error.type).toBe('validation_error');
  });
});

describe('GET /api/admin/models', () => {
  it('lists models by name with their routes', async () => {
    const res = await asAdmin('GET', '/api/admin/models');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(res.body.map((m: { name: string }) => m.name)).toEqual(['claude-house', 'gpt-house']);
    expect(res.body[1].routes.map((r: { position: number }) => r.position)).toEqual([0, 1]);
    // A page holds each of its models whole, with every route.
    const second = await asAdmin('GET', '/api/admin/models?limit=1&offset=1');
    expect(second.headers.get('x-total-count')).toBe('2');
    expect(second.body).toEqual([res.body[1]]);
  });

  it('lists only unpriced models at /unpriced', async () => {
    const res = await asAdmin('GET', '/api/admin/models/unpriced');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('1');
    expect(res.body.map((m: { name: string }) => m.name)).toEqual(['gpt-house']);
    expect(res.body[0].routes).toHaveLength(2);
    const past = await asAdmin('GET', '/api/admin/models/unpriced?offset=1');
    expect(past.body).toEqual([]);
    expect(past.headers.get('x-total-count')).toBe('1');
  });

  it('reads one model, and answers 404 for an unknown or malformed id', async () => {
    expect((await asAdmin('GET', `/api/admin/models/${modelId}`)).body.name).toBe('gpt-house');
    for (const id of [UNKNOWN_ID, 'nope'])
      expect((await asAdmin('GET', `/api/admin/models/${id}`)).status).toBe(404);
  });
});

describe('PATCH /api/admin/models/{id}', () => {
  it('changes prices and active state, and audits the change', async () => {
    const res = await asAdmin('PATCH', `/api/admin/models/${modelId}`, {
      input_price_per_mtok: 2.5,
      output_price_per_mtok: 10,
      is_active: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ is_priced: true, is_active: false, input_price_per_mtok: 2.5 });
    expect(res.body.routes).toHaveLength(2);
    const [audit] = await h.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'model.update'), eq(auditLog.resourceId, modelId)));
    expect(audit?.details).toMatchObject({
      changes: ['input_price_per_mtok', 'is_active', 'output_price_per_mtok'],
    });
  });

  it('sets and clears the output cap, cache breakpoints and cache write prices, and audits the new values', async () => {
    const res = await asAdmin('PATCH', `/api/admin/models/${modelId}`, {
      max_output_tokens: 2_000_000,
      cache_breakpoints: false,
      cache_write_price_per_mtok: 1.25,
      cache_write_1h_price_per_mtok: 2,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      max_output_tokens: 2_000_000,
      cache_breakpoints: false,
      cache_write_price_per_mtok: 1.25,
      cache_write_1h_price_per_mtok: 2,
      // Its own prices are set (above): the write prices are its own too.
      effective_price: {
        source: 'model',
        cache_write_price_per_mtok: 1.25,
        cache_write_1h_price_per_mtok: 2,
      },
    });
    const audits = await h.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'model.update'), eq(auditLog.resourceId, modelId)));
    expect(audits.map((a) => a.details)).toContainEqual(
      expect.objectContaining({
        changes: [
          'cache_breakpoints',
          'cache_write_1h_price_per_mtok',
          'cache_write_price_per_mtok',
          'max_output_tokens',
        ],
        settings: {
          max_output_tokens: 2_000_000,
          cache_breakpoints: false,
          cache_write_price_per_mtok: 1.25,
          cache_write_1h_price_per_mtok: 2,
        },
      }),
    );
    const cleared = await asAdmin('PATCH', `/api/admin/models/${modelId}`, {
      max_output_tokens: null,
      cache_breakpoints: true,
      cache_write_price_per_mtok: null,
      cache_write_1h_price_per_mtok: null,
    });
    expect(cleared.body).toMatchObject({
      max_output_tokens: null,
      cache_breakpoints: true,
      cache_write_price_per_mtok: null,
      cache_write_1h_price_per_mtok: null,
    });
    for (const bad of [{ max_output_tokens: -5 }, { cache_breakpoints: null }, { max_output_token: 5 }]) {
      expect((await asAdmin('PATCH', `/api/admin/models/${modelId}`, bad)).status, JSON.stringify(bad)).toBe(
        422,
      );
    }
  });

  it('clears a price with null, renames, and replaces routes when given', async () => {
    const res = await asAdmin('PATCH', `/api/admin/models/${modelId}`, {
      name: 'gpt-home',
      output_price_per_mtok: null,
      is_active: true,
      routes: [{ provider_id: alpha, upstream_model: 'house-4.1' }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'gpt-home', is_priced: false });
    expect(res.body.routes).toMatchObject([{ provider_id: alpha, upstream_model: 'house-4.1', position: 0 }]);
  });

  it('refuses a rename onto an existing name with 409, also when two renames race', async () => {
    expect((await asAdmin('PATCH', `/api/admin/models/${modelId}`, { name: 'claude-house' })).status).toBe(
      409,
    );
    const a = (await asAdmin('POST', '/api/admin/models', { name: 'race-a' })).body.id;
    const b = (await asAdmin('POST', '/api/admin/models', { name: 'race-b' })).body.id;
    const results = await Promise.all(
      [a, b].map((id) => asAdmin('PATCH', `/api/admin/models/${id}`, { name: 'race-winner' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [UNKNOWN_ID, 'nope']) {
      expect((await asAdmin('PATCH', `/api/admin/models/${id}`, { is_active: true })).status).toBe(404);
    }
  });

  it.each([
    ['an empty body', {}],
    ['an unknown field', { display_name: 'x' }],
    ['a negative price', { output_price_per_mtok: -1 }],
    ['an unknown provider in routes', { routes: [{ provider_id: UNKNOWN_ID, upstream_model: 'm' }] }],
  ])('refuses %s with 422', async (_label, body) => {
    expect((await asAdmin('PATCH', `/api/admin/models/${modelId}`, body)).status).toBe(422);
  });
});

describe('PUT /api/admin/models/{id}/routes', () => {
  it('replaces the ordered list; position is the array index', async () => {
    const res = await asAdmin('PUT', `/api/admin/models/${modelId}/routes`, {
      routes: [
        { provider_id: beta, upstream_model: 'second-choice' },
        { provider_id: alpha, upstream_model: 'first-choice', tpm_cap: 5000 },
        { provider_id: beta, upstream_model: 'third-choice', is_active: false },
      ].reverse(),
    });
    expect(res.status).toBe(200);
    expect(
      res.body.routes.map((r: { upstream_model: string; position: number }) => [
        r.position,
        r.upstream_model,
      ]),
    ).toEqual([
      [0, 'third-choice'],
      [1, 'first-choice'],
      [2, 'second-choice'],
    ]);
    const [audit] = await h.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'model.routes.update'), eq(auditLog.resourceId, modelId)));
    expect((audit?.details as { routes: unknown[] }).routes).toHaveLength(3);
  });

  it('is atomic: an unknown provider (422) leaves the old list in place', async () => {
    const res = await asAdmin('PUT', `/api/admin/models/${modelId}/routes`, {
      routes: [
        { provider_id: alpha, upstream_model: 'new' },
        { provider_id: UNKNOWN_ID, upstream_model: 'x' },
      ],
    });
    expect(res.status).toBe(422);
    expect((await asAdmin('GET', `/api/admin/models/${modelId}`)).body.routes).toHaveLength(3);
  });

  it.each([
    ['a missing routes field', {}],
    ['a bare array', []],
    ['a zero weight', { routes: [{ provider_id: alpha, upstream_model: 'm', weight: 0 }] }],
  ])('refuses %s with 422', async (_label, body) => {
    expect((await asAdmin('PUT', `/api/admin/models/${modelId}/routes`, body)).status).toBe(422);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [UNKNOWN_ID, 'nope']) {
      expect((await asAdmin('PUT', `/api/admin/models/${id}/routes`, { routes: [] })).status).toBe(404);
    }
  });
});

describe('DELETE /api/admin/models/{id}', () => {
  it('deletes a model and its routes, and audits it', async () => {
    const created = await asAdmin('POST', '/api/admin/models', {
      name: 'doomed',
      routes: [{ provider_id: alpha, upstream_model: 'm' }],
    });
    const res = await asAdmin('DELETE', `/api/admin/models/${created.body.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await asAdmin('GET', `/api/admin/models/${created.body.id}`)).status).toBe(404);
    const [audit] = await h.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'model.delete'), eq(auditLog.resourceId, created.body.id)));
    expect(audit?.details).toEqual({ name: 'doomed' });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [UNKNOWN_ID, 'nope'])
      expect((await asAdmin('DELETE', `/api/admin/models/${id}`)).status).toBe(404);
  });
});

describe('resolveModelRoutes', () => {
  let gamma: string;

  beforeAll(async () => {
    gamma = await createProvider('p-gamma');
    await asAdmin('POST', '/api/admin/models', {
      name: 'resolve-me',
      input_weight: 2,
      input_price_per_mtok: 1,
      output_price_per_mtok: 4,
      routes: [
        { provider_id: gamma, upstream_model: 'on-inactive-provider' },
        { provider_id: beta, upstream_model: 'inactive-route', is_active: false },
        { provider_id: alpha, upstream_model: 'primary', rpm_cap: 10, tpm_cap: 2000, weight: 5 },
        { provider_id: beta, upstream_model: 'fallback' },
      ],
    });
    await asAdmin('PATCH', `/api/admin/providers/${gamma}`, { is_active: false });
    await asAdmin('POST', '/api/admin/models', { name: 'p-alpha/shadowed', is_active: false });
    await asAdmin('POST', '/api/admin/models', {
      name: 'off-model',
      is_active: false,
      routes: [{ provider_id: alpha, upstream_model: 'm' }],
    });
    await asAdmin('POST', '/api/admin/models', {
      name: 'all-off',
      routes: [{ provider_id: alpha, upstream_model: 'm', is_active: false }],
    });
  });

  it('returns the active routes on active providers, in order, with what the gateway needs', async () => {
    for (const db of [gatewayDb, h.deps.db]) {
      const resolved = await resolveModelRoutes(db, 'resolve-me');
      expect(resolved).toMatchObject({
        source: 'configured',
        name: 'resolve-me',
        inputWeight: 2,
        outputWeight: 1,
        inputPricePerMtok: 1,
        outputPricePerMtok: 4,
      });
      expect(resolved?.routes).toEqual([
        {
          routeId: expect.any(String),
          providerId: alpha,
          providerName: 'p-alpha',
          providerType: 'openai',
          baseUrl: 'https://p-alpha.example/v1',
          apiKeyEncrypted: expect.stringMatching(/^v1\./),
          config: {},
          upstreamModel: 'primary',
          rpmCap: 10,
          tpmCap: 2000,
          weight: 5,
          tablePrice: null,
        },
        expect.objectContaining({ providerId: beta, upstreamModel: 'fallback', rpmCap: null, weight: 1 }),
      ]);
      expect(await h.deps.secrets.decrypt(resolved!.routes[0]!.apiKeyEncrypted)).toBe('sk-p-alpha');
    }
  });

  it('addresses an active provider directly as provider_name/upstream_model', async () => {
    const resolved = await resolveModelRoutes(gatewayDb, 'p-beta/vendor/model-x');
    expect(resolved).toMatchObject({ source: 'direct', modelId: null, inputPricePerMtok: null });
    expect(resolved?.routes).toEqual([
      expect.objectContaining({
        routeId: null,
        providerId: beta,
        upstreamModel: 'vendor/model-x',
        weight: 1,
      }),
    ]);
  });

  it.each([
    ['an unknown name', 'no-such-model'],
    ['an inactive model', 'off-model'],
    ['a model whose routes are all inactive', 'all-off'],
    ['an inactive configured model shadowing direct addressing', 'p-alpha/shadowed'],
    ['an inactive provider addressed directly', 'p-gamma/anything'],
    ['an unknown provider addressed directly', 'p-zeta/anything'],
    ['a malformed direct name', 'P-Alpha/anything'],
  ])('is null for %s', async (_label, name) => {
    expect(await resolveModelRoutes(gatewayDb, name)).toBeNull();
  });

  it('answered every call as the OpenAPI document says', () => {
    expect(checked.problems).toEqual([]);
  });
});
