// The console's Redis at REDIS_URL (console-server/src/stores/redis.ts): one RESP connection over
// TCP, no store bridge in between. What it does with the URL, and with a Redis that refuses or
// stops answering: every call bounded by the store timeout, and a new socket once Redis is back.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectDirectRedis, type DirectRedis } from '../../console-server/src/stores/redis';
import { type FaultProxy, startFaultProxy } from '../fakes/fault-proxy';
import { INTEGRATION_REDIS_URL, withRedisDatabase } from '../helpers/env';
import { nodeLinkConnection } from '../helpers/node-resp-socket';

const TIMEOUT_MS = 400;
const opened: DirectRedis[] = [];
let proxy: FaultProxy;

function direct(url: string): DirectRedis {
  const client = connectDirectRedis(url, TIMEOUT_MS);
  opened.push(client);
  return client;
}

/** How long a call took to settle, and how (a value, or the error's text). */
async function timed(call: () => Promise<unknown>): Promise<{ ms: number; outcome: unknown }> {
  const started = performance.now();
  const outcome = await call().catch((error: unknown) => `error: ${(error as Error).message}`);
  return { ms: performance.now() - started, outcome };
}

beforeAll(async () => {
  const target = new URL(INTEGRATION_REDIS_URL);
  proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 6379) });
});

afterEach(() => proxy.setMode('pass'));

afterAll(async () => {
  for (const client of opened) client.close();
  await proxy?.close();
});

describe('the console’s direct Redis', () => {
  it('selects the URL’s database and names itself in CLIENT LIST', async () => {
    const key = `it:console-redis:${randomUUID()}`;
    const db14 = direct(withRedisDatabase(INTEGRATION_REDIS_URL, 14)).redis;
    const db1 = direct(INTEGRATION_REDIS_URL).redis;
    await db14.set(key, { on: 14 }, { ex: 60 });
    expect(await db14.get(key)).toEqual({ on: 14 });
    expect(await db1.get(key)).toBeNull();
    const observer = nodeLinkConnection(INTEGRATION_REDIS_URL);
    const [clients] = await observer.exec([['CLIENT', 'LIST']]);
    observer.close();
    expect(clients).toMatch(/name=sluice-console .*db=14/);
  });

  it('fails at once while Redis refuses, and answers on the next call once it is back', async () => {
    const { redis } = direct(proxy.rewrite(INTEGRATION_REDIS_URL));
    expect(await redis.ping()).toBe('PONG');
    proxy.setMode('refuse');
    const refused = await timed(() => redis.ping());
    expect(refused.outcome).toMatch(/^error: /);
    expect(refused.ms).toBeLessThan(TIMEOUT_MS);
    proxy.setMode('pass');
    expect(await redis.ping()).toBe('PONG');
  });

  it('gives up on a Redis that stops answering at the store timeout, then replaces the socket', async () => {
    const { redis } = direct(proxy.rewrite(INTEGRATION_REDIS_URL));
    expect(await redis.ping()).toBe('PONG');
    const before = proxy.accepted;
    proxy.setMode('blackhole');
    // The open socket goes quiet (a broken network path): the call waits out its deadline only.
    const hung = await timed(() => redis.ping());
    expect(hung.outcome).toBe(`error: Redis did not answer within ${TIMEOUT_MS} ms`);
    expect(hung.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(hung.ms).toBeLessThan(TIMEOUT_MS + 300);
    proxy.setMode('pass');
    // The stuck socket is dropped by the next call, which opens a new one and is answered.
    expect(await redis.ping()).toBe('PONG');
    expect(proxy.accepted).toBe(before + 1);
  });

  it('sends a call made the moment another gave up on a new socket (a retry is not lost)', async () => {
    const { redis } = direct(proxy.rewrite(INTEGRATION_REDIS_URL));
    expect(await redis.ping()).toBe('PONG');
    // The path broke while the socket was idle and is back: the old socket stays silent for good.
    proxy.setMode('blackhole');
    proxy.setMode('pass');
    const first = redis.ping();
    const retried = await first.then(
      () => 'answered on the dead socket',
      () => redis.ping(),
    );
    expect(retried).toBe('PONG');
  });
});
