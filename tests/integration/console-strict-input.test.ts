// Validation errors (422) and unknown ids (404): strict schemas (an unknown field is a 422 that
// names it), a write that takes no body refuses one, and an unknown id is a 404 before any 422.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { appEnv, freshDatabase } from '../helpers/stores';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const admin = { email: 'root@strict.example', display_name: 'Root', password: 'root-password-1' };

let h: ConsoleHarness;
let token: string;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field.
async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const options = typeof body === 'string' ? { raw: body, token } : { body, token };
  const res = await h.call(method, path, options);
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

const detailPaths = (res: { body: { error: { details: Array<{ path: string }> } } }) =>
  res.body.error.details.map((d) => d.path);

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_strict')));
  token = (await h.call('POST', '/api/setup/initialize', { body: { admin } }).then((r) => r.json()))
    .access_token;
});
afterAll(() => h.close());

describe('unknown fields', () => {
  it('are a 422 naming each one, nested ones by path, and nothing is created', async () => {
    const provider = await api('POST', '/api/admin/providers', {
      name: 'strict-p',
      display_name: 'P',
      provider_type: 'openai',
      base_url: 'https://p.example/v1',
      api_key: 'sk-strict',
      colour: 'red',
    });
    expect(provider.status).toBe(422);
    expect(detailPaths(provider)).toEqual(['colour']);
    expect(provider.body.error.message).toContain('colour is not a known field');
    expect((await api('GET', '/api/admin/providers')).body).toEqual([]);

    const created = await api('POST', '/api/admin/providers', {
      name: 'strict-p',
      display_name: 'P',
      provider_type: 'openai',
      base_url: 'https://p.example/v1',
      api_key: 'sk-strict',
    });
    expect(created.status).toBe(201);
    const model = await api('POST', '/api/admin/models', {
      name: 'strict-m',
      routes: [{ provider_id: created.body.id, upstream_model: 'gpt-4o', priority: 1 }],
    });
    expect(model.status).toBe(422);
    expect(detailPaths(model)).toEqual(['routes.0.priority']);
    expect((await api('GET', '/api/admin/models')).body).toEqual([]);
  });

  it('apply to the unauthenticated endpoints too', async () => {
    const res = await h.call('POST', '/api/auth/login', {
      body: { email: admin.email, password: admin.password, remember_me: true },
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('remember_me');
  });
});

describe('a write that takes no body', () => {
  it('refuses one (422), and accepts none, an empty object or null', async () => {
    const key = await api('POST', '/api/keys', { name: 'strict-key' });
    expect(key.status).toBe(201);
    const rotate = `/api/keys/${key.body.id}/rotate`;
    const refused = await api('POST', rotate, { expires_in_days: 3 });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toContain('takes no request body');
    expect((await api('POST', rotate)).status).toBe(200);
    expect((await api('POST', rotate, {})).status).toBe(200);
    expect((await api('POST', rotate, 'null')).status).toBe(200);
  });
});

describe('an unknown id', () => {
  it('is a 404 before the body is validated, for every kind of bad body', async () => {
    const bodies: unknown[] = [{ name: 42 }, { no_such_field: 1 }, '[1,2]'];
    const paths = [
      ['PATCH', `/api/admin/models/${UNKNOWN_ID}`],
      ['PUT', `/api/admin/models/${UNKNOWN_ID}/routes`],
      ['PATCH', `/api/admin/providers/${UNKNOWN_ID}`],
      ['PATCH', `/api/admin/teams/${UNKNOWN_ID}`],
      ['PUT', `/api/admin/teams/${UNKNOWN_ID}/members`],
      ['PATCH', `/api/admin/roles/${UNKNOWN_ID}`],
      ['PATCH', `/api/admin/users/${UNKNOWN_ID}`],
      ['PATCH', `/api/mcp/servers/${UNKNOWN_ID}`],
      ['PATCH', `/api/keys/${UNKNOWN_ID}`],
    ];
    for (const [method = '', path = ''] of paths) {
      for (const body of bodies) {
        const res = await api(method, path, body);
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(404);
      }
    }
    const rotate = await api('POST', `/api/keys/${UNKNOWN_ID}/rotate`, { a: 1 });
    expect(rotate.status).toBe(404);
    const remove = await api('DELETE', `/api/admin/teams/${UNKNOWN_ID}`, { a: 1 });
    expect(remove.status).toBe(404);
  });

  it('while a known id with the same bad body is a 422', async () => {
    const team = await api('POST', '/api/admin/teams', { name: 'strict-team' });
    expect(team.status).toBe(201);
    const res = await api('PATCH', `/api/admin/teams/${team.body.id}`, { name: 'renamed', no_such_field: 1 });
    expect(res.status).toBe(422);
    expect(detailPaths(res)).toEqual(['no_such_field']);
  });
});
