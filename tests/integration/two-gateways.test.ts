// Limits are exact across every isolate and instance. Two gateway workers, each in its own workerd,
// share one key's 50 requests/1m: 200 concurrent requests split across both admit exactly 50, and
// /v1/usage agrees; an owner's limit over two keys and a route's rpm cap hold as exactly. Revoking
// the key then takes effect on both at once, and one MCP session is served by both alternately.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unstable_startWorker } from 'wrangler';
import { startEverything } from '../fakes/mcp-servers';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

type Worker = Awaited<ReturnType<typeof unstable_startWorker>>;

const ROOT = join(import.meta.dirname, '../..');
let h: ProxyHarness;
const workers: Worker[] = [];

function startGateway(env: Record<string, string>, name: string): Promise<Worker> {
  return unstable_startWorker({
    name,
    entrypoint: join(ROOT, 'gateway-worker/src/worker.ts'),
    compatibilityDate: '2026-04-01',
    compatibilityFlags: ['enable_request_signal'],
    bindings: Object.fromEntries(
      Object.entries(env).map(([key, value]) => [key, { type: 'plain_text' as const, value }]),
    ),
    // No local storage: two runtimes sharing one persistence directory can fail to start.
    dev: {
      server: { hostname: '127.0.0.1', port: 0 },
      inspector: false,
      watch: false,
      logLevel: 'warn',
      persist: false,
    },
  });
}

/**
 * One at a time, and once more if the runtime fails to start: on a loaded two-core machine,
 * with other suites starting runtimes of their own, workerd now and then does not come up.
 */
async function startReadyGateway(env: Record<string, string>, name: string): Promise<Worker> {
  for (let attempt = 1; ; attempt++) {
    let worker: Worker | undefined;
    try {
      worker = await startGateway(env, name);
      await worker.ready;
      return worker;
    } catch (error) {
      await worker?.dispose().catch(() => {});
      if (attempt >= 3) throw error;
    }
  }
}

beforeAll(async () => {
  h = await proxyHarness('two_gateways');
  // A generous store deadline: on a loaded CI machine a 1.5 s one could fail open and admit
  // uncounted requests; this file is about atomicity, limits-engine.test.ts about deadlines.
  const env = { ...h.gateway.env, SLUICE_STORE_TIMEOUT_MS: '15000' };
  workers.push(await startReadyGateway(env, 'gateway-a'));
  workers.push(await startReadyGateway(env, 'gateway-b'));
}, 180_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.dispose()));
  await h?.close();
});

describe('two gateway instances', () => {
  it('admits exactly 50 of 200 concurrent requests against 50 requests/1m', async () => {
    const rules = await h.admin('PUT', `/api/admin/limits/api_key/${h.keyId}/rules`, {
      rules: [{ kind: 'requests', window: '1m', limit: 50 }],
    });
    expect(rules.status).toBe(200);
    const body = JSON.stringify({ model: 'm-openai', messages: [{ role: 'user', content: 'hammer' }] });
    // Plain HTTP to each runtime's address, as any client would send it.
    const urls = await Promise.all(workers.map((w) => w.url));
    const call = (i: number) =>
      fetch(new URL('/v1/chat/completions', urls[i % 2]!), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${h.apiKey}`,
          'content-type': 'application/json',
          'x-sluice-cache': 'bypass',
        },
        body,
      });
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => call(i)));
    const statuses = answers.map((r) => r.status);
    const texts = await Promise.all(answers.map((r) => r.text()));
    const refusals = texts.filter((_, i) => statuses[i] === 429).map((t) => JSON.parse(t));

    const tally: Record<number, number> = {};
    for (const s of statuses) tally[s] = (tally[s] ?? 0) + 1;
    expect(
      statuses.filter((s) => s === 200),
      JSON.stringify(tally),
    ).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(150);
    for (const refusal of refusals) {
      expect(refusal).toEqual({
        error: { message: 'Rate limited: key:requests/1m', type: 'rate_limit_error' },
      });
    }
    const usage = await workers[1]!.fetch('http://gateway/v1/usage', {
      headers: { authorization: `Bearer ${h.apiKey}` },
    });
    const report = (await usage.json()) as {
      scope: string;
      limits: Array<{ used: number }>;
      usage: { requests_today: number };
    };
    expect(report.scope).toBe('key');
    expect(report.limits[0]?.used).toBe(50);
    expect(report.usage.requests_today).toBe(50);
  });

  it('one instance sees what the other counted', async () => {
    const key = await h.admin('POST', '/api/keys', { name: 'shared counter' });
    await h.admin('PUT', `/api/admin/limits/api_key/${key.body.id}/rules`, {
      rules: [{ kind: 'requests', window: '1m', limit: 5 }],
    });
    const call = (worker: Worker, i: number) =>
      worker.fetch('http://gateway/v1/chat/completions', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key.body.key}`,
          'content-type': 'application/json',
          'x-sluice-cache': 'bypass',
        },
        body: JSON.stringify({ model: 'm-openai', messages: [{ role: 'user', content: `shared ${i}` }] }),
      });
    const onA: number[] = [];
    for (let i = 0; i < 5; i++) onA.push((await call(workers[0]!, i)).status);
    const onB: number[] = [];
    for (let i = 0; i < 3; i++) onB.push((await call(workers[1]!, i)).status);
    expect(onA).toEqual([200, 200, 200, 200, 200]);
    expect(onB).toEqual([429, 429, 429]);
  });

  it("keeps an owner's limit and a route cap exact: 200 concurrent requests, two keys, two instances", async () => {
    const person = {
      email: 'owner@two-gateways.example',
      display_name: 'Owner',
      password: 'owner-password-1',
    };
    const registered = await h.console.call('POST', '/api/auth/register', { body: person });
    const userId = ((await registered.json()) as { id: string }).id;
    const login = await h.console.call('POST', '/api/auth/login', {
      body: { email: person.email, password: person.password },
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const keys: string[] = [];
    for (const name of ['first', 'second']) {
      const created = await h.console.call('POST', '/api/keys', { body: { name }, token });
      keys.push(((await created.json()) as { key: string }).key);
    }
    const urls = await Promise.all(workers.map((w) => w.url));
    const burst = async (model: string) => {
      const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'hammer' }] });
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          fetch(new URL('/v1/chat/completions', urls[i % 2]!), {
            method: 'POST',
            headers: {
              authorization: `Bearer ${keys[(i >> 1) % 2]}`,
              'content-type': 'application/json',
              'x-sluice-cache': 'bypass',
            },
            body,
          }),
        ),
      );
      const texts = await Promise.all(answers.map((r) => r.text()));
      const refusals = texts.filter((_, i) => answers[i]!.status === 429);
      return { admitted: answers.filter((r) => r.status === 200).length, refusals };
    };

    const ownerRule = await h.admin('PUT', `/api/admin/limits/user/${userId}/rules`, {
      rules: [{ kind: 'requests', window: '1m', limit: 40 }],
    });
    expect(ownerRule.status).toBe(200);
    const owner = await burst('m-openai');
    expect(owner.admitted).toBe(40);
    expect(owner.refusals).toHaveLength(160);
    for (const refusal of owner.refusals) expect(refusal).toContain('Rate limited: user:requests/1m');

    expect((await h.admin('PUT', `/api/admin/limits/user/${userId}/rules`, { rules: [] })).status).toBe(200);
    const providers = (await h.admin('GET', '/api/admin/providers')).body as Array<{
      id: string;
      name: string;
    }>;
    const openai = providers.find((p) => p.name === 'fake-openai');
    const model = await h.admin('POST', '/api/admin/models', {
      name: 'm-two-capped',
      routes: [{ provider_id: openai?.id, upstream_model: 'test-model', rpm_cap: 30 }],
    });
    expect(model.status, JSON.stringify(model.body)).toBe(201);
    // Both instances know the model (a console change reaches them within about a second).
    for (const worker of workers) {
      await vi.waitFor(
        async () => {
          const listed = await worker.fetch('http://gateway/v1/models', {
            headers: { authorization: `Bearer ${keys[0]}` },
          });
          expect(JSON.stringify(await listed.json())).toContain('m-two-capped');
        },
        { timeout: 10_000, interval: 200 },
      );
    }
    const capped = await burst('m-two-capped');
    expect(capped.admitted).toBe(30);
    expect(capped.refusals).toHaveLength(170);
    for (const refusal of capped.refusals) expect(refusal).toContain('Rate limited: route:requests/1m');
  });

  it('serves one MCP session from both instances alternately', async () => {
    const everything = await startEverything('streamableHttp');
    try {
      const server = await h.admin('POST', '/api/mcp/servers', {
        name: 'everything',
        endpoint_url: everything.url,
      });
      expect((await h.admin('POST', `/api/mcp/servers/${server.body.id}/discover`)).status).toBe(200);
      const through = (worker: Worker) =>
        ((input: string | URL | Request, init?: RequestInit) =>
          worker.fetch(input instanceof Request ? input.url : String(input), init as never)) as typeof fetch;
      const clientOn = async (worker: Worker, sessionId?: string) => {
        const transport = new StreamableHTTPClientTransport(new URL('http://gateway/mcp'), {
          fetch: through(worker),
          requestInit: { headers: { authorization: `Bearer ${h.apiKey}` } },
          sessionId,
        });
        const client = new Client({ name: 'two-gateways', version: '1.0.0' });
        await client.connect(transport);
        return { client, transport };
      };
      const a = await clientOn(workers[0]!);
      const b = await clientOn(workers[1]!, a.transport.sessionId);
      const answers: unknown[] = [];
      for (const [i, side] of [a, b, a, b].entries()) {
        const result = await side.client.callTool({
          name: 'everything__echo',
          arguments: { message: `turn ${i}` },
        });
        answers.push(result.content);
      }
      expect(answers).toEqual([0, 1, 2, 3].map((i) => [{ type: 'text', text: `Echo: turn ${i}` }]));
      await b.transport.terminateSession();
      const closed = await a.client
        .callTool({ name: 'everything__echo', arguments: { message: 'x' } })
        .catch((e) => e);
      expect(String(closed)).toMatch(/404|Session not found/);
      await a.client.close();
      await b.client.close();
    } finally {
      await everything.close();
    }
  });

  it('refuses a revoked key on both instances on the very next request', async () => {
    const models = (worker: Worker) =>
      worker.fetch('http://gateway/v1/models', { headers: { authorization: `Bearer ${h.apiKey}` } });
    // Both instances have just served the key: whatever they cache of it is warm.
    expect((await Promise.all(workers.map(models))).map((r) => r.status)).toEqual([200, 200]);
    expect((await h.admin('DELETE', `/api/keys/${h.keyId}`)).status).toBe(204);
    expect((await Promise.all(workers.map(models))).map((r) => r.status)).toEqual([401, 401]);
  });
});
