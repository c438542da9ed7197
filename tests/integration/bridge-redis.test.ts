// The store bridge is production code in the self-host mode. Its Redis
// connection (one pipelined RESP2 socket) against a real Redis, database 14 of the integration
// server: replies matched to requests under concurrency, big replies split across TCP chunks,
// errors nested in replies, AUTH/SELECT, reconnects, and fast, clear failures.
import { createServer, type Server, type Socket } from 'node:net';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRedisBackend, type RedisBackend, runCommand } from '../../self-host/bridge/redis-backend';
import { createRedisConnection, RedisUnavailableError } from '../../self-host/bridge/redis-connection';
import { RespError } from '../../shared/src/stores/resp/resp-codec';
import { startFaultProxy } from '../fakes/fault-proxy';
import { INTEGRATION_REDIS_URL, withRedisDatabase } from '../helpers/env';

const DB14 = withRedisDatabase(INTEGRATION_REDIS_URL, 14);
const text = (reply: unknown): string => (Buffer.isBuffer(reply) ? reply.toString('utf8') : String(reply));

let backend: RedisBackend;
let direct: Redis;
beforeAll(async () => {
  backend = createRedisBackend(DB14, { commandTimeoutMs: 2_000 });
  direct = new Redis(DB14);
  await direct.flushdb();
});
afterAll(async () => {
  await direct.flushdb();
  direct.disconnect();
  await backend.close();
});

describe('the bridge’s Redis connection, against real Redis', () => {
  it('selects the database of the URL', async () => {
    await runCommand(backend, ['SET', 'where', 'db14']);
    expect(await direct.get('where')).toBe('db14');
  });

  it('matches replies to concurrent pipelines in the order they were sent', async () => {
    const calls = Array.from({ length: 200 }, () =>
      backend.pipeline([
        ['INCR', 'order'],
        ['GET', 'order'],
      ]),
    );
    const replies = await Promise.all(calls);
    replies.forEach(([count, value], i) => {
      expect(count).toBe(i + 1);
      expect(text(value)).toBe(String(i + 1));
    });
  });

  it('reads a 3 MB value and a long array split across many TCP chunks, UTF-8 intact', async () => {
    const big = 'ü✓'.repeat(600_000);
    await runCommand(backend, ['SET', 'big', big]);
    const fields = Array.from({ length: 5_000 }, (_, i) => [`f${i}`, `v${i}`]).flat();
    await runCommand(backend, ['HSET', 'wide', ...fields]);
    const [value, all] = await backend.pipeline([
      ['GET', 'big'],
      ['HGETALL', 'wide'],
    ]);
    expect(text(value)).toBe(big);
    expect(Array.isArray(all) && all.length).toBe(10_000);
  });

  it('keeps an error in its slot: a refused command, and one nested in a script’s reply', async () => {
    await runCommand(backend, ['SET', 'word', 'abc']);
    const [refused, fine, nested] = await backend.pipeline([
      ['INCR', 'word'],
      ['GET', 'word'],
      ['EVAL', "return {1, redis.error_reply('boom'), {2, 'x'}}", '0'],
    ]);
    expect(refused).toEqual(new RespError('ERR value is not an integer or out of range'));
    expect(text(fine)).toBe('abc');
    expect(Array.isArray(nested)).toBe(true);
    // Inside an array an error is its text, as the Upstash REST API gives it.
    const [one, boom, inner] = nested as unknown[];
    expect(one).toBe(1);
    expect(text(boom)).toMatch(/^(ERR )?boom$/); // Redis 7 adds the code
    expect((inner as unknown[]).map(text)).toEqual(['2', 'x']);
    await expect(runCommand(backend, ['NOSUCHCOMMAND'])).rejects.toThrow(/unknown command/);
  });

  it('reconnects when Redis drops its connection', async () => {
    const before = await runCommand(backend, ['CLIENT', 'ID']);
    await direct.client('KILL', 'ID', String(before));
    let after: unknown = before;
    const deadline = Date.now() + 3_000;
    while (after === before && Date.now() < deadline) {
      after = await runCommand(backend, ['CLIENT', 'ID']).catch(() => before);
    }
    expect(typeof after).toBe('number');
    expect(after).not.toBe(before);
    expect(text(await runCommand(backend, ['GET', 'where']))).toBe('db14');
  });
});

describe('the bridge’s Redis connection when Redis is not there or not answering', () => {
  let silent: Server;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    // Accepts connections and reads everything, but never answers: a hung Redis.
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('fails fast and clearly when nothing listens, and keeps failing fast until a retry is due', async () => {
    const connection = createRedisConnection({ url: 'redis://127.0.0.1:1/0' });
    const first = connection.pipeline([['PING']]);
    await expect(first).rejects.toThrow(RedisUnavailableError);
    await expect(first).rejects.toThrow(/could not reach Redis at 127\.0\.0\.1:1: .*ECONNREFUSED/);
    const started = Date.now();
    await expect(connection.pipeline([['PING']])).rejects.toThrow(/ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(50);
    await connection.close();
  });

  it('gives up on a Redis that does not answer after the command timeout', async () => {
    const port = (silent.address() as { port: number }).port;
    const connection = createRedisConnection({ url: `redis://127.0.0.1:${port}/0`, commandTimeoutMs: 200 });
    const started = Date.now();
    await expect(connection.pipeline([['PING']])).rejects.toThrow(/no answer within 200 ms/);
    expect(Date.now() - started).toBeLessThan(1_000);
    await connection.close();
  });

  it('replaces an idle connection whose network path broke before a caller waits on it', async () => {
    const redisUrl = new URL(DB14);
    const proxy = await startFaultProxy({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    const connection = createRedisConnection({ url: proxy.rewrite(DB14), commandTimeoutMs: 200 });
    try {
      expect(text(await connection.pipeline([['PING']]).then(([reply]) => reply))).toBe('PONG');
      // The path breaks and heals while the connection idles: that socket stays silent for good.
      proxy.setMode('blackhole');
      proxy.setMode('pass');
      // Idle for longer than the command timeout: a PING of its own finds the socket dead and
      // drops it, and the next caller's command goes on a new one at once instead of timing out
      // on the old.
      await vi.waitFor(() => expect(proxy.open).toBe(0), { timeout: 2_000, interval: 20 });
      const started = Date.now();
      expect(text(await connection.pipeline([['PING']]).then(([reply]) => reply))).toBe('PONG');
      expect(Date.now() - started).toBeLessThan(150);
      expect(proxy.accepted).toBe(2);
    } finally {
      await connection.close();
      await proxy.close();
    }
  });

  it('drops a connection that answers with bytes that are not RESP, failing what waited on it', async () => {
    const impostor = createServer((socket) =>
      socket.once('data', () => socket.write('HTTP/1.1 400 Bad\r\n\r\n')),
    );
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const port = (impostor.address() as { port: number }).port;
    const connection = createRedisConnection({ url: `redis://127.0.0.1:${port}/0` });
    try {
      await expect(connection.pipeline([['PING']])).rejects.toThrow(
        /protocol error: unexpected RESP type byte/,
      );
    } finally {
      await connection.close();
      impostor.close();
    }
  });

  it('says so when the URL’s credentials are refused', async () => {
    const url = new URL(DB14);
    url.password = 'not-the-password';
    const connection = createRedisConnection({ url: url.toString() });
    await expect(connection.pipeline([['PING']])).rejects.toThrow(
      /could not reach Redis at .*\(check REDIS_URL\)/,
    );
    await connection.close();
  });
});
