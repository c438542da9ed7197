// Lossless logging: a gateway whose CLICKHOUSE_URL is a closed port keeps answering
// model requests, says once that ClickHouse is unreachable, and keeps every request-log row in
// the Postgres table of the log (the spill) instead of dropping it: nothing is counted as
// dropped. (tests/e2e/store-outage.test.ts drives the whole round trip back to ClickHouse.)
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresRequestLogStore } from '../../shared/src/logs/requests/postgres-store';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

const DROPPED = 'sluice_analytics_dropped_records_total{log="request"}';
const REQUESTS = 5;

let h: ProxyHarness;
let down: GatewayHarness;

function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

beforeAll(async () => {
  h = await proxyHarness('r_clickhouse_down');
  down = gatewayHarness({
    ...h.gateway.env,
    CLICKHOUSE_URL: 'http://127.0.0.1:1',
    SLUICE_METRICS_KEY: `it:metrics:${randomUUID()}`,
  });
});
afterAll(() => h.close());

describe('gateway with ClickHouse unreachable', () => {
  it('keeps answering 200 and keeps every request-log row in the Postgres spill, none dropped', async () => {
    const warnings: string[] = [];
    const spy = vi.spyOn(console, 'warn').mockImplementation((line: unknown) => {
      warnings.push(String(line));
    });
    try {
      for (let i = 0; i < REQUESTS; i++) {
        const res = await down.call('POST', '/v1/chat/completions', {
          token: h.apiKey,
          body: { model: 'm-openai', messages: [{ role: 'user', content: `while down ${i}` }] },
        });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { choices: unknown[] }).choices).toHaveLength(1);
      }
      const spill = createPostgresRequestLogStore(down.deps.db);
      const rows = await vi.waitFor(
        async () => {
          const found = await spill.list({ apiKeyId: h.keyId, limit: 50 });
          if (found.length < REQUESTS) throw new Error(`${found.length} of ${REQUESTS} rows spilled`);
          return found;
        },
        { timeout: 10_000, interval: 100 },
      );
      expect(rows).toHaveLength(REQUESTS);
      expect(rows.every((row) => row.statusCode === 200 && row.model === 'm-openai')).toBe(true);
      const logged = warnings.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(
        logged.filter((entry) => entry.message === 'ClickHouse unreachable: log rows wait in Postgres'),
      ).toHaveLength(1);
      expect(
        logged.filter((entry) => entry.message === 'analytics records dropped' && entry.log === 'request'),
      ).toEqual([]);
      expect(value(await (await down.app.request('/metrics')).text(), DROPPED)).toBe(0);
    } finally {
      spy.mockRestore();
    }
  });
});
