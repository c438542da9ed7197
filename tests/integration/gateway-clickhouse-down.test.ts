// Issue 7 › Stores: ClickHouse down → writes are buffered or dropped with a counter and a
// warning, and the gateway keeps serving. A gateway whose CLICKHOUSE_URL is a closed port keeps
// answering model requests; the request-log rows it cannot store are retried with later batches
// and, once given up, counted in sluice_analytics_dropped_records_total{log="request"}.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
  it('keeps answering 200, warns and counts the request-log rows it drops', async () => {
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
        // Let each row's batch fail before the next one: a row is given up after three tries.
        await new Promise((r) => setTimeout(r, 400));
      }
      const dropWarnings = () =>
        warnings
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((entry) => entry.message === 'analytics records dropped' && entry.log === 'request');
      // Every WARN's count reaches the metric (the scrape may come before the last flush).
      const text = await vi.waitFor(
        async () => {
          const body = await (await down.app.request('/metrics')).text();
          const warned = dropWarnings().reduce((sum, entry) => sum + Number(entry.dropped), 0);
          expect(warned).toBeGreaterThan(0);
          expect(value(body, DROPPED)).toBe(warned);
          return body;
        },
        { timeout: 5_000, interval: 100 },
      );
      expect(dropWarnings()[0]).toMatchObject({ level: 'WARN', target: 'proxy', log: 'request' });
      // Rows are only dropped after their third failed insert: the last two are still buffered.
      expect(value(text, DROPPED)).toBeLessThanOrEqual(REQUESTS - 2);
      expect(() =>
        execFileSync('promtool', ['check', 'metrics'], { input: text, stdio: 'pipe' }),
      ).not.toThrow();
    } finally {
      spy.mockRestore();
    }
  });
});
