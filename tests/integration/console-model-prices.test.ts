// Pricing: the price table in the console (GET/PUT/DELETE /api/admin/model-prices),
// the seeded entries of the five vendor families, and each model's effective price in the
// models admin API (own prices > price-table entry of the route's upstream model > none).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPriceRows, toPriceEntry } from '../../shared/src/pricing/repo';
import { toPriceTable } from '../../shared/src/pricing/types';
import { resolveModelRoutes } from '../../shared/src/routing/resolve';
import { type CheckedApi, type CheckedCallOptions, checkedApi, signUp } from '../helpers/checked-api';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { auditOf } from '../helpers/console-changes';
import { appEnv, freshDatabase } from '../helpers/stores';
import { inline, warmCachesOver } from '../helpers/warm-caches';

const admin = { email: 'root@prices.example', display_name: 'Root', password: 'root-password-1' };
const member = { email: 'member@prices.example', display_name: 'Member', password: 'member-password-1' };

let h: ConsoleHarness;
let checked: CheckedApi;
let adminToken: string;
let memberToken: string;
let providerId: string;

const api = (method: string, path: string, options?: CheckedCallOptions) =>
  checked.call(method, path, options);
const asAdmin = (method: string, path: string, body?: unknown) =>
  api(method, path, { token: adminToken, body });
const price = (patch: Record<string, unknown> = {}) => ({
  vendor: 'acme',
  input_price_per_mtok: 1.5,
  output_price_per_mtok: 6,
  ...patch,
});

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_p_model_prices')));
  checked = await checkedApi(h);
  adminToken = (await api('POST', '/api/setup/initialize', { body: { admin } })).body.access_token;
  memberToken = (await signUp(checked, member)).token;
  const provider = await asAdmin('POST', '/api/admin/providers', {
    name: 'p-prices',
    display_name: 'P',
    provider_type: 'openai',
    base_url: 'https://p-prices.example/v1',
    api_key: 'sk-p-prices',
  });
  providerId = provider.body.id;
});
afterAll(() => h.close());

describe('model prices: authentication and authorisation', () => {
  const calls: Array<[string, string, unknown?]> = [
    ['GET', '/api/admin/model-prices'],
    ['PUT', '/api/admin/model-prices/acme-1', price()],
    ['DELETE', '/api/admin/model-prices/gpt-4o'],
  ];
  it.each(calls)('%s %s: 401 without a JWT, 403 for a non-admin', async (method, path, body) => {
    expect((await api(method, path, { body })).status).toBe(401);
    expect((await api(method, path, { body, token: memberToken })).status).toBe(403);
  });
});

describe('GET /api/admin/model-prices', () => {
  it('lists the seeded entries of the five vendor families, by vendor then model', async () => {
    const res = await asAdmin('GET', '/api/admin/model-prices?limit=200');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(Number(res.headers.get('x-total-count'))).toBe(res.body.length);
    const vendors = new Set(res.body.map((p: { vendor: string }) => p.vendor));
    expect([...vendors].sort()).toEqual(['anthropic', 'google', 'meta', 'mistral', 'openai']);
    const keys = res.body.map((p: { vendor: string; model: string }) => `${p.vendor}\u0000${p.model}`);
    expect(keys).toEqual([...keys].sort());
    const byModel = new Map(res.body.map((p: { model: string }) => [p.model, p]));
    for (const model of ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'o3', 'o4-mini', 'claude-sonnet-4']) {
      expect(byModel.has(model), model).toBe(true);
    }
    for (const model of ['claude-opus-4', 'claude-3-5-haiku', 'gemini-2.5-pro', 'gemini-2.5-flash']) {
      expect(byModel.has(model), model).toBe(true);
    }
    for (const model of [
      'mistral-large',
      'mistral-small',
      'llama3-3-70b-instruct',
      'llama-3.3-70b-versatile',
    ]) {
      expect(byModel.has(model), model).toBe(true);
    }
    expect(byModel.get('gpt-4o')).toMatchObject({
      vendor: 'openai',
      input_price_per_mtok: 2.5,
      output_price_per_mtok: 10,
      cached_input_price_per_mtok: 1.25,
    });
    // Anthropic's cache writes are seeded at 1.25x (five minutes) and 2x (one hour) the input price.
    expect(byModel.get('claude-sonnet-4')).toMatchObject({
      vendor: 'anthropic',
      input_price_per_mtok: 3,
      cache_write_price_per_mtok: 3.75,
      cache_write_1h_price_per_mtok: 6,
    });
    expect(byModel.get('gpt-4o')).toMatchObject({
      cache_write_price_per_mtok: null,
      cache_write_1h_price_per_mtok: null,
    });
    for (const p of res.body) {
      expect(p.input_price_per_mtok).toBeGreaterThan(0);
      expect(p.output_price_per_mtok).toBeGreaterThan(0);
    }
  });
});

describe('PUT /api/admin/model-prices/{model}', () => {
  it('creates an entry (201), lower-cased, and audits it', async () => {
    const res = await asAdmin(
      'PUT',
      '/api/admin/model-prices/Acme-Large',
      price({ cached_input_price_per_mtok: 0.5 }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      model: 'acme-large',
      vendor: 'acme',
      input_price_per_mtok: 1.5,
      output_price_per_mtok: 6,
      cached_input_price_per_mtok: 0.5,
    });
    const [audit] = await auditOf(h, 'model_price.create', 'acme-large');
    expect(audit).toMatchObject({ userEmail: admin.email, resourceType: 'model_price' });
    expect(audit?.details).toMatchObject({ model: 'acme-large', after: { input_price_per_mtok: 1.5 } });
  });

  it('replaces an entry (200), defaulting the cached price to null, and audits old and new', async () => {
    const res = await asAdmin(
      'PUT',
      '/api/admin/model-prices/acme-large',
      price({ output_price_per_mtok: 7 }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ output_price_per_mtok: 7, cached_input_price_per_mtok: null });
    const [audit] = await auditOf(h, 'model_price.update', 'acme-large');
    expect(audit?.details).toMatchObject({
      before: { output_price_per_mtok: 6, cached_input_price_per_mtok: 0.5 },
      after: { output_price_per_mtok: 7, cached_input_price_per_mtok: null },
    });
    const list = await asAdmin('GET', '/api/admin/model-prices?limit=200');
    expect(list.body.filter((p: { model: string }) => p.model === 'acme-large')).toHaveLength(1);
  });

  it('takes the two prompt-cache write prices, defaulting them to null, and audits them', async () => {
    const res = await asAdmin(
      'PUT',
      '/api/admin/model-prices/acme-cached',
      price({ cache_write_price_per_mtok: 1.875, cache_write_1h_price_per_mtok: 3 }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ cache_write_price_per_mtok: 1.875, cache_write_1h_price_per_mtok: 3 });
    const listed = (await asAdmin('GET', '/api/admin/model-prices?limit=200')).body.find(
      (p: { model: string }) => p.model === 'acme-cached',
    );
    expect(listed).toMatchObject({ cache_write_price_per_mtok: 1.875, cache_write_1h_price_per_mtok: 3 });
    const replaced = await asAdmin('PUT', '/api/admin/model-prices/acme-cached', price());
    expect(replaced.body).toMatchObject({
      cache_write_price_per_mtok: null,
      cache_write_1h_price_per_mtok: null,
    });
    const [audit] = await auditOf(h, 'model_price.update', 'acme-cached');
    expect(audit?.details).toMatchObject({
      before: { cache_write_price_per_mtok: 1.875, cache_write_1h_price_per_mtok: 3 },
      after: { cache_write_price_per_mtok: null, cache_write_1h_price_per_mtok: null },
    });
  });

  it('takes a namespaced name with an encoded slash, and free (0) prices', async () => {
    const res = await asAdmin(
      'PUT',
      '/api/admin/model-prices/acme%2Ftiny',
      price({ input_price_per_mtok: 0, output_price_per_mtok: 0 }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ model: 'acme/tiny', input_price_per_mtok: 0 });
  });

  it.each([
    ['a negative input price', price({ input_price_per_mtok: -0.01 })],
    ['a negative cached price', price({ cached_input_price_per_mtok: -1 })],
    ['a negative cache write price', price({ cache_write_price_per_mtok: -1 })],
    ['a one-hour write price given as a string', price({ cache_write_1h_price_per_mtok: '3' })],
    ['a price given as a string', price({ output_price_per_mtok: '6' })],
    ['a missing output price', { vendor: 'acme', input_price_per_mtok: 1 }],
    ['a missing vendor', { input_price_per_mtok: 1, output_price_per_mtok: 1 }],
    ['an unknown field', price({ currency: 'EUR' })],
    ['an absurd price', price({ input_price_per_mtok: 1e9 })],
  ])('refuses %s with 422 in the error envelope', async (_label, body) => {
    const res = await asAdmin('PUT', '/api/admin/model-prices/acme-bad', body);
    expect(res.status).toBe(422);
    expect(res.body.error.type).toBe('validation_error');
  });

  it('refuses a model name with whitespace or over 200 characters with 422', async () => {
    for (const name of ['acme%20bad', 'm'.repeat(201)]) {
      const res = await asAdmin('PUT', `/api/admin/model-prices/${name}`, price());
      expect(res.status, name).toBe(422);
      expect(res.body.error.details).toEqual([{ path: 'model', message: expect.any(String) }]);
    }
    const list = await asAdmin('GET', '/api/admin/model-prices?limit=200');
    expect(
      list.body.some((p: { model: string }) => p.model.startsWith('acme-bad') || p.model.startsWith('acme ')),
    ).toBe(false);
  });
});

describe('DELETE /api/admin/model-prices/{model}', () => {
  it('removes an entry (case-insensitively) and audits it; 404 when absent', async () => {
    await asAdmin('PUT', '/api/admin/model-prices/acme-doomed', price());
    expect((await asAdmin('DELETE', '/api/admin/model-prices/ACME-doomed')).status).toBe(204);
    expect((await asAdmin('DELETE', '/api/admin/model-prices/acme-doomed')).status).toBe(404);
    expect((await asAdmin('DELETE', '/api/admin/model-prices/never-there')).status).toBe(404);
    const [audit] = await auditOf(h, 'model_price.delete', 'acme-doomed');
    expect(audit?.details).toMatchObject({ model: 'acme-doomed', before: { vendor: 'acme' } });
  });
});

describe('effective prices in the models admin API', () => {
  const route = (upstream_model: string, extra: Record<string, unknown> = {}) => ({
    provider_id: providerId,
    upstream_model,
    ...extra,
  });

  it("shows a model's own prices (with the cached one) as source model", async () => {
    const res = await asAdmin('POST', '/api/admin/models', {
      name: 'own-priced',
      input_price_per_mtok: 1,
      output_price_per_mtok: 2,
      cached_input_price_per_mtok: 0.25,
      routes: [route('gpt-4o')],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      cached_input_price_per_mtok: 0.25,
      is_priced: true,
      effective_price: {
        source: 'model',
        input_price_per_mtok: 1,
        output_price_per_mtok: 2,
        cached_input_price_per_mtok: 0.25,
        cache_write_price_per_mtok: null,
        cache_write_1h_price_per_mtok: null,
        price_table_model: null,
      },
    });
    const patched = await asAdmin('PATCH', `/api/admin/models/${res.body.id}`, {
      cached_input_price_per_mtok: null,
    });
    expect(patched.body).toMatchObject({
      cached_input_price_per_mtok: null,
      effective_price: { source: 'model' },
    });
    const bad = await asAdmin('PATCH', `/api/admin/models/${res.body.id}`, {
      cached_input_price_per_mtok: -1,
    });
    expect(bad.status).toBe(422);
  });

  it('prices a model without own prices through the entry of its first active route', async () => {
    const res = await asAdmin('POST', '/api/admin/models', {
      name: 'table-priced',
      routes: [route('no-such-upstream', { is_active: false }), route('gpt-4o-2024-08-06'), route('other')],
    });
    expect(res.body).toMatchObject({
      input_price_per_mtok: null,
      is_priced: true,
      effective_price: {
        source: 'price_table',
        input_price_per_mtok: 2.5,
        output_price_per_mtok: 10,
        cached_input_price_per_mtok: 1.25,
        cache_write_price_per_mtok: null,
        cache_write_1h_price_per_mtok: null,
        price_table_model: 'gpt-4o',
      },
    });
    expect(
      res.body.routes.map((r: { effective_price: { source: string } }) => r.effective_price.source),
    ).toEqual(['none', 'price_table', 'none']);
  });

  it("shows the cache write prices of the model's own prices, or of the route's table entry", async () => {
    const own = await asAdmin('POST', '/api/admin/models', {
      name: 'own-write-priced',
      input_price_per_mtok: 2,
      output_price_per_mtok: 8,
      cache_write_price_per_mtok: 2.5,
      cache_write_1h_price_per_mtok: 4,
      routes: [route('claude-sonnet-4-20250514')],
    });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({
      cache_write_price_per_mtok: 2.5,
      cache_write_1h_price_per_mtok: 4,
      effective_price: { source: 'model', cache_write_price_per_mtok: 2.5, cache_write_1h_price_per_mtok: 4 },
    });
    const table = await asAdmin('POST', '/api/admin/models', {
      name: 'table-write-priced',
      routes: [route('claude-sonnet-4-20250514')],
    });
    expect(table.body).toMatchObject({
      cache_write_price_per_mtok: null,
      effective_price: {
        source: 'price_table',
        price_table_model: 'claude-sonnet-4',
        cache_write_price_per_mtok: 3.75,
        cache_write_1h_price_per_mtok: 6,
      },
    });
    expect(table.body.routes[0].effective_price).toMatchObject({ cache_write_1h_price_per_mtok: 6 });
    const cleared = await asAdmin('PATCH', `/api/admin/models/${own.body.id}`, {
      cache_write_1h_price_per_mtok: null,
    });
    expect(cleared.body.effective_price).toMatchObject({
      cache_write_price_per_mtok: 2.5,
      cache_write_1h_price_per_mtok: null,
    });
    await asAdmin('DELETE', `/api/admin/models/${own.body.id}`);
    await asAdmin('DELETE', `/api/admin/models/${table.body.id}`);
  });

  it('lists at /unpriced exactly the models whose requests would be unpriced', async () => {
    await asAdmin('POST', '/api/admin/models', { name: 'nothing-priced', routes: [route('acme-unknown')] });
    await asAdmin('POST', '/api/admin/models', { name: 'no-routes' });
    // An embedding model has no output: its input price alone prices it, whatever the table says.
    const embedding = await asAdmin('POST', '/api/admin/models', {
      name: 'embed-own-price',
      kind: 'embedding',
      input_price_per_mtok: 0.1,
      routes: [route('acme-unknown')],
    });
    expect(embedding.body.effective_price.source).toBe('model');
    const half = await asAdmin('POST', '/api/admin/models', {
      name: 'half-priced',
      input_price_per_mtok: 1,
      routes: [route('acme-large')],
    });
    expect(half.body.effective_price).toMatchObject({
      source: 'price_table',
      price_table_model: 'acme-large',
    });
    const res = await asAdmin('GET', '/api/admin/models/unpriced');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(res.body.map((m: { name: string }) => m.name)).toEqual(['no-routes', 'nothing-priced']);
    expect(res.body[1].effective_price).toEqual({
      source: 'none',
      input_price_per_mtok: null,
      output_price_per_mtok: null,
      cached_input_price_per_mtok: null,
      cache_write_price_per_mtok: null,
      cache_write_1h_price_per_mtok: null,
      price_table_model: null,
    });
  });

  it('follows price-table edits: a new entry prices the model, deleting it unprices it', async () => {
    const model = async () =>
      (await asAdmin('GET', '/api/admin/models?limit=200')).body.find(
        (m: { name: string }) => m.name === 'nothing-priced',
      );
    await asAdmin('PUT', '/api/admin/model-prices/acme-unknown', price({ input_price_per_mtok: 9 }));
    expect((await model()).effective_price).toMatchObject({ source: 'price_table', input_price_per_mtok: 9 });
    await asAdmin('DELETE', '/api/admin/model-prices/acme-unknown');
    expect((await model()).effective_price.source).toBe('none');
  });
});

describe('the gateway side: resolution carries the price-table entry of each route', () => {
  it('attaches the entry of the price table to each route, direct addressing included', async () => {
    const prices = async () => toPriceTable((await listPriceRows(h.deps.db)).map(toPriceEntry));
    const resolved = await resolveModelRoutes(h.deps.db, 'table-priced', prices);
    expect(resolved?.routes.map((r) => r.tablePrice?.model ?? null)).toEqual(['gpt-4o', null]);
    expect(resolved?.cachedInputPricePerMtok).toBeNull();
    const direct = await resolveModelRoutes(h.deps.db, 'p-prices/claude-sonnet-4-20250514', prices);
    expect(direct?.routes[0]?.tablePrice).toMatchObject({ model: 'claude-sonnet-4', inputPricePerMtok: 3 });
    // Without a price table nothing is attached.
    expect((await resolveModelRoutes(h.deps.db, 'table-priced'))?.routes[0]?.tablePrice).toBeNull();
  });

  it("reaches the gateways' isolate caches at once after a price edit", async () => {
    const warm = await warmCachesOver(h.deps.db, h.deps.redis);
    expect((await warm.model('table-priced', inline))?.routes[1]?.tablePrice).toBeNull();
    await asAdmin('PUT', '/api/admin/model-prices/other', price({ input_price_per_mtok: 4 }));
    // What an admission reply does on the gateway: the versions are read, the routing part moves.
    await warm.board.refresh(0);
    const after = await warm.model('table-priced', inline);
    expect(after?.routes[1]?.tablePrice).toMatchObject({ model: 'other', inputPricePerMtok: 4 });
  });

  it('answered every call as the OpenAPI document says', () => {
    expect(checked.problems).toEqual([]);
  });
});
