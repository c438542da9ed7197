// The store bridge sheds load instead of queueing without bound: past its
// in-flight budgets (Redis commands, SQL statements, request bytes) it answers
// 503 with a clear {error} at once, and serves again once the load is gone. The real bridge
// server over real Postgres; Redis is the in-memory store with its replies held back on demand,
// so "in flight" is exact rather than a race against a fast Redis.
import { Redis as UpstashRedis } from '@upstash/redis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryBackend } from '../../dev/embedded/memory-backend';
import type { RedisBackend, RedisCommand } from '../../self-host/bridge/redis-backend';
import { type StoreBridge, startStoreBridge } from '../../self-host/bridge/server';
import { PG_HOST, PG_PORT, pgUrl } from '../helpers/env';

const TOKEN = 'bridge-limits-token';

interface HoldingBackend {
  backend: RedisBackend;
  /** From now on, pipelines wait until release(). */
  hold(): void;
  release(): void;
  /** True once a pipeline has reached the backend. */
  entered(): boolean;
}

/** The in-memory store, with pipelines parked on demand. */
function holdingBackend(): HoldingBackend {
  const store = createMemoryBackend();
  let gate = Promise.resolve();
  let open = () => {};
  let reached = false;
  return {
    backend: {
      ...store,
      async pipeline(commands: readonly RedisCommand[]) {
        reached = true;
        await gate;
        return store.pipeline(commands);
      },
    },
    hold() {
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
    release: () => open(),
    entered: () => reached,
  };
}

let bridge: StoreBridge;
let redis: HoldingBackend;

beforeAll(async () => {
  redis = holdingBackend();
  bridge = await startStoreBridge({
    port: 0,
    pgTarget: { host: PG_HOST, port: PG_PORT },
    redis: redis.backend,
    redisToken: TOKEN,
    limits: { maxCommandsInFlight: 4, maxQueriesInFlight: 1, maxBytesInFlight: 2_000 },
  });
});
afterAll(async () => {
  redis.release();
  await bridge?.close();
});

function pipeline(commands: string[][]): Promise<Response> {
  return fetch(`${bridge.env.UPSTASH_REDIS_REST_URL}/pipeline`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(commands),
  });
}

/** Statements with this text Postgres is running now (seen directly, not through the bridge). */
async function running(query: string): Promise<number> {
  const client = new pg.Client({ connectionString: pgUrl('postgres') });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where query = $1 and state = 'active'`,
      [query],
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

function sql(query: string): Promise<Response> {
  return fetch(bridge.env.NEON_LOCAL_HTTP, {
    method: 'POST',
    headers: { 'neon-connection-string': pgUrl('postgres'), 'content-type': 'application/json' },
    body: JSON.stringify({ query, params: [] }),
  });
}

describe('store bridge under overload', () => {
  it('refuses Redis commands past the in-flight cap with 503 {error}, then serves again', async () => {
    redis.hold();
    const parked = pipeline([
      ['SET', 'a', '1'],
      ['SET', 'b', '2'],
      ['GET', 'a'],
    ]);
    await vi.waitFor(() => expect(redis.entered()).toBe(true), { interval: 5 });
    const refused = await pipeline([
      ['GET', 'a'],
      ['GET', 'b'],
    ]);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({
      error: 'ERR store bridge overloaded: 3 Redis commands already in flight (limit 4); retry later',
    });
    redis.release();
    expect((await parked).status).toBe(200);
    const again = await pipeline([
      ['GET', 'a'],
      ['GET', 'b'],
    ]);
    expect(await again.json()).toEqual([{ result: '1' }, { result: '2' }]);
  });

  it('surfaces the 503 to the official Upstash client as an error it can act on', async () => {
    const client = new UpstashRedis({
      url: bridge.env.UPSTASH_REDIS_REST_URL,
      token: TOKEN,
      enableTelemetry: false,
      retry: false,
    });
    await expect(client.mget('a', 'b', 'c', 'd', 'e')).resolves.toHaveLength(5); // 1 command
    const five = client.pipeline();
    for (const key of ['a', 'b', 'c', 'd', 'e']) five.get(key);
    await expect(five.exec()).rejects.toThrow(/store bridge overloaded: 0 Redis commands .*limit 4/);
  });

  it('refuses request bodies past the byte budget before reading them', async () => {
    const refused = await pipeline([['SET', 'big', 'x'.repeat(2_500)]]);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({
      error: 'ERR store bridge overloaded: 0 request bytes already in flight (limit 2000); retry later',
    });
  });

  it('refuses SQL statements past the cap instead of queueing them for a connection', async () => {
    const slow = sql('select pg_sleep(0.5) as slept');
    // In flight once Postgres runs it (the bridge counted it before sending it on).
    await vi.waitFor(async () => expect(await running('select pg_sleep(0.5) as slept')).toBe(1), {
      interval: 10,
    });
    const refused = await sql('select 1 as one');
    expect(refused.status).toBe(503);
    const body = (await refused.json()) as { message: string; error: string };
    expect(body.message).toBe(
      'store bridge overloaded: 1 SQL statements already in flight (limit 1); retry later',
    );
    expect(body.error).toBe(body.message);
    expect((await slow).status).toBe(200);
    expect((await sql('select 1 as one')).status).toBe(200);
  });
});
