// The store bridge reports what it served (requests per endpoint, Redis
// commands, SQL statements) at GET /_bridge/counts, behind the Upstash
// token, so `npm run bench` counts the apps' store round trips without a proxy in their path.
// The real bridge server over real Postgres; Redis is the in-memory store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBackend } from '../../dev/embedded/memory-backend';
import { BRIDGE_COUNTS_PATH, type BridgeCounts } from '../../self-host/bridge/counts';
import { type StoreBridge, startStoreBridge } from '../../self-host/bridge/server';
import { PG_HOST, PG_PORT, pgUrl } from '../helpers/env';

const TOKEN = 'bridge-counts-token';
let bridge: StoreBridge;

beforeAll(async () => {
  bridge = await startStoreBridge({
    port: 0,
    pgTarget: { host: PG_HOST, port: PG_PORT },
    redis: createMemoryBackend(),
    redisToken: TOKEN,
  });
});
afterAll(async () => {
  await bridge?.close();
});

const auth = { authorization: `Bearer ${TOKEN}` };

async function counts(): Promise<BridgeCounts> {
  const res = await fetch(`${bridge.env.UPSTASH_REDIS_REST_URL}${BRIDGE_COUNTS_PATH}`, { headers: auth });
  expect(res.status).toBe(200);
  return (await res.json()) as BridgeCounts;
}

function post(url: string, body: unknown, headers: Record<string, string> = auth): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('store bridge counts', () => {
  it('counts Upstash and Neon HTTP requests, their commands and statements', async () => {
    const before = await counts();
    const rest = bridge.env.UPSTASH_REDIS_REST_URL;
    expect(
      (
        await post(`${rest}/pipeline`, [
          ['SET', 'a', '1'],
          ['INCR', 'a'],
          ['GET', 'a'],
        ])
      ).status,
    ).toBe(200);
    expect((await post(`${rest}/`, ['GET', 'a'])).status).toBe(200);
    const sql = await post(
      bridge.env.NEON_LOCAL_HTTP,
      { query: 'select 1 as one', params: [] },
      { 'neon-connection-string': pgUrl('postgres') },
    );
    expect(sql.status).toBe(200);
    const after = await counts();
    expect({
      upstash_requests: after.upstash_requests - before.upstash_requests,
      redis_commands: after.redis_commands - before.redis_commands,
      sql_requests: after.sql_requests - before.sql_requests,
      sql_statements: after.sql_statements - before.sql_statements,
    }).toEqual({
      upstash_requests: 2,
      redis_commands: 4,
      sql_requests: 1,
      sql_statements: 1,
    });
  });

  it('answers the counts only with the token', async () => {
    const res = await fetch(`${bridge.env.UPSTASH_REDIS_REST_URL}${BRIDGE_COUNTS_PATH}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Unauthorized' });
  });
});
