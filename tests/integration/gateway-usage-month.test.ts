// GET /v1/usage shows the month's prompt-cache reads and writes and reasoning tokens
// from the request log next to its cost (one read of the log), on both stores — ClickHouse, and
// Postgres when CLICKHOUSE_URL is empty — for a key with limits of its own (scope key: its rows)
// and one without (scope user: the owner's rows); all four are null when the log cannot be read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import type { RequestLogRecord } from '../../shared/src/logs/requests/record';
import { createClickHouse } from '../../shared/src/stores/clickhouse';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { CLICKHOUSE_URL } from '../helpers/env';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { requestLogRecord } from '../helpers/request-log-record';
import { appEnv, freshDatabase } from '../helpers/stores';

const CH_DATABASE = 'sluice_it_gateway_usage_month';
const OTHER_USER = '5e000000-0000-4000-8000-000000000001';

let n = 0;
function logged(
  who: { userId: string; apiKeyId: string },
  createdAt: Date,
  tokens: { read: number; write: number; reasoning: number; cost: number | null },
): RequestLogRecord {
  n += 1;
  return requestLogRecord({
    id: `5f${String(n).padStart(6, '0')}-0000-4000-8000-000000000000`,
    createdAt,
    ...who,
    endpoint: '/v1/messages',
    model: 'agent-anth',
    provider: 'anthropic-main',
    providerType: 'anthropic',
    upstreamModel: 'claude-sonnet-4-5',
    stream: true,
    promptTokens: 1000 + tokens.read + tokens.write,
    completionTokens: 100 + tokens.reasoning,
    cachedTokens: tokens.read,
    cacheWriteTokens: tokens.write,
    reasoningTokens: tokens.reasoning,
    totalTokens: 1100 + tokens.read + tokens.write + tokens.reasoning,
    weightedTokens: 1100 + tokens.read + tokens.write + tokens.reasoning,
    costUsd: tokens.cost,
    unpriced: tokens.cost === null,
    latencyMs: 900,
    upstreamLatencyMs: 800,
    reasoningEffort: 'high',
    clientName: 'claude-code',
    clientVersion: '2.1.3',
    userAgent: 'claude-cli/2.1.3 (external, cli)',
  });
}

describe.each([
  'clickhouse',
  'postgres',
] as const)('GET /v1/usage, the month from the request log (%s)', (store) => {
  let h: ConsoleHarness;
  let gateway: GatewayHarness;
  let env: Record<string, string>;
  let ownLimits: { id: string; key: string };
  let noLimits: { id: string; key: string };

  async function usage(apiKey: string, app = gateway.app) {
    const res = await app.request('/v1/usage', { headers: { authorization: `Bearer ${apiKey}` } });
    // biome-ignore lint/suspicious/noExplicitAny: asserted field by field.
    return { status: res.status, body: (await res.json()) as any };
  }

  beforeAll(async () => {
    if (store === 'clickhouse') {
      const ch = createClickHouse({ url: CLICKHOUSE_URL, requestTimeoutMs: 10_000 });
      await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(CH_DATABASE)}`.sql });
      await ch.close();
    }
    const extra: Record<string, string> =
      store === 'clickhouse' ? { CLICKHOUSE_DATABASE: CH_DATABASE } : { CLICKHOUSE_URL: '' };
    env = appEnv(await freshDatabase(`sluice_it_gateway_usage_month_${store}`), extra);
    h = await consoleHarness(env);
    gateway = gatewayHarness(env);
    const admin = {
      email: `usage-${store}@example.com`,
      display_name: 'A',
      password: 'usage-admin-password',
    };
    const setup = await h.call('POST', '/api/setup/initialize', { body: { admin } });
    const { access_token: token, user } = (await setup.json()) as {
      access_token: string;
      user: { id: string };
    };
    const createKey = async (body: Record<string, unknown>) =>
      (await (await h.call('POST', '/api/keys', { token, body })).json()) as { id: string; key: string };
    ownLimits = await createKey({ name: 'own limits', rate_limit_rpm: 1000 });
    noLimits = await createKey({ name: 'owner limits' });
    const now = Date.now();
    const monthStart = new Date(Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1));
    const mine = { userId: user.id, apiKeyId: ownLimits.id };
    // Within this month even when the test runs in its first seconds.
    const ago = (ms: number) => new Date(Math.max(monthStart.getTime(), now - ms));
    await h.deps.requestLogs.insert([
      logged(mine, monthStart, { read: 2 ** 33, write: 500, reasoning: 70, cost: 0.25 }),
      logged(mine, ago(1000), { read: 300, write: 0, reasoning: 30, cost: null }),
      // Last month: not counted.
      logged(mine, new Date(monthStart.getTime() - 1), { read: 9, write: 9, reasoning: 9, cost: 9 }),
      // The owner's other key: the owner's usage, not ownLimits'.
      logged({ userId: user.id, apiKeyId: noLimits.id }, ago(2000), {
        read: 5,
        write: 6,
        reasoning: 7,
        cost: 0.5,
      }),
      // Someone else's request through the same key id: never the owner's.
      logged({ userId: OTHER_USER, apiKeyId: noLimits.id }, ago(3000), {
        read: 1,
        write: 1,
        reasoning: 1,
        cost: 1,
      }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("scope key: the key's own month — cost, cache reads and writes, reasoning tokens", async () => {
    const res = await usage(ownLimits.key);
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('key');
    expect(res.body.usage).toMatchObject({
      cost_usd_month: 0.25,
      cache_read_tokens_month: 2 ** 33 + 300,
      cache_write_tokens_month: 500,
      reasoning_tokens_month: 100,
    });
  });

  it("scope user: the owner's month over every key", async () => {
    const res = await usage(noLimits.key);
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('user');
    expect(res.body.usage).toMatchObject({
      cost_usd_month: 0.75,
      cache_read_tokens_month: 2 ** 33 + 305,
      cache_write_tokens_month: 506,
      reasoning_tokens_month: 107,
    });
  });

  it.runIf(store === 'clickhouse')(
    'answers with the four null when the request log cannot be read',
    async () => {
      const down = gatewayHarness({ ...env, CLICKHOUSE_URL: 'http://127.0.0.1:1' });
      const res = await usage(ownLimits.key, down.app);
      expect(res.status).toBe(200);
      expect(res.body.usage).toMatchObject({
        cost_usd_month: null,
        cache_read_tokens_month: null,
        cache_write_tokens_month: null,
        reasoning_tokens_month: null,
      });
      expect(res.body.usage.requests_month).toEqual(expect.any(Number));
    },
  );
});
