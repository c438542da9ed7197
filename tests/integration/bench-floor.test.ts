// The runtime's floors of `npm run bench:peers` (bench/workerd-floor.ts, bench/floor/worker.js)
// in a real workerd against real Redis: `workerd` passes the call and the upstream's answer
// through untouched without a store hop, `workerd-store` makes exactly one Redis round trip per
// request before it, and a store that cannot be reached is a 502, not a hang. A floor that
// skipped its hop would make Sluice look slower than it is beside it.
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerdFloorTarget } from '../../bench/workerd-floor';
import { cleanupAll } from '../../dev/bench/cleanup';
import type { FakeUpstream } from '../../dev/bench/fake-upstream';
import { freePort } from '../../self-host/process/ports';
import { INTEGRATION_REDIS_URL, withRedisDatabase } from '../helpers/env';

const REDIS_URL = withRedisDatabase(INTEGRATION_REDIS_URL, 14);
const COUNTER = 'sluice-bench-floor';
const ANSWER = '{"id":"chatcmpl-floor","object":"chat.completion","usage":{"total_tokens":3}}';

let server: Server;
let upstream: FakeUpstream;
let runDir: string;
let redis: Redis;
const seen: Array<{ path: string; body: string; authorization?: string }> = [];

beforeAll(async () => {
  runDir = mkdtempSync(join(tmpdir(), 'sluice-bench-floor-'));
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      if (req.url === '/health') return res.end('ok');
      seen.push({ path: req.url ?? '', body, authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  upstream = { url, pid: process.pid, jsonBody: ANSWER, streamBody: '' };
  redis = new Redis(REDIS_URL);
});

afterAll(async () => {
  await cleanupAll();
  server?.close();
  await redis?.quit();
  rmSync(runDir, { recursive: true, force: true });
});

const counted = async () => Number((await redis.get(COUNTER)) ?? 0);

async function post(url: string, body: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, text: await response.text() };
}

describe('the runtime floors of bench:peers', () => {
  it('workerd passes the request and the answer through without touching the store', async () => {
    const target = await workerdFloorTarget('workerd', upstream, { runDir, cpus: null, redisUrl: REDIS_URL });
    const before = await counted();
    const body = '{"model":"bench-json","messages":[{"role":"user","content":"hi"}]}';
    const answer = await post(target.request.json.url, body);
    expect(answer).toEqual({ status: 200, text: ANSWER });
    expect(seen.at(-1)).toEqual({ path: '/v1/chat/completions', body, authorization: 'Bearer sk-bench' });
    expect(target.request.stream.url).toMatch(/\/sse\/v1\/chat\/completions$/);
    expect(await counted()).toBe(before);
  }, 30_000);

  it('workerd-store makes one Redis round trip for each request', async () => {
    const target = await workerdFloorTarget('workerd-store', upstream, {
      runDir,
      cpus: null,
      redisUrl: REDIS_URL,
    });
    const before = await counted();
    for (let i = 0; i < 3; i++)
      expect(await post(target.request.json.url, '{}')).toEqual({ status: 200, text: ANSWER });
    expect(await counted()).toBe(before + 3);
  }, 30_000);

  it('workerd-store answers 502 when Redis cannot be reached', async () => {
    const closed = `redis://127.0.0.1:${await freePort()}/0`;
    const target = await workerdFloorTarget('workerd-store', upstream, {
      runDir: join(runDir, 'closed'),
      cpus: null,
      redisUrl: closed,
    });
    const requests = seen.length;
    const answer = await post(target.request.json.url, '{}');
    expect(answer.status).toBe(502);
    expect(answer.text).toMatch(/^the store answered -ERR/);
    expect(seen.length).toBe(requests);
  }, 30_000);
});
