// Budget thresholds: budget_warning_threshold / budget_critical_threshold in effect.
// Successful answers name the tightest budget's state (x-sluice-budget-status); /v1/usage gives
// each limit's status; crossing a threshold (and running out) is told once per subject, period
// and level — however many requests see it — to the app log and a signed webhook, retried when
// it fails. Real Postgres/Redis/ClickHouse, fake upstreams, a real HTTP webhook receiver.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hmacHex } from '../../shared/src/limits/budget-alerts';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

const SECRET = 'whsec-budget-test';
let h: ProxyHarness;
let receiver: Server;
const received: Array<{ body: Record<string, unknown>; text: string; headers: Record<string, string> }> = [];
let failNext = 1;

// Through `request`: what a request does after its response (alerts) can be waited for.
const chat = () =>
  h.gateway.request('/v1/chat/completions', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${h.apiKey}`,
      'content-type': 'application/json',
      'cache-control': 'no-store',
    },
    body: JSON.stringify({
      model: 'm-openai',
      // What it may use is reserved while it runs: its prompt and these 8 output tokens.
      max_tokens: 8,
      messages: [{ role: 'user', content: 'one two three four five six seven eight' }],
    }),
  });

type Usage = { limits: Array<{ kind: string; window: string; status: string; used: number; limit: number }> };

async function usage(): Promise<Usage> {
  const res = await h.gateway.app.request('/v1/usage', { headers: { authorization: `Bearer ${h.apiKey}` } });
  return (await res.json()) as Usage;
}

const usedToday = async () => (await usage()).limits.find((l) => l.window === 'daily')?.used ?? 0;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      if (failNext > 0) {
        failNext--;
        res.writeHead(503).end();
        return;
      }
      received.push({ body: JSON.parse(text), text, headers: req.headers as Record<string, string> });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  h = await proxyHarness('budget_alerts');
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const settings = await h.admin('PATCH', '/api/admin/settings', {
    settings: {
      budget_warning_threshold: 0.3,
      budget_critical_threshold: 0.6,
      budget_alert_webhook_url: url,
      budget_alert_webhook_secret: SECRET,
    },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  const budget = await h.admin('PUT', `/api/admin/limits/api_key/${h.keyId}/budgets`, {
    budgets: [{ period: 'daily', limit_tokens: 100 }],
  });
  expect(budget.status, JSON.stringify(budget.body)).toBe(200);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('budget thresholds', () => {
  it('name the budget state on answers, and tell each level once, signed, until the budget runs out', async () => {
    const states: string[] = [];
    for (let i = 0; i < 30; i++) {
      const before = await usedToday();
      const res = await chat();
      if (res.status === 429) break;
      expect(res.status).toBe(200);
      expect(res.headers.get('x-sluice-budget-period')).toBe('key:daily');
      states.push(res.headers.get('x-sluice-budget-status') ?? '');
      // The tokens are counted after the answer (write-behind), which also gives back what the
      // request reserved: the next request must see the real count, not this one's reservation.
      await res.arrayBuffer();
      await h.gateway.settled();
      expect(await usedToday()).toBeGreaterThan(before);
    }
    expect(states[0]).toBe('ok');
    expect(states).toContain('warning');
    expect(states).toContain('critical');
    expect(states.indexOf('warning')).toBeLessThan(states.indexOf('critical'));
    // Each level once; a retried post (the first is answered 503) may arrive after a later level.
    await vi.waitFor(
      () => expect(received.map((r) => r.body.level).sort()).toEqual(['critical', 'exhausted', 'warning']),
      {
        timeout: 10_000,
        interval: 100,
      },
    );
    for (const { body, text, headers } of received) {
      expect(body).toMatchObject({
        type: 'budget.threshold',
        scope: 'key',
        subject_id: h.keyId,
        period: 'daily',
      });
      const timestamp = headers['x-sluice-timestamp'];
      expect(headers['x-sluice-signature']).toBe(`sha256=${await hmacHex(SECRET, `${timestamp}.${text}`)}`);
    }
    expect(received.find((r) => r.body.level === 'warning')?.body).toMatchObject({ limit: 100 });
    expect(failNext).toBe(0); // the first post was answered 503 and retried
  });

  it('give each limit its status in /v1/usage', async () => {
    const daily = (await usage()).limits.find((l) => l.window === 'daily');
    expect(daily).toMatchObject({ kind: 'tokens', limit: 100 });
    // Refused once what is left no longer fits a request's reservation: past critical, and
    // exhausted only if the last answers used it all.
    expect(daily?.status).toBe(daily && daily.used >= 100 ? 'exhausted' : 'critical');
    expect(daily?.used).toBeGreaterThanOrEqual(60);
  });

  it('tell no level twice, however many requests see it', async () => {
    for (let i = 0; i < 3; i++) expect((await chat()).status).toBe(429);
    // Each refusal's notice runs after its answer: once they are all done, none was posted.
    await h.gateway.settled();
    expect(received).toHaveLength(3);
  });
});
