// The hot path (docs/architecture.md): on a warm isolate, no Postgres round trip, one Redis round
// trip before the upstream call and at most one after; concurrent requests share round trips. The
// gateway in-process over the real stores, behind a proxy that counts every HTTP round trip to the
// store bridge (Upstash REST = Redis, /sql = Neon HTTP = Postgres), and its upstream fetch port
// wrapped to mark when the upstream call starts.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGatewayApp } from '../../gateway-worker/src/app';
import { buildDeps } from '../../gateway-worker/src/deps';
import { REDIS_LINK_BINDING } from '../../gateway-worker/src/redis-link-client';
import type { GatewayDeps } from '../../gateway-worker/src/types';
import { createJwtSigner } from '../../shared/src/auth/console/jwt';
import { toPipelineReplies } from '../../shared/src/stores/resp/link-redis';
import type { RespConnection } from '../../shared/src/stores/resp/resp-connection';
import { INTEGRATION_REDIS_URL, TEST_SECRETS } from '../helpers/env';
import { type GatewayHarness, gatewayHarness, keptBackground } from '../helpers/gateway';
import { nodeLinkConnection } from '../helpers/node-resp-socket';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

type Event = 'redis' | 'postgres' | 'upstream';

let h: ProxyHarness;
let gateway: GatewayHarness;
let counter: Server;
const events: Event[] = [];
/** The upstream model of every upstream call, in order. */
const upstreamModels: string[] = [];

/** Forwards every request to the bridge and notes which store it was for. */
/** Counts and forwards: Neon HTTP (`/sql`) to the bridge's main port, the rest to its Upstash port. */
function countingProxy(targets: { redis: URL; postgres: URL }): Promise<Server> {
  const server = createServer((req: IncomingMessage, res) => {
    const isSql = (req.url ?? '').startsWith('/sql');
    events.push(isSql ? 'postgres' : 'redis');
    const target = isSql ? targets.postgres : targets.redis;
    const forward = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * A gateway requests go to with an execution context: `settled` resolves once what they left
 * for after their responses (the write-behind's round trip among it) is done.
 */
type Gateway = Pick<GatewayHarness, 'request' | 'settled'>;

/** Round trips of one request: before its upstream call, and after it (its write-behind included). */
async function measure(
  via: Gateway,
  send: () => Promise<Response>,
): Promise<{ before: Record<string, number>; after: Record<string, number>; status: number }> {
  events.length = 0;
  const res = await send();
  await res.text();
  await via.settled();
  const upstreamAt = events.indexOf('upstream');
  const split = upstreamAt === -1 ? events.length : upstreamAt;
  const tally = (list: Event[]) => ({
    redis: list.filter((e) => e === 'redis').length,
    postgres: list.filter((e) => e === 'postgres').length,
  });
  return { before: tally(events.slice(0, split)), after: tally(events.slice(split + 1)), status: res.status };
}

let n = 0;
const chat = (model: string, stream = false): Promise<Response> => chatOn(gateway, model, stream);
const chatOn = (via: Gateway, model: string, stream = false): Promise<Response> =>
  via.request('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${h.apiKey}`, 'content-type': 'application/json' },
    // A new body each time: the response cache misses (and stores), the upstream is called.
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: `round trip ${++n}` }] }),
  });

beforeAll(async () => {
  h = await proxyHarness('round_trips');
  // Limits on the key and on its owner (the admin role), a capped route, the cache on.
  const roles = await h.admin('GET', '/api/admin/roles');
  const admin = (roles.body as Array<{ id: string; name: string }>).find((r) => r.name === 'admin');
  const ownerLimits = {
    rules: [
      { kind: 'requests', window: '1m', limit: 100_000 },
      { kind: 'tokens', window: '1h', limit: 100_000_000 },
    ],
    budgets: [{ period: 'daily', limit_tokens: 1_000_000_000 }],
  };
  const role = admin
    ? await h.admin('PATCH', `/api/admin/roles/${admin.id}`, ownerLimits)
    : await h.admin('POST', '/api/admin/roles', { name: 'admin', ...ownerLimits });
  expect(role.status).toBeLessThan(300);
  const rules = await h.admin('PUT', `/api/admin/limits/api_key/${h.keyId}/rules`, {
    rules: [
      { kind: 'requests', window: '5m', limit: 100_000 },
      { kind: 'tokens', window: '1d', limit: 100_000_000 },
    ],
  });
  expect(rules.status).toBe(200);
  const models = (await h.admin('GET', '/api/admin/models')).body as Array<{
    id: string;
    name: string;
    routes: Array<Record<string, unknown>>;
  }>;
  const openai = models.find((m) => m.name === 'm-openai');
  const routes = openai?.routes.map((r) => ({
    provider_id: r.provider_id,
    upstream_model: r.upstream_model,
    rpm_cap: 100_000,
    tpm_cap: 100_000_000,
  }));
  expect((await h.admin('PATCH', `/api/admin/models/${openai?.id}`, { routes })).status).toBe(200);

  counter = await countingProxy({
    redis: new URL(h.gateway.env.UPSTASH_REDIS_REST_URL ?? ''),
    postgres: new URL(h.gateway.env.NEON_LOCAL_HTTP ?? ''),
  });
  const at = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
  gateway = gatewayHarness({ ...h.gateway.env, UPSTASH_REDIS_REST_URL: at, NEON_LOCAL_HTTP: `${at}/sql` });
  markUpstreamCalls(gateway.deps);
  // Warm the isolate: key, model, settings, limits; the key's once-a-minute last_used_at write.
  for (const stream of [false, true]) await (await chat('m-openai', stream)).text();
  await gateway.settled();
}, 60_000);

/** Notes each upstream call (and its model) in the event list. */
function markUpstreamCalls(deps: GatewayDeps): void {
  const upstream = deps.proxy.fetch;
  deps.proxy.fetch = (input, init) => {
    events.push('upstream');
    if (typeof init?.body === 'string')
      upstreamModels.push((JSON.parse(init.body) as { model: string }).model);
    return upstream(input, init);
  };
}

/**
 * The gateway as `npm run serve` builds it, with the Redis link bound: workerd's Durable Object
 * namespace cannot exist in Node, so a stand-in hands each batch to a real RESP connection (the
 * link's own, over a real socket to the bridge's Redis) and notes it as a Redis round trip.
 * What does not take the link still goes through the counting proxy.
 */
let linkConnection: RespConnection;
/** Round trips the link carried (each one also an event 'redis'). */
let linkBatches = 0;
function linkedGateway(env: Record<string, string>): Gateway {
  linkConnection = nodeLinkConnection(INTEGRATION_REDIS_URL);
  const namespace = {
    idFromName: (name: string) => name,
    get: () => ({
      async exec(commands: string[][]) {
        events.push('redis');
        linkBatches += 1;
        return toPipelineReplies(await linkConnection.exec(commands));
      },
    }),
  };
  const deps = buildDeps({ ...env, [REDIS_LINK_BINDING]: namespace });
  markUpstreamCalls(deps);
  const app = createGatewayApp(deps);
  const background = keptBackground();
  return {
    request: (input, init) => Promise.resolve(app.request(input, init, undefined, background.context)),
    settled: background.settled,
  };
}

afterAll(async () => {
  linkConnection?.close();
  await new Promise((resolve) => counter?.close(resolve));
  await h?.close();
});

describe('a warm request', () => {
  it('json: no Postgres, one Redis round trip before the upstream call and one after', async () => {
    const m = await measure(gateway, () => chat('m-openai'));
    expect(m.status).toBe(200);
    expect(m.before).toEqual({ redis: 1, postgres: 0 });
    expect(m.after.postgres).toBe(0);
    expect(m.after.redis).toBeLessThanOrEqual(1);
  });

  it('stream: no Postgres, one Redis round trip before the upstream call and one after', async () => {
    const m = await measure(gateway, () => chat('m-openai', true));
    expect(m.status).toBe(200);
    expect(m.before).toEqual({ redis: 1, postgres: 0 });
    expect(m.after).toEqual({ redis: 1, postgres: 0 });
  });

  it('a cache hit: no upstream call, one Redis round trip to admit it and one after', async () => {
    const body = JSON.stringify({ model: 'm-openai', messages: [{ role: 'user', content: 'cached twice' }] });
    const send = () =>
      gateway.request('/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: `Bearer ${h.apiKey}`, 'content-type': 'application/json' },
        body,
      });
    await (await send()).text();
    await gateway.settled();
    const m = await measure(gateway, send);
    expect(m.status).toBe(200);
    expect(events).toEqual(['redis', 'redis']);
  });
});

describe('a warm request over the Redis link (npm run serve)', () => {
  let linked: Gateway;
  beforeAll(async () => {
    linked = linkedGateway(gateway.env);
    for (const stream of [false, true]) await (await chatOn(linked, 'm-openai', stream)).text();
    await linked.settled();
  });

  it('json and stream: no Postgres, one Redis round trip before the upstream call and one after', async () => {
    for (const stream of [false, true]) {
      const batchesBefore = linkBatches;
      const m = await measure(linked, () => chatOn(linked, 'm-openai', stream));
      expect(m.status).toBe(200);
      expect(m.before).toEqual({ redis: 1, postgres: 0 });
      expect(m.after.postgres).toBe(0);
      expect(m.after.redis).toBeLessThanOrEqual(1);
      // Every one of them on the link, none through the bridge.
      expect(linkBatches - batchesBefore).toBe((m.before.redis ?? 0) + (m.after.redis ?? 0));
    }
  });

  it('concurrent requests share their round trips on the link too', async () => {
    events.length = 0;
    const answers = await Promise.all(Array.from({ length: 40 }, () => chatOn(linked, 'm-openai')));
    await Promise.all(answers.map((r) => r.text()));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    await linked.settled();
    expect(events.filter((e) => e === 'postgres')).toHaveLength(0);
    expect(events.filter((e) => e === 'upstream')).toHaveLength(40);
    expect(events.filter((e) => e === 'redis').length).toBeLessThan(20);
  });
});

describe('under load', () => {
  it('concurrent requests share their round trips: fewer store calls than requests', async () => {
    events.length = 0;
    const answers = await Promise.all(Array.from({ length: 40 }, () => chat('m-openai')));
    await Promise.all(answers.map((r) => r.text()));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    await gateway.settled();
    const redis = events.filter((e) => e === 'redis').length;
    expect(events.filter((e) => e === 'postgres')).toHaveLength(0);
    expect(events.filter((e) => e === 'upstream')).toHaveLength(40);
    // 40 admissions and 40 responses' writes: one round trip each would be 80.
    expect(redis).toBeLessThan(20);
  });
});

describe('GET /v1/models on a warm isolate', () => {
  const get = (path: string, token: string) =>
    gateway.request(path, { headers: { authorization: `Bearer ${token}` } });
  let jwt: string;
  beforeAll(async () => {
    const me = (await h.admin('GET', '/api/auth/me')).body as { id: string; email: string };
    jwt = await createJwtSigner(TEST_SECRETS.SLUICE_JWT_SECRET).signAccess(
      { userId: me.id, email: me.email, role: 'admin' },
      300,
    );
  });

  it('lists and finds models with no Postgres round trip, with a key or a JWT', async () => {
    const calls = [h.apiKey, jwt].flatMap((token) =>
      ['/v1/models', '/v1/models/m-openai'].map((path) => ({ token, path })),
    );
    for (const { token, path } of calls) await (await get(path, token)).text();
    await gateway.settled();
    events.length = 0;
    for (const { token, path } of calls) {
      const res = await get(path, token);
      expect(res.status, path).toBe(200);
      await res.text();
    }
    expect(events.filter((e) => e === 'postgres')).toEqual([]);
  });
});

describe('a console change reaches a warm gateway on its very next request', () => {
  const keyRules = (limit: number) =>
    h.admin('PUT', `/api/admin/limits/api_key/${h.keyId}/rules`, {
      rules: [
        { kind: 'requests', window: '5m', limit },
        { kind: 'tokens', window: '1d', limit: 100_000_000 },
      ],
    });

  it('a lowered limit refuses at once; raised again, it admits the refused caller within a second', async () => {
    expect((await chat('m-openai')).status).toBe(200);
    expect((await keyRules(1)).status).toBe(200);
    const refused = await chat('m-openai');
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain('key:requests/5m');
    expect((await keyRules(100_000)).status).toBe(200);
    // The refusal is remembered (no round trip per refused request) until the versions are
    // read again, at most a second later: the caller retrying is admitted then.
    await vi.waitFor(async () => expect((await chat('m-openai')).status).toBe(200), {
      timeout: 5_000,
      interval: 100,
    });
  });

  it('a new model is listed by /v1/models at once, and gone at once when deleted', async () => {
    const listed = async () => {
      const res = await gateway.request('/v1/models', { headers: { authorization: `Bearer ${h.apiKey}` } });
      return ((await res.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id);
    };
    expect(await listed()).not.toContain('m-listed-at-once');
    const openai = (
      (await h.admin('GET', '/api/admin/models')).body as Array<{
        name: string;
        routes: Array<{ provider_id: string }>;
      }>
    ).find((m) => m.name === 'm-openai');
    const created = await h.admin('POST', '/api/admin/models', {
      name: 'm-listed-at-once',
      routes: [{ provider_id: openai?.routes[0]?.provider_id, upstream_model: 'gpt-4o-mini' }],
    });
    expect(created.status).toBe(201);
    expect(await listed()).toContain('m-listed-at-once');
    expect((await h.admin('DELETE', `/api/admin/models/${created.body.id}`)).status).toBe(204);
    expect(await listed()).not.toContain('m-listed-at-once');
  });

  it('changed routes are used at once', async () => {
    const models = (await h.admin('GET', '/api/admin/models')).body as Array<{
      id: string;
      name: string;
      routes: Array<{ provider_id: string; upstream_model: string }>;
    }>;
    const openai = models.find((m) => m.name === 'm-openai');
    const route = (upstream_model: string) => ({
      provider_id: openai?.routes[0]?.provider_id,
      upstream_model,
      rpm_cap: 100_000,
      tpm_cap: 100_000_000,
    });
    await (await chat('m-openai')).text();
    const before = openai?.routes[0]?.upstream_model ?? '';
    expect(upstreamModels.at(-1)).toBe(before);
    const patch = (model: string) =>
      h.admin('PATCH', `/api/admin/models/${openai?.id}`, { routes: [route(model)] });
    expect((await patch('renamed-upstream-model')).status).toBe(200);
    const res = await chat('m-openai');
    expect(res.status).toBe(200);
    await res.text();
    expect(upstreamModels.at(-1)).toBe('renamed-upstream-model');
    expect((await patch(before)).status).toBe(200);
  });
});
