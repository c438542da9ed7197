// Limits on model requests and GET /v1/usage (docs/limits.md): the 429 refusal, fail-open or
// fail-closed when Redis cannot be reached, cache answers counted. The journey: an admin gives the
// `user` role 10 requests/1m and a key its own 1000-token daily budget; the owner hits each limit
// through the official openai SDK and /v1/usage shows the counters that refused.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gatewayHarness } from '../helpers/gateway';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
let userCount = 0;

interface Member {
  userId: string;
  token: string;
  key(body?: Record<string, unknown>): Promise<{ id: string; key: string }>;
}

/** A signed-up user with the `user` role, able to make keys of their own. */
async function member(): Promise<Member> {
  const email = `member${++userCount}@limits.example`;
  const password = 'member-password-1';
  const created = await h.admin('POST', '/api/admin/users', {
    email,
    display_name: 'M',
    password,
    role: 'user',
  });
  expect(created.status).toBe(201);
  const login = await h.console.call('POST', '/api/auth/login', { body: { email, password } });
  const { access_token: token } = (await login.json()) as { access_token: string };
  return {
    userId: created.body.id,
    token,
    async key(body = {}) {
      const res = await h.console.call('POST', '/api/keys', { token, body: { name: 'limits', ...body } });
      expect(res.status).toBe(201);
      return (await res.json()) as { id: string; key: string };
    },
  };
}

function client(apiKey: string, app = h.gateway.app): OpenAI {
  const fetchThroughApp = ((input: string | URL | Request, init?: RequestInit) =>
    app.request(input instanceof Request ? input : String(input), init)) as typeof fetch;
  return new OpenAI({ apiKey, baseURL: 'http://gateway.test/v1', fetch: fetchThroughApp, maxRetries: 0 });
}

async function usage(apiKey: string, app = h.gateway.app) {
  const res = await app.request('/v1/usage', { headers: { authorization: `Bearer ${apiKey}` } });
  // biome-ignore lint/suspicious/noExplicitAny: asserted field by field.
  return { status: res.status, body: (await res.json()) as any };
}

const ask = (text = 'hello limits') => ({
  model: 'm-openai',
  messages: [{ role: 'user' as const, content: text }],
});

async function refusal(
  call: Promise<unknown>,
): Promise<{ status: number; message: string; retryAfter: number }> {
  const error = await call.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  const api = error as InstanceType<typeof OpenAI.APIError>;
  return {
    status: api.status ?? 0,
    message: (api.error as { message?: string })?.message ?? '',
    retryAfter: Number(api.headers?.get('retry-after')),
  };
}

beforeAll(async () => {
  h = await proxyHarness('gateway_limits');
  const role = await h.admin('POST', '/api/admin/roles', {
    name: 'user',
    rules: [{ kind: 'requests', window: '1m', limit: 10 }],
  });
  expect(role.status).toBe(201);
});
afterAll(() => h.close());

describe('owner limits from the user role (scope user)', () => {
  it('admit 10 requests a minute, refuse the 11th naming user:requests/1m with Retry-After', async () => {
    const m = await member();
    const { key } = await m.key();
    const openai = client(key);
    for (let i = 0; i < 10; i++) {
      const { data, response } = await openai.chat.completions.create(ask()).withResponse();
      expect(data.choices[0]?.message.content).toBe('echo: hello limits');
      expect(response.headers.get('x-ratelimit-remaining-requests')).toBe(String(9 - i));
    }
    const refused = await refusal(openai.chat.completions.create(ask()));
    expect(refused.status).toBe(429);
    expect(refused.message).toBe('Rate limited: user:requests/1m');
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);

    const report = await usage(key);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({
      scope: 'user',
      usage: { requests_today: 10, requests_month: 10 },
      limits: [
        {
          scope: 'user',
          kind: 'requests',
          window: '1m',
          window_secs: 60,
          limit: 10,
          used: 10,
          resets_at: null,
        },
      ],
      expires_at: null,
    });
    // Tokens are added after the responses, in the isolate's next write-behind flush.
    await expect
      .poll(async () => (await usage(key)).body.usage.tokens_today, { timeout: 5000 })
      .toBeGreaterThan(0);
  });

  it('count the owner across all their keys; a refused model counts on nothing', async () => {
    const m = await member();
    const first = await m.key();
    const narrow = await m.key({ allowed_models: ['m-anthropic'] });
    await client(first.key).chat.completions.create(ask());
    const notAllowed = await refusal(client(narrow.key).chat.completions.create(ask()));
    expect(notAllowed.status).toBe(403);
    await client(narrow.key).chat.completions.create({ ...ask(), model: 'm-anthropic' });
    const report = await usage(narrow.key);
    expect(report.body.usage.requests_today).toBe(2);
    expect(report.body.limits[0].used).toBe(2);
  });
});

describe('a key with limits of its own (scope key)', () => {
  it('refuse with key:budget/daily once a large answer spends the budget; usage follows rotation', async () => {
    const m = await member();
    const k = await m.key();
    const put = await h.admin('PUT', `/api/admin/limits/api_key/${k.id}/budgets`, {
      budgets: [{ period: 'daily', limit_tokens: 1000 }],
    });
    expect(put.status).toBe(200);
    const openai = client(k.key);
    const long = Array.from({ length: 1200 }, (_, i) => `w${i}`).join(' ');
    await openai.chat.completions.create(ask(long));
    // Tokens are added after the response; give the waitUntil work a moment.
    await expect
      .poll(async () => (await usage(k.key)).body.usage.tokens_today, { timeout: 5000 })
      .toBeGreaterThan(1000);

    const refused = await refusal(openai.chat.completions.create(ask()));
    expect(refused.status).toBe(429);
    expect(refused.message).toBe('Rate limited: key:budget/daily');
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(Math.abs(refused.retryAfter - (midnight.getTime() - Date.now()) / 1000)).toBeLessThan(5);

    const report = (await usage(k.key)).body;
    expect(report.scope).toBe('key');
    expect(report.usage.requests_today).toBe(1);
    expect(report.limits).toEqual([
      expect.objectContaining({
        scope: 'key',
        kind: 'tokens',
        window: 'daily',
        window_secs: null,
        limit: 1000,
        resets_at: midnight.toISOString(),
      }),
    ]);
    expect(report.limits[0].used).toBe(report.usage.tokens_today);

    // The same counters follow the key across a rotation; expires_at is then the grace end.
    const rotated = await h.console.call('POST', `/api/keys/${k.id}/rotate`, { token: m.token });
    const fresh = (await rotated.json()) as { key: string; grace_period_ends_at: string };
    const after = (await usage(fresh.key)).body;
    expect(after.limits[0].used).toBe(report.limits[0].used);
    expect((await usage(k.key)).body.expires_at).toBe(fresh.grace_period_ends_at);
    expect((await refusal(client(fresh.key).chat.completions.create(ask()))).message).toBe(
      'Rate limited: key:budget/daily',
    );
  });

  it('count response-cache answers on requests and tokens', async () => {
    const m = await member();
    const k = await m.key();
    await h.admin('PUT', `/api/admin/limits/api_key/${k.id}/rules`, {
      rules: [{ kind: 'requests', window: '1h', limit: 100 }],
    });
    const openai = client(k.key);
    const body = ask('cache me please');
    await openai.chat.completions.create(body);
    // The answer is stored after the response: once it is in, the same request is a hit.
    const entry = await h.gateway.deps.proxy.cache.keyFor(`key:${k.id}`, 'openai-chat', body);
    await vi.waitFor(async () => expect(await h.gateway.deps.redis.get(entry)).not.toBeNull(), {
      timeout: 5_000,
    });
    const { response } = await openai.chat.completions.create(body).withResponse();
    expect(response.headers.get('x-sluice-cache')).toBe('HIT');
    const calls = 2;
    // "echo: cache me please": 3 input + 4 output tokens a call, cache answers included.
    await expect
      .poll(async () => (await usage(k.key)).body.usage, { timeout: 5000 })
      .toMatchObject({ requests_today: calls, tokens_today: calls * 7 });
  });
});

describe('GET /v1/usage', () => {
  it('takes only API keys, charges nothing and does not touch last_used_at', async () => {
    const m = await member();
    const k = await m.key();
    const jwt = await h.gateway.app.request('/v1/usage', { headers: { authorization: `Bearer ${m.token}` } });
    expect(jwt.status).toBe(401);
    expect((await jwt.json()).error.type).toBe('authentication_error');
    expect((await h.gateway.app.request('/v1/usage')).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await usage(k.key)).body.usage.requests_today).toBe(0);
    const keyView = await h.console.call('GET', `/api/keys/${k.id}`, { token: m.token });
    expect(((await keyView.json()) as { last_used_at: string | null }).last_used_at).toBeNull();
    const consoleView = await h.admin('GET', `/api/admin/limits/api_key/${k.id}/usage`);
    expect(consoleView.body).toMatchObject({ subject_type: 'api_key', subject_id: k.id, scope: 'user' });
  });
});

describe('when Redis cannot be reached', () => {
  it('fails open by default and closed with security.rate_limit_fail_closed; /v1/usage is 503', async () => {
    const m = await member();
    const k = await m.key();
    // Warm the key's auth record and the limits in a second gateway, then cut its Redis.
    const env = { ...h.gateway.env };
    const healthy = gatewayHarness(env);
    await client(k.key, healthy.app).chat.completions.create(ask());
    const cut = gatewayHarness({ ...env, UPSTASH_REDIS_REST_URL: 'http://127.0.0.1:9' });
    const offline = client(k.key, cut.app);
    const open = await offline.chat.completions.create(ask()).catch((e: unknown) => e);
    expect(open).not.toBeInstanceOf(Error);
    expect((await usage(k.key, cut.app)).status).toBe(503);

    const set = await h.admin('PATCH', '/api/admin/settings', { settings: { rate_limit_fail_closed: true } });
    expect(set.status).toBe(200);
    const closedGateway = gatewayHarness({ ...env, UPSTASH_REDIS_REST_URL: 'http://127.0.0.1:9' });
    const closed = await refusal(client(k.key, closedGateway.app).chat.completions.create(ask()));
    await h.admin('PATCH', '/api/admin/settings', { settings: { rate_limit_fail_closed: false } });
    expect(closed).toEqual({
      status: 429,
      message: 'Rate limited: rate_limiter_unavailable',
      retryAfter: 30,
    });
  });
});
