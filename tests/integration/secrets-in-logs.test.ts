// Secrets never appear in any log line. Every console.* line the console and
// the gateway print during a journey that handles each kind of secret (provider keys, API keys,
// the OIDC client secret, passwords), including failures that log errors, is checked for them.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

const PROVIDER_SECRET = 'sk-provider-secret-0d9f8e7c6b5a';
const OIDC_SECRET = 'oidc-client-secret-4b3a2c1d';
const PASSWORD = 'member-password-7e6d5c';

let h: ProxyHarness;
const lines: string[] = [];

beforeAll(async () => {
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(' '));
    });
  }
  h = await proxyHarness('secrets_in_logs');
});
afterAll(async () => {
  vi.restoreAllMocks();
  await h?.close();
});

describe('secrets in logs', () => {
  it('never prints a provider key, an API key or its hash, the OIDC secret or a password', async () => {
    const provider = await h.admin('POST', '/api/admin/providers', {
      name: 'secret-holder',
      display_name: 'Secret holder',
      provider_type: 'openai',
      base_url: 'http://127.0.0.1:9',
      api_key: PROVIDER_SECRET,
    });
    expect(provider.status).toBe(201);
    await h.admin('PATCH', `/api/admin/providers/${provider.body.id}`, { api_key: `${PROVIDER_SECRET}-2` });
    // A route to an unreachable upstream: the gateway logs the failure.
    await h.admin('POST', '/api/admin/models', {
      name: 'm-unreachable',
      routes: [{ provider_id: provider.body.id, upstream_model: 'x' }],
    });
    await h.admin('PATCH', '/api/admin/settings', { settings: { oidc_client_secret: OIDC_SECRET } });
    await h.admin('POST', '/api/admin/users', {
      email: 'secret-member@example.com',
      display_name: 'M',
      password: PASSWORD,
      role: 'user',
    });
    await h.console.call('POST', '/api/auth/login', {
      body: { email: 'secret-member@example.com', password: `${PASSWORD}-wrong` },
    });
    const rotated = await h.admin('POST', `/api/keys/${h.keyId}/rotate`);
    const keys = [h.apiKey, rotated.body.key as string];
    // Through `request`: the work each request leaves for after its response can be waited for.
    const post = (gateway: GatewayHarness, key: string, body: unknown) =>
      gateway.request('/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const key of keys) {
      await post(h.gateway, key, { model: 'm-unreachable', messages: [{ role: 'user', content: 'x' }] });
      await post(h.gateway, key, { model: 'm-openai', messages: [{ role: 'user', content: 'x' }] });
    }
    // A key the gateway refuses, and a body that is not a request.
    await post(h.gateway, `${keys[0]}x`, '{');
    await post(h.gateway, keys[1]!, [1]);
    // The same keys on a gateway whose Redis is gone: it logs every store failure it works around.
    const cut = gatewayHarness({ ...h.gateway.env, UPSTASH_REDIS_REST_URL: 'http://127.0.0.1:9' });
    for (const key of keys) {
      await post(cut, key, { model: 'm-openai', messages: [{ role: 'user', content: 'x' }] });
    }
    // Background work logs after the response: every line is in once it is all done.
    await Promise.all([h.gateway.settled(), cut.settled()]);

    const secrets = [
      PROVIDER_SECRET,
      OIDC_SECRET,
      PASSWORD,
      ...keys,
      ...keys.map((k) => createHash('sha256').update(k).digest('hex')),
      h.fakes.apiKeyFor('openai'),
    ];
    expect(lines.length).toBeGreaterThan(0); // the failures above did log something
    for (const secret of secrets) {
      const leaking = lines.filter((line) => line.includes(secret));
      expect(leaking, `a log line holds ${secret.slice(0, 8)}…`).toEqual([]);
    }
  });
});
