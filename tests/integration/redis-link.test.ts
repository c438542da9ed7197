// The self-host mode's Redis link (docs/architecture.md, The Redis link): the hot path's script
// pipelines, version reads and probes over one pipelined RESP socket instead of HTTP through the
// bridge. Its connection and codec on a real Redis over a real socket (the Durable Object that
// holds it in workerd is covered by tests/e2e/serve.test.ts); its answers against the Upstash
// client's through the store bridge, for the same calls.

import { createServer, type Socket } from 'node:net';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { runScriptPipeline } from '../../shared/src/runtime/script-pipeline';
import type { LuaScript } from '../../shared/src/stores/lua-script';
import { parseRedisUrl } from '../../shared/src/stores/redis-url';
import { createLinkRedis, toPipelineReplies } from '../../shared/src/stores/resp/link-redis';
import { NO_PREAMBLE } from '../../shared/src/stores/resp/preamble';
import { createRespConnection, type RespConnection } from '../../shared/src/stores/resp/resp-connection';
import { createRawUpstash } from '../../shared/src/stores/upstash';
import { luaSha1 } from '../../shared/test/stores/lua-sha1';
import { INTEGRATION_REDIS_URL } from '../helpers/env';
import { nodeLinkConnection, nodeRespSocket } from '../helpers/node-resp-socket';
import { type SilentServer, startSilentServer } from '../helpers/silent-server';

const defineScript = (name: string, source: string): LuaScript => ({
  name,
  source,
  sha1: luaSha1(source),
});

const endpoint = parseRedisUrl(INTEGRATION_REDIS_URL);
const admin = new Redis(INTEGRATION_REDIS_URL);
const connections: RespConnection[] = [];
const run = `${process.pid}-${Date.now()}`;

function linkConnection(options: { url?: string } = {}) {
  const connection = nodeLinkConnection(options.url ?? INTEGRATION_REDIS_URL);
  connections.push(connection);
  return connection;
}

const linkRedis = (connection: RespConnection) =>
  createLinkRedis(async (commands) => toPipelineReplies(await connection.exec(commands)));

afterAll(() => {
  for (const connection of connections) connection.close();
  admin.disconnect();
});

describe('the Redis link', () => {
  it('answers script pipelines as the Upstash client through the bridge does, NOSCRIPT included', async () => {
    const env = inject('sidecarEnv');
    const upstash = createRawUpstash({
      url: env.UPSTASH_REDIS_REST_URL,
      token: env.UPSTASH_REDIS_REST_TOKEN,
      timeoutMs: 5000,
    });
    // New sources each run: Redis has not loaded them, so EVALSHA meets NOSCRIPT first.
    const counting = defineScript(
      `link-count-${run}`,
      `local n = redis.call('INCR', KEYS[1]) return {n, ARGV[1], tonumber(ARGV[2]), redis.call('GET', KEYS[2])} -- ${run}`,
    );
    const failing = defineScript(`link-fail-${run}`, `return redis.error_reply('limit broken ${run}')`);
    const nothing = defineScript(`link-nil-${run}`, `return redis.call('GET', KEYS[1]) -- ${run}`);
    const calls = (prefix: string) => [
      { script: counting, keys: [`${prefix}:n`, `${prefix}:missing`], args: ['héllo ✓', 42] },
      { script: failing, keys: [], args: [] },
      { script: nothing, keys: [`${prefix}:missing`], args: [] },
    ];
    const viaBridge = await runScriptPipeline(upstash, calls(`bridge-${run}`));
    const viaLink = await runScriptPipeline(linkRedis(linkConnection()), calls(`link-${run}`));
    expect(viaLink).toEqual(viaBridge);
    expect(viaLink[0]).toEqual({ ok: true, value: [1, 'héllo ✓', 42, null] });
    expect(viaLink[1]).toMatchObject({ ok: false, error: expect.stringContaining(`limit broken ${run}`) });
    expect(viaLink[2]).toEqual({ ok: true, value: null });
  });

  it('reads versions with MGET (unset keys as null) and answers a PING', async () => {
    await admin.set(`link-${run}:v1`, '7');
    const redis = linkRedis(linkConnection());
    expect(await redis.mget(`link-${run}:v1`, `link-${run}:v2`)).toEqual(['7', null]);
    expect(await redis.ping()).toBe('PONG');
  });

  it('selects the URL’s database and names itself in CLIENT LIST', async () => {
    const other = new URL(INTEGRATION_REDIS_URL);
    other.pathname = `/${endpoint.database + 2}`;
    const connection = linkConnection({ url: other.toString() });
    await connection.exec([['SET', `link-${run}:db`, 'there']]);
    expect(await admin.get(`link-${run}:db`)).toBeNull();
    const there = new Redis(other.toString());
    expect(await there.get(`link-${run}:db`)).toBe('there');
    there.disconnect();
    expect(await admin.client('LIST')).toMatch(/name=sluice-gateway-link/);
  });

  it('fails the batch with Redis’s refusal when the preamble is refused (a wrong password)', async () => {
    const url = new URL(INTEGRATION_REDIS_URL);
    url.password = 'not-the-password';
    const connection = linkConnection({ url: url.toString() });
    await expect(connection.exec([['PING']])).rejects.toThrow(/Redis refused the connection: .*AUTH/);
  });

  it('works for an ACL user that may not name its connection (the name is a courtesy)', async () => {
    const user = `sluice-link-${run}`;
    await admin.call('ACL', 'SETUSER', user, 'on', '>link-pw', '~*', '+@all', '-client');
    try {
      const url = new URL(INTEGRATION_REDIS_URL);
      url.username = user;
      url.password = 'link-pw';
      const connection = linkConnection({ url: url.toString() });
      expect(
        await connection.exec([
          ['SET', `link-${run}:acl`, 'ok'],
          ['GET', `link-${run}:acl`],
        ]),
      ).toEqual(['OK', 'ok']);
    } finally {
      await admin.call('ACL', 'DELUSER', user);
    }
  });

  it('keeps the order of many batches in flight on one socket', async () => {
    const connection = linkConnection();
    const key = `link-${run}:order`;
    const replies = await Promise.all(Array.from({ length: 200 }, () => connection.exec([['INCR', key]])));
    expect(replies.map(([value]) => value)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const clients = ((await admin.client('LIST')) as string).split('\n');
    expect(clients.filter((line) => line.includes('name=sluice-gateway-link')).length).toBeLessThanOrEqual(
      connections.length,
    );
  });

  it('opens a new socket after Redis closed its connection', async () => {
    const connection = linkConnection();
    const [firstId] = (await connection.exec([['CLIENT', 'ID']])) as number[];
    await admin.client('KILL', 'ID', String(firstId));
    let nextId: unknown;
    for (let attempt = 0; attempt < 5 && nextId === undefined; attempt++) {
      nextId = await connection.exec([['CLIENT', 'ID']]).then(
        ([id]) => id,
        () => undefined,
      );
    }
    expect(typeof nextId).toBe('number');
    expect(nextId).not.toBe(firstId);
  });
});

async function until(condition: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(condition()).toBe(true), { timeout: 1_000, interval: 10 }).catch(() => {});
}

describe('the Redis link without a Redis', () => {
  it('fails the batch at once when nothing listens, and connects once something does', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const connection = createRespConnection({
      open: () => nodeRespSocket('127.0.0.1', port),
      preamble: NO_PREAMBLE,
      stuckAfterMs: 2000,
    });
    connections.push(connection);
    await expect(connection.exec([['PING']])).rejects.toThrow(/ECONNREFUSED/);
    // The same port answers now: the next batch opens a new socket on it.
    const answering = createServer((socket) => socket.on('data', () => socket.write('+PONG\r\n')));
    await new Promise<void>((resolve) => answering.listen(port, '127.0.0.1', resolve));
    try {
      expect(await connection.exec([['PING']])).toEqual(['PONG']);
    } finally {
      connection.close();
      await new Promise((resolve) => answering.close(resolve));
    }
  });
});

describe('the Redis link on a server that never answers', () => {
  let silent: SilentServer;
  let port: number;
  let accepted: Socket[] = [];
  beforeAll(async () => {
    silent = await startSilentServer();
    ({ port, accepted } = silent);
  });
  afterAll(() => silent.close());

  it('replaces a stuck socket: the batch past the deadline fails, the next goes on a new one', async () => {
    let clock = 1_000;
    const connection = createRespConnection({
      open: () => nodeRespSocket('127.0.0.1', port),
      preamble: NO_PREAMBLE,
      stuckAfterMs: 500,
      now: () => clock,
    });
    connections.push(connection);
    const first = connection.exec([['PING']]);
    const firstFailure = first.catch((error: unknown) => error);
    await until(() => accepted.length === 1);
    clock += 400;
    void connection.exec([['PING']]).catch(() => {});
    clock += 200;
    void connection.exec([['PING']]).catch(() => {});
    expect(String(await firstFailure)).toMatch(/did not answer within 500 ms/);
    await until(() => accepted.length === 2);
    expect(accepted).toHaveLength(2);
  });
});
