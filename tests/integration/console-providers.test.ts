// Providers in the console (docs/providers-and-models.md): admin JWT only; the provider resource;
// errors (admin 403, duplicate name 409, GET/DELETE 404); credentials encrypted, never returned.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, modelRoutes, providers } from '../../shared/src/db/schema';
import { resolveModelRoutes } from '../../shared/src/routing/resolve';
import { type CheckedApi, type CheckedCallOptions, checkedApi, signUp } from '../helpers/checked-api';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { appEnv, freshDatabase } from '../helpers/stores';

const IP = '198.51.100.32';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const admin = { email: 'root@providers.example', display_name: 'Root', password: 'root-password-1' };
const member = { email: 'member@providers.example', display_name: 'Member', password: 'member-password-1' };
const SETUP_KEY = 'sk-setup-secret-0001';
const FIRST_KEY = 'sk-first-secret-0002';
const REPLACED_KEY = 'sk-replaced-secret-0003';
const SECRETS = [SETUP_KEY, FIRST_KEY, REPLACED_KEY];
const input = {
  name: 'acme-main',
  display_name: 'Acme',
  provider_type: 'anthropic',
  base_url: 'https://api.acme.example/v1',
  api_key: FIRST_KEY,
};

let h: ConsoleHarness;
let checked: CheckedApi;
/** Raw text of every response, to prove no api_key ever leaves the server. */
const seen: string[] = [];
let adminToken: string;
let memberToken: string;
let providerId: string;

async function api(method: string, path: string, options?: CheckedCallOptions) {
  const reply = await checked.call(method, path, options);
  seen.push(reply.text);
  return reply;
}

const asAdmin = (method: string, path: string, body?: unknown) =>
  api(method, path, { token: adminToken, body });

async function storedKey(id: string): Promise<string> {
  const [row] = await h.deps.db.select().from(providers).where(eq(providers.id, id));
  expect(row?.apiKeyEncrypted).toMatch(/^v1\./);
  for (const secret of SECRETS) expect(row?.apiKeyEncrypted).not.toContain(secret);
  return h.deps.secrets.decrypt(row!.apiKeyEncrypted);
}

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_providers')));
  checked = await checkedApi(h, { ip: IP });
  const setupProvider = { ...input, name: 'setup-prov', provider_type: 'openai', api_key: SETUP_KEY };
  const init = await api('POST', '/api/setup/initialize', { body: { admin, provider: setupProvider } });
  expect(init.status).toBe(200);
  adminToken = init.body.access_token;
  memberToken = (await signUp(checked, member)).token;
});
afterAll(() => h.close());

describe('admin providers: authentication and authorisation', () => {
  const calls: Array<[string, string, unknown?]> = [
    ['GET', '/api/admin/providers'],
    ['POST', '/api/admin/providers', input],
    ['GET', `/api/admin/providers/${UNKNOWN_ID}`],
    ['PATCH', `/api/admin/providers/${UNKNOWN_ID}`, { display_name: 'X' }],
    ['DELETE', `/api/admin/providers/${UNKNOWN_ID}`],
  ];

  it.each(calls)('%s %s: 401 without or with an invalid JWT', async (method, path, body) => {
    expect((await api(method, path, { body })).status).toBe(401);
    expect((await api(method, path, { body, token: 'not-a-jwt' })).status).toBe(401);
  });

  it.each(calls)('%s %s: 403 for a non-admin', async (method, path, body) => {
    const res = await api(method, path, { body, token: memberToken });
    expect(res.status).toBe(403);
    expect(res.body.error.type).toBe('permission_error');
  });
});

describe('POST and GET /api/admin/providers', () => {
  it('creates a provider with the documented shape and stores its key encrypted', async () => {
    const res = await asAdmin('POST', '/api/admin/providers', input);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([
      'base_url',
      'config',
      'created_at',
      'display_name',
      'id',
      'is_active',
      'name',
      'provider_type',
    ]);
    expect(res.body).toMatchObject({
      name: 'acme-main',
      provider_type: 'anthropic',
      is_active: true,
      config: {},
    });
    providerId = res.body.id;
    expect(await storedKey(providerId)).toBe(FIRST_KEY);
    const [audit] = await h.deps.db.select().from(auditLog).where(eq(auditLog.resourceId, providerId));
    expect(audit).toMatchObject({ action: 'provider.create', userEmail: admin.email, ipAddress: IP });
    expect(audit?.details).toEqual({ name: 'acme-main', provider_type: 'anthropic' });
  });

  it('lists providers by name, the setup provider included, without keys', async () => {
    const res = await asAdmin('GET', '/api/admin/providers');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(res.body.map((p: { name: string }) => p.name)).toEqual(['acme-main', 'setup-prov']);
    expect(res.text).not.toMatch(/api_key|encrypted/);
  });

  it('reads one provider, and answers 404 for an unknown or malformed id', async () => {
    const res = await asAdmin('GET', `/api/admin/providers/${providerId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: providerId, base_url: input.base_url });
    for (const id of [UNKNOWN_ID, 'nope']) {
      const missing = await asAdmin('GET', `/api/admin/providers/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: { message: expect.any(String), type: 'not_found_error' } });
    }
  });

  it('refuses a duplicate name with 409', async () => {
    const res = await asAdmin('POST', '/api/admin/providers', { ...input, display_name: 'Other' });
    expect(res.status).toBe(409);
    expect(res.body.error.type).toBe('conflict_error');
  });

  it.each([
    ['a missing api_key', { ...input, name: 'p1', api_key: undefined }],
    ['an empty api_key', { ...input, name: 'p2', api_key: '' }],
    ['an unknown provider_type', { ...input, name: 'p3', provider_type: 'openai2' }],
    ['a non-http base_url', { ...input, name: 'p4', base_url: 'ftp://files.example' }],
    ['an uppercase name', { ...input, name: 'Acme' }],
    ['a missing display_name', { ...input, name: 'p5', display_name: undefined }],
  ])('refuses %s with 422', async (_label, body) => {
    const res = await asAdmin('POST', '/api/admin/providers', body);
    expect(res.status).toBe(422);
    expect(res.body.error.type).toBe('validation_error');
  });
});

describe('PATCH /api/admin/providers/{id}', () => {
  it('changes display name, base URL and active state', async () => {
    const res = await asAdmin('PATCH', `/api/admin/providers/${providerId}`, {
      display_name: 'Acme EU',
      base_url: 'http://eu.acme.example/v1',
      is_active: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      display_name: 'Acme EU',
      base_url: 'http://eu.acme.example/v1',
      is_active: false,
    });
    expect(await storedKey(providerId)).toBe(FIRST_KEY);
  });

  it('replaces the api_key without returning or auditing it', async () => {
    const res = await asAdmin('PATCH', `/api/admin/providers/${providerId}`, { api_key: REPLACED_KEY });
    expect(res.status).toBe(200);
    expect(await storedKey(providerId)).toBe(REPLACED_KEY);
    const updates = await h.deps.db.select().from(auditLog).where(eq(auditLog.action, 'provider.update'));
    expect(updates.map((a) => a.details)).toEqual(
      expect.arrayContaining([{ name: 'acme-main', changes: ['api_key'] }]),
    );
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [UNKNOWN_ID, 'nope']) {
      expect((await asAdmin('PATCH', `/api/admin/providers/${id}`, { display_name: 'X' })).status).toBe(404);
    }
  });

  it.each([
    ['an empty body', {}],
    ['a read-only name', { name: 'renamed' }],
    ['a read-only provider_type', { provider_type: 'custom' }],
    ['a bad base_url', { base_url: 'not a url' }],
    ['an empty api_key', { api_key: '' }],
  ])('refuses %s with 422', async (_label, body) => {
    expect((await asAdmin('PATCH', `/api/admin/providers/${providerId}`, body)).status).toBe(422);
  });
});

describe('DELETE /api/admin/providers/{id}', () => {
  it('deletes the provider and its routes, so its models stop resolving', async () => {
    await asAdmin('PATCH', `/api/admin/providers/${providerId}`, { is_active: true });
    const model = await asAdmin('POST', '/api/admin/models', {
      name: 'acme-large',
      routes: [{ provider_id: providerId, upstream_model: 'large-2' }],
    });
    expect(model.status).toBe(201);
    expect((await resolveModelRoutes(h.deps.db, 'acme-large'))?.routes).toHaveLength(1);

    const res = await asAdmin('DELETE', `/api/admin/providers/${providerId}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await asAdmin('GET', `/api/admin/providers/${providerId}`)).status).toBe(404);
    expect(await h.deps.db.select().from(modelRoutes).where(eq(modelRoutes.providerId, providerId))).toEqual(
      [],
    );
    expect((await asAdmin('GET', `/api/admin/models/${model.body.id}`)).body.routes).toEqual([]);
    expect(await resolveModelRoutes(h.deps.db, 'acme-large')).toBeNull();
    const [audit] = await h.deps.db.select().from(auditLog).where(eq(auditLog.action, 'provider.delete'));
    expect(audit?.details).toEqual({ name: 'acme-main', provider_type: 'anthropic', routes_removed: 1 });
  });

  it('answers 404 for an unknown, already deleted or malformed id', async () => {
    for (const id of [UNKNOWN_ID, providerId, 'nope']) {
      expect((await asAdmin('DELETE', `/api/admin/providers/${id}`)).status).toBe(404);
    }
  });
});

describe('provider config', () => {
  it('keeps per-type config (Bedrock region, Azure deployment) and validates it', async () => {
    const bedrock = await asAdmin('POST', '/api/admin/providers', {
      ...input,
      name: 'aws-bedrock',
      provider_type: 'bedrock',
      api_key: 'AKIAEXAMPLE:secretvalue',
      config: { region: 'eu-west-1' },
    });
    expect(bedrock.status).toBe(201);
    expect(bedrock.body.config).toEqual({ region: 'eu-west-1' });
    const bad = await asAdmin('POST', '/api/admin/providers', {
      ...input,
      name: 'bad-config',
      config: { region: 'not a region', colour: 'blue' },
    });
    expect(bad.status).toBe(422);
    const paths = bad.body.error.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual(['config.colour', 'config.region']);
    const patched = await asAdmin('PATCH', `/api/admin/providers/${bedrock.body.id}`, {
      config: { region: 'us-east-1' },
    });
    expect(patched.body.config).toEqual({ region: 'us-east-1' });
    expect((await asAdmin('DELETE', `/api/admin/providers/${bedrock.body.id}`)).status).toBe(204);
  });
});

describe('secrets', () => {
  it('never sent an api_key in any response, nor wrote one to the audit log', async () => {
    expect(seen.length).toBeGreaterThan(40);
    for (const text of seen) for (const secret of SECRETS) expect(text).not.toContain(secret);
    const audit = JSON.stringify(await h.deps.db.select().from(auditLog));
    for (const secret of SECRETS) expect(audit).not.toContain(secret);
  });

  it('answered every call as the OpenAPI document says', () => {
    expect(checked.problems).toEqual([]);
  });
});
