// Local wiring (docs/architecture.md): the store bridge's Upstash REST endpoint lets the official
// @upstash/redis client run unchanged against a real Redis (and the embedded in-memory store).
// Real Redis database 15, the real client over real HTTP; nothing is mocked.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from '@upstash/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBackend } from '../../dev/embedded/memory-backend';
import { createLeanServer } from '../../self-host/bridge/http1-server';
import { transcodePipeline } from '../../self-host/bridge/pipeline-transcode';
import { createRedisBackend, type RedisBackend, runCommand } from '../../self-host/bridge/redis-backend';
import { createUpstashBridge, type UpstashBridge } from '../../self-host/bridge/upstash-bridge';
import { ROUTE_HEALTH_SCRIPT } from '../../shared/src/routing/route-health';
import { luaSha1 } from '../../shared/test/stores/lua-sha1';
import { INTEGRATION_REDIS_URL } from '../helpers/env';

const TOKEN = 'bridge-upstash-test-token';

/** The integration Redis, database 15: this file flushes it freely. */
function db15Url(): string {
  const url = new URL(INTEGRATION_REDIS_URL);
  url.pathname = '/15';
  return url.toString();
}

interface Harness {
  url: string;
  backend: RedisBackend;
  /** `METHOD /path` of every request the bridge received, to see how the client batches. */
  requests: string[];
  client(options?: { token?: string; enableAutoPipelining?: boolean }): Redis;
  raw(
    path: string,
    init?: { method?: string; body?: string | Uint8Array<ArrayBuffer>; headers?: Record<string, string> },
  ): Promise<{
    status: number;
    body: unknown;
  }>;
  close(): Promise<void>;
}

/** The bridge's two HTTP servers: Node's `http` (its main port) and the lean one (the apps' port). */
type ServerKind = 'node-http' | 'lean';
const SERVERS: Array<{ server: ServerKind }> = [{ server: 'node-http' }, { server: 'lean' }];

function httpServer(bridge: UpstashBridge, kind: ServerKind, requests: string[]) {
  if (kind === 'lean') {
    return createLeanServer({
      handler: {
        head(head) {
          requests.push(`${head.method} ${head.target}`);
          return bridge.lean.head(head);
        },
        answer: bridge.lean.answer,
      },
      maxHeadBytes: 16 * 1024,
      maxBodyBytes: 10 * 1024 * 1024,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 60_000,
    });
  }
  return createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    bridge.handle(req, res).catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
}

async function startBridge(backend: RedisBackend, kind: ServerKind): Promise<Harness> {
  const bridge = createUpstashBridge({ backend, token: TOKEN });
  const requests: string[] = [];
  const server = httpServer(bridge, kind, requests);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    backend,
    requests,
    client: (options = {}) =>
      new Redis({
        url,
        token: options.token ?? TOKEN,
        enableAutoPipelining: options.enableAutoPipelining ?? false,
        enableTelemetry: false,
        retry: false,
      }),
    async raw(path, init = {}) {
      const res = await fetch(`${url}${path}`, {
        method: init.method ?? 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, ...init.headers },
        body: init.body,
      });
      const text = await res.text();
      return { status: res.status, body: JSON.parse(text) as unknown };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await backend.close();
    },
  };
}

const b64 = (text: string | Buffer): string => Buffer.from(text).toString('base64');

const FIXED_WINDOW = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;

const COUNT_AND_ECHO = `return {redis.call('INCR', KEYS[1]), tonumber(ARGV[1])}`;

const BACKENDS = [
  { name: 'real Redis (db 15)', create: () => createRedisBackend(db15Url()) },
  { name: 'the in-memory store (ioredis-mock)', create: () => createMemoryBackend() },
];

const COMBINATIONS = BACKENDS.flatMap((backend) => SERVERS.map(({ server }) => ({ ...backend, server })));

describe.each(COMBINATIONS)('Upstash bridge over $name, on $server', ({ create, server }) => {
  let h: Harness;
  let redis: Redis;
  beforeAll(async () => {
    h = await startBridge(create(), server);
    await runCommand(h.backend, ['FLUSHDB']);
    redis = h.client();
  });
  afterAll(async () => {
    await runCommand(h.backend, ['FLUSHDB']);
    await h.close();
  });

  it('round-trips unicode and binary-ish strings through set/get', async () => {
    const values = [
      'héllo wörld ✓ 日本語 🚀',
      '\u0000\u0001\u007f\u00ff',
      '\r\n$3\r\nfoo\r\n',
      'OK',
      'aGVsbG8=',
    ];
    for (const [i, value] of values.entries()) {
      expect(await redis.set(`str:${i}`, value)).toBe('OK');
      expect(await redis.get(`str:${i}`)).toBe(value);
    }
    expect(await redis.get('str:missing')).toBeNull();
  });

  it('honours the lower-case options the client sends (ex, nx)', async () => {
    expect(await redis.set('opt:k', 'v', { ex: 50 })).toBe('OK');
    const ttl = await redis.ttl('opt:k');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(50);
    expect(await redis.set('opt:k', 'other', { nx: true })).toBeNull();
    expect(await redis.get('opt:k')).toBe('v');
  });

  it('increments, and raises Redis errors such as INCR on a non-integer', async () => {
    expect(await redis.incr('count')).toBe(1);
    expect(await redis.incr('count')).toBe(2);
    await redis.set('not-a-number', 'abc');
    await expect(redis.incr('not-a-number')).rejects.toThrow(/ERR value is not an integer/);
  });

  it('runs eval, scriptLoad (Redis SHA-1) and evalsha with keys and args; unknown SHA is NOSCRIPT', async () => {
    await redis.set('ev:k', 'stored');
    const script = "return {KEYS[1], ARGV[1], redis.call('GET', KEYS[1]), tonumber(ARGV[2]) + 1}";
    expect(await redis.eval(script, ['ev:k'], ['arg', 41])).toEqual(['ev:k', 'arg', 'stored', 42]);
    const sha = await redis.scriptLoad(script);
    expect(sha).toBe(luaSha1(script));
    expect(await redis.scriptExists(sha)).toEqual([1]);
    expect(await redis.evalsha(sha, ['ev:k'], ['again', 1])).toEqual(['ev:k', 'again', 'stored', 2]);
    await expect(redis.evalsha('f'.repeat(40), [], [])).rejects.toThrow(/NOSCRIPT/);
  });

  it('runs the fixed-window limiter script shape (INCR, PEXPIRE, PTTL inside Lua)', async () => {
    const [n, ttl] = await redis.eval<string[], [number, number]>(FIXED_WINDOW, ['fw:k'], ['60000']);
    expect(n).toBe(1);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    const [second] = await redis.eval<string[], [number, number]>(FIXED_WINDOW, ['fw:k'], ['60000']);
    expect(second).toBe(2);
  });

  it('runs the route-health script alike: bench after 2 failures, probation doubles, success clears', async () => {
    const now = 1_795_000_000_000; // a real epoch ms: beyond 32-bit integers (fengari's)
    const report = (at: number, ...outcomes: string[]) =>
      redis.eval<string[], number>(
        ROUTE_HEALTH_SCRIPT.source,
        ['rh:h', 'rh:v'],
        [String(at), '2', '30000', '1000', '60000', ...outcomes],
      );
    expect(await report(now, 'r1', 'f', '1')).toBe(0);
    expect(await redis.hget('rh:h', 'r1')).toBe(`1,${now}`.concat(',0,0'));
    expect(await report(now + 10, 'r1', 'f', '1')).toBe(1);
    expect(await redis.hget('rh:h', 'r1')).toBe(`0,${now + 10},${now + 1010},1`);
    expect(await report(now + 20, 'r1', 'f', '3')).toBe(0); // benched: late failures ignored
    expect(await report(now + 2000, 'r1', 'f', '1')).toBe(1); // a failed probe: twice as long
    expect(await redis.hget('rh:h', 'r1')).toBe(`0,${now + 2000},${now + 4000},2`);
    expect(await report(now + 5000, 'r1', 's', '1')).toBe(1);
    expect(await redis.hget('rh:h', 'r1')).toBeNull();
    expect(Number(await redis.get('rh:v'))).toBe(3);
  });

  it('pipelines: one request, in order, and a failing command does not abort the others', async () => {
    const before = h.requests.length;
    const p = redis.pipeline();
    p.set('pl:a', 'x');
    p.incr('pl:a');
    p.get('pl:a');
    p.incr('pl:n');
    const results = await p.exec({ keepErrors: true });
    expect(h.requests.slice(before)).toEqual(['POST /pipeline']);
    expect(results.map((r) => r.result)).toEqual(['OK', undefined, 'x', 1]);
    expect(results[1]?.error).toMatch(/ERR value is not an integer/);
    const failing = redis.pipeline();
    failing.incr('pl:a');
    await expect(failing.exec()).rejects.toThrow(/Command 1 \[ incr \] failed/);
  });

  it('serves no transaction: the client’s multi() is refused (the apps use scripts)', async () => {
    const tx = redis.multi();
    tx.set('tx:k', 'v');
    await expect(tx.exec()).rejects.toThrow(/not an endpoint of the store bridge/);
    expect(await redis.get('tx:k')).toBeNull();
  });

  it('rejects a wrong token: the client raises Unauthorized', async () => {
    await expect(h.client({ token: 'wrong-token' }).get('str:0')).rejects.toThrow(/Unauthorized/);
  });
});

describe.each(
  SERVERS,
)('Upstash bridge over real Redis, on $server: the wider command surface and the raw protocol', ({
  server,
}) => {
  let h: Harness;
  let redis: Redis;
  beforeAll(async () => {
    h = await startBridge(createRedisBackend(db15Url()), server);
    await runCommand(h.backend, ['FLUSHDB']);
    redis = h.client();
  });
  afterAll(async () => {
    await runCommand(h.backend, ['FLUSHDB']);
    await h.close();
  });

  it('stores JSON values and deserializes them automatically', async () => {
    const value = { a: 1, nested: { list: [1, 'two', null], text: 'é✓' }, flag: true };
    await redis.set('json:k', value);
    expect(await redis.get('json:k')).toEqual(value);
  });

  it('expires keys: incr, expire, ttl', async () => {
    expect(await redis.incr('exp:n')).toBe(1);
    expect(await redis.expire('exp:n', 100)).toBe(1);
    const ttl = await redis.ttl('exp:n');
    expect(ttl).toBeGreaterThan(90);
    expect(ttl).toBeLessThanOrEqual(100);
    expect(await redis.ttl('exp:missing')).toBe(-2);
  });

  it('hashes: hset and hgetall', async () => {
    expect(await redis.hset('h:k', { name: 'héllo', n: 42, obj: { x: 1 } })).toBe(3);
    expect(await redis.hgetall('h:k')).toEqual({ name: 'héllo', n: 42, obj: { x: 1 } });
    expect(await redis.hgetall('h:missing')).toBeNull();
  });

  it('sorted sets: zadd and zrange with scores', async () => {
    const added = await redis.zadd(
      'z:k',
      { score: 1.5, member: 'a' },
      { score: 2, member: 'b' },
      { score: -1, member: 'c' },
    );
    expect(added).toBe(3);
    expect(await redis.zrange('z:k', 0, -1, { withScores: true })).toEqual(['c', -1, 'a', 1.5, 'b', 2]);
    expect(await redis.zrange('z:k', 0, -1, { rev: true })).toEqual(['b', 'a', 'c']);
  });

  it('automatic pipelining batches concurrent commands into /pipeline requests', async () => {
    const auto = h.client({ enableAutoPipelining: true });
    const before = h.requests.length;
    const results = await Promise.all([
      auto.set('ap:a', 'one'),
      auto.incr('ap:n'),
      auto.incr('ap:n'),
      auto.get('ap:a'),
      auto.mget('ap:a', 'ap:missing'),
    ]);
    expect(results).toEqual(['OK', 1, 2, 'one', ['one', null]]);
    const sent = h.requests.slice(before);
    expect(sent.length).toBeLessThanOrEqual(2);
    expect(new Set(sent)).toEqual(new Set(['POST /pipeline']));
    await expect(auto.incr('ap:a')).rejects.toThrow(/ERR value is not an integer/);
  });

  it('scriptLoad gives the SHA-1 Redis itself computes', async () => {
    const script = 'return ARGV[1] .. "✓"';
    const direct = await runCommand(h.backend, ['SCRIPT', 'LOAD', script]);
    expect(await redis.scriptLoad(script)).toBe(String(direct));
    expect(await redis.evalsha(luaSha1(script), [], ['ok'])).toBe('ok✓');
  });

  it('base64-encodes every string at any depth, keeps integers and null, and is binary-safe', async () => {
    const body = JSON.stringify(['eval', "return {1, 'héllo', {2, string.char(255, 0, 254), {}}}", 0]);
    const encoded = await h.raw('/', { body, headers: { 'Upstash-Encoding': 'base64' } });
    expect(encoded).toEqual({ status: 200, body: { result: [1, b64('héllo'), [2, '/wD+', []]] } });
    const plain = await h.raw('/', { body });
    expect(plain.body).toMatchObject({ result: [1, 'héllo', [2, expect.any(String), []]] });
    expect(
      await h.raw('/', { body: '["get","b64:missing"]', headers: { 'Upstash-Encoding': 'base64' } }),
    ).toEqual({
      status: 200,
      body: { result: null },
    });
  });

  it('answers a raw pipeline per command and a single failing command with 400', async () => {
    const body = JSON.stringify([['set', 'rp:a', 1], ['incr', 'rp:a'], ['nosuchcmd'], ['get', 'rp:a']]);
    const res = await h.raw('/pipeline', { body, headers: { 'Upstash-Encoding': 'base64' } });
    expect(res).toEqual({
      status: 200,
      body: [
        { result: b64('OK') },
        { result: 2 },
        { error: expect.stringMatching(/^ERR unknown command/) },
        { result: b64('2') },
      ],
    });
    const single = await h.raw('/', { body: '["incr","str:nope","extra"]' });
    expect(single).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/^ERR wrong number of arguments/) },
    });
  });

  it('answers a pipeline it transcodes straight to RESP as it answers the general path', async () => {
    // PTTL would differ by a millisecond between the two paths: the script's reply must not depend on time.
    const sha = String(await runCommand(h.backend, ['SCRIPT', 'LOAD', COUNT_AND_ECHO]));
    const commands = (p: string) => [
      ['evalsha', sha, 1, `${p}:fw`, 60000],
      ['hincrby', `${p}:h`, 'field with spaces', -3],
      ['set', `${p}:u`, 'clé ✓', 'PX', 60000, 'NX'],
      ['get', `${p}:u`],
      ['echo', true],
      ['set', `${p}:e`, ''],
      ['get', `${p}:e`],
      ['incr', `${p}:u`],
      ['nosuchcmd', 1],
    ];
    expect(transcodePipeline(Buffer.from(JSON.stringify(commands('tp:plain'))))).not.toBeNull();
    const encodings: Array<Record<string, string>> = [{}, { 'Upstash-Encoding': 'base64' }];
    for (const headers of encodings) {
      const plain = await h.raw('/pipeline', { body: JSON.stringify(commands('tp:plain')), headers });
      // A space is outside the transcoder's shape: this one goes the general way.
      const general = await h.raw('/pipeline', {
        body: ` ${JSON.stringify(commands('tp:general'))}`,
        headers,
      });
      expect(plain.status).toBe(200);
      expect(JSON.stringify(plain.body).replaceAll('tp:plain', 'P')).toBe(
        JSON.stringify(general.body).replaceAll('tp:general', 'P'),
      );
      await runCommand(h.backend, ['DEL', 'tp:plain:fw', 'tp:plain:h', 'tp:plain:u', 'tp:plain:e']);
      await runCommand(h.backend, ['DEL', 'tp:general:fw', 'tp:general:h', 'tp:general:u', 'tp:general:e']);
    }
  });

  it('answers what the apps never send with 404: commands in the URL, transactions; a query token is no credential', async () => {
    const notFound = {
      status: 404,
      body: { error: expect.stringMatching(/not an endpoint of the store bridge/) },
    };
    expect(await h.raw('/set/pf%3Ak/v?EX=100', { method: 'GET' })).toEqual(notFound);
    expect(await h.raw('/set/pf:body', { body: 'raw body' })).toEqual(notFound);
    expect(await h.raw('/multi-exec', { body: JSON.stringify([['set', 'xa:k', 'v']]) })).toEqual(notFound);
    expect(await redis.get('xa:k')).toBeNull();
    const viaQuery = await fetch(`${h.url}/?_token=${TOKEN}`, { method: 'POST', body: '["ping"]' });
    expect(viaQuery.status).toBe(401);
  });

  it('refuses bad requests without crashing: auth, JSON, size, method, connection-state commands', async () => {
    expect(await h.raw('/', { body: '["ping"]', headers: { authorization: 'Bearer nope' } })).toEqual({
      status: 401,
      body: { error: 'Unauthorized' },
    });
    expect((await h.raw('/', { body: '["get", "k"' })).status).toBe(400);
    expect((await h.raw('/', { body: '{"cmd":"get"}' })).status).toBe(400);
    expect((await h.raw('/', { body: '[["get","k"]]' })).status).toBe(400);
    expect((await h.raw('/pipeline', { body: '["get","k"]' })).status).toBe(400);
    expect((await h.raw('/', { body: new Uint8Array(10 * 1024 * 1024 + 1).fill(0x20) })).status).toBe(413);
    expect((await h.raw('/', { method: 'PUT', body: '["ping"]' })).status).toBe(405);
    expect((await h.raw('/', { body: '["select","2"]' })).status).toBe(400);
    expect((await h.raw('/', { body: '["blpop","q","0"]' })).status).toBe(400);
    expect((await h.raw('/pipeline', { body: '[["set","ms:k","1"],["multi"]]' })).body).toEqual([
      { result: 'OK' },
      { error: expect.stringMatching(/'multi' is not available through the store bridge/) },
    ]);
    expect(await redis.ping()).toBe('PONG');
  });
});
