// Access and app logs under the real runtime: the gateway worker in workerd hands its
// batched access-log writes (and the logger's flush) to the request's waitUntil, so a request's
// record reaches the store although nothing awaits it before the response.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unstable_startWorker } from 'wrangler';
import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { createClickHouse } from '../../shared/src/stores/clickhouse';
import { CLICKHOUSE_URL } from '../helpers/env';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

async function dropClickHouseDatabase(database: string): Promise<void> {
  const ch = createClickHouse({ url: CLICKHOUSE_URL, requestTimeoutMs: 10_000 });
  await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(database)}`.sql });
  await ch.close();
}

type Worker = Awaited<ReturnType<typeof unstable_startWorker>>;

const ROOT = join(import.meta.dirname, '../..');
let h: ProxyHarness;
let worker: Worker | undefined;

function startGateway(env: Record<string, string>): Promise<Worker> {
  return unstable_startWorker({
    name: 'gateway-server-logs',
    entrypoint: join(ROOT, 'gateway-worker/src/worker.ts'),
    compatibilityDate: '2026-04-01',
    compatibilityFlags: ['enable_request_signal'],
    bindings: Object.fromEntries(
      Object.entries(env).map(([key, value]) => [key, { type: 'plain_text' as const, value }]),
    ),
    dev: {
      server: { hostname: '127.0.0.1', port: 0 },
      inspector: false,
      watch: false,
      logLevel: 'warn',
      persist: false,
    },
  });
}

beforeAll(async () => {
  // The harness's ClickHouse database outlives a run: start from an empty one, so only this
  // run's requests can match.
  await dropClickHouseDatabase('sluice_it_l_server_logs_workerd');
  h = await proxyHarness('l_server_logs_workerd');
  // Once more if the runtime fails to start: on a loaded machine workerd now and then does not.
  for (let attempt = 1; ; attempt++) {
    try {
      worker = await startGateway({ ...h.gateway.env, SLUICE_STORE_TIMEOUT_MS: '15000' });
      await worker.ready;
      break;
    } catch (error) {
      await worker?.dispose().catch(() => {});
      worker = undefined;
      if (attempt >= 2) throw error;
    }
  }
}, 180_000);

afterAll(async () => {
  await worker?.dispose();
  await h?.close();
});

const found = (path: string) =>
  vi.waitFor(
    async () => {
      const res = await h.admin('GET', path);
      expect(res.status).toBe(200);
      // The page and its total are two ClickHouse queries run side by side: a batch that lands
      // between them gives a total of 1 and no entry yet, so wait for the entry itself.
      if (res.body.entries.length < 1) throw new Error('not stored yet');
      return res.body.entries;
    },
    { timeout: 15_000, interval: 200 },
  );

describe('gateway in workerd', () => {
  it('stores the access record of a proxied request and of a refused one', async () => {
    const base = await worker?.url;
    const ok = await fetch(new URL('/v1/chat/completions', base), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${h.apiKey}`,
        'content-type': 'application/json',
        'user-agent': 'workerd-access-log/1',
      },
      body: JSON.stringify({ model: 'm-openai', messages: [{ role: 'user', content: 'workerd' }] }),
    });
    expect(ok.status).toBe(200);
    await ok.text();
    const refused = await fetch(new URL('/v1/models?x=1', base), {
      headers: { 'user-agent': 'workerd-access-log/1' },
    });
    expect(refused.status).toBe(401);
    const [entry] = await found('/api/admin/access-logs?port=3000&q=workerd-access-log&status_code=200');
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      status_code: 200,
      port: 3000,
    });
    expect(entry.user_id).toBe((await h.admin('GET', '/api/auth/me')).body.id);
    const [anonymous] = await found('/api/admin/access-logs?port=3000&q=workerd-access-log&status_code=401');
    expect(anonymous).toMatchObject({ method: 'GET', path: '/v1/models', user_id: null });
  });
});
