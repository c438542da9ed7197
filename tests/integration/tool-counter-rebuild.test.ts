// Redis lost its data: the tool budgets' counters (calls per day / month of a tool pattern) are
// rebuilt from the MCP call log, beside the request counters (shared/src/limits/counter-rebuild.ts,
// tool-counter-rebuild.ts). Real Redis (a database of this file's own, so the loss is a real
// FLUSHDB) through the console's own RESP client, and the MCP call log over every real driver.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresPool, type PostgresPool } from '../../console-server/src/stores/postgres';
import { connectDirectRedis, type DirectRedis } from '../../console-server/src/stores/redis';
import { createRedisBackend, type RedisBackend, runCommand } from '../../self-host/bridge/redis-backend';
import { storeMarker } from '../../shared/src/db/repos/store-markers-repo';
import { keepCounters } from '../../shared/src/limits/counter-rebuild';
import { COUNTING_SINCE_KEY } from '../../shared/src/limits/counting-since';
import type { LimitSubject, SubjectLimits } from '../../shared/src/limits/definitions';
import { createLimiter } from '../../shared/src/limits/limiter';
import { createToolGate } from '../../shared/src/limits/tool-gate';
import type { McpLogRecord } from '../../shared/src/mcp/ports';
import { blockedCallMessage, LIMITED_CALL_PREFIX } from '../../shared/src/mcp/refusals';
import { directScripts } from '../../shared/src/stores/lua-script';
import { ADAPTER_NAMES, type AnalyticsAdapters, startAnalyticsAdapters } from '../helpers/analytics-adapters';
import { freshDatabase } from '../helpers/stores';

const REDIS_URL = process.env.TEST_TOOL_REBUILD_REDIS_URL ?? 'redis://127.0.0.1:6379/8';
/** Wednesday 18 November 2026, 10:00 UTC. */
const T = Date.parse('2026-11-18T10:00:00.000Z');
const HOUR = 3_600_000;
const DELAY_MS = 5_000;
const SERVER_ID = randomUUID();

/** The key may call github's tools 5 times a day; its owner any tool 10 times a month. */
const limits: SubjectLimits = {
  key: { rules: [], budgets: [] },
  user: { rules: [], budgets: [] },
  tools: {
    key: [{ tool: 'github__*', kind: 'budget', period: 'daily', limit: 5 }],
    user: [{ tool: '*', kind: 'budget', period: 'monthly', limit: 10 }],
  },
};

let backend: RedisBackend;
let direct: DirectRedis;
let adapters: AnalyticsAdapters;
let db: PostgresPool;

beforeAll(async () => {
  backend = createRedisBackend(REDIS_URL);
  direct = connectDirectRedis(REDIS_URL, 5_000);
  adapters = await startAnalyticsAdapters({
    pgName: 'tool_counter_rebuild',
    chDatabase: 'sluice_it_tool_rebuild',
  });
  db = createPostgresPool(await freshDatabase('tool_counter_rebuild_marker'), 2);
});

afterAll(async () => {
  direct?.close();
  await db?.pool.end();
  await adapters?.close();
  await backend?.close();
});

describe.each(ADAPTER_NAMES)('tool budgets rebuilt from the MCP call log (%s)', (adapter) => {
  it('puts back the calls the gate let through before the loss, not the ones refused, and counts later ones once', async () => {
    await runCommand(backend, ['FLUSHDB']);
    const redis = direct.redis;
    const subject: LimitSubject = { keyId: randomUUID(), userId: randomUUID(), rateLimitRpm: null };
    const log = adapters.stores[adapter];
    const deps = {
      redis,
      log: log.requests,
      marker: storeMarker(db.db, `redis_epoch_${adapter.replace('-', '_')}`),
      delayMs: DELAY_MS,
      tools: { log: log.mcpCalls, limitsOf: async () => limits },
    };
    const gate = createToolGate({ run: directScripts(redis), limitsOf: async () => limits, warn: () => {} });
    const limiter = createLimiter({ redis, limitsOf: async () => limits, timeoutMs: 5_000, warn: () => {} });
    const row = (at: number, server: string, tool: string, error: string | null = null): McpLogRecord => ({
      id: randomUUID(),
      createdAt: new Date(at),
      userId: subject.userId,
      apiKeyId: subject.keyId,
      serverId: SERVER_ID,
      serverName: server,
      toolName: tool,
      status: error === null ? 'success' : 'error',
      durationMs: 12,
      error,
    });
    /** A call the gate admits (and counts), and its log row. */
    const call = async (at: number, server: string, tool: string, error: string | null = null) => {
      expect(await gate.admit({ subject, tool: { server, tool }, nowMs: at, failClosed: true })).toEqual({
        ok: true,
      });
      return row(at, server, tool, error);
    };
    const used = async (at: number) => {
      const report = await limiter.readUsage(subject, at);
      return Object.fromEntries(report.tool_limits.map((l) => [`${l.scope}:${l.tool}`, l.used]));
    };

    expect(await keepCounters(deps, T - 5 * HOUR)).toEqual({ state: 'marked' });
    const before = [
      await call(Date.parse('2026-11-05T12:00:00Z'), 'github', 'search'), // this month, not today
      await call(T - 3 * HOUR, 'github', 'search'),
      await call(T - 2 * HOUR, 'github', 'create_issue'),
      await call(T - 2 * HOUR, 'slack', 'post'),
      // Counted by the gate, then failed upstream: it counts.
      await call(T - HOUR, 'github', 'search', 'upstream answered 502'),
      // Refused before the upstream: the gate counted neither.
      row(
        T - 30 * 60_000,
        'github',
        'search',
        `${LIMITED_CALL_PREFIX}key:tool_budget/daily:github__* on github__search`,
      ),
      row(T - 20 * 60_000, 'slack', 'post', blockedCallMessage('no-secrets')),
    ];
    await log.mcpCalls.insert(before);
    expect(await used(T - 1_000)).toEqual({ 'key:github__*': 3, 'user:*': 5 });

    // The loss. The first call after it stamps when counting began again (the gate's CHECK does).
    await runCommand(backend, ['FLUSHDB']);
    const after = await call(T, 'github', 'search');
    expect(String(await redis.get(COUNTING_SINCE_KEY))).toBe(String(T));
    await log.mcpCalls.insert([after]);
    expect(await used(T + 1_000)).toEqual({ 'key:github__*': 1, 'user:*': 1 });

    expect(await keepCounters(deps, T + 1_000)).toEqual({ state: 'waiting', countingSince: T });
    expect(await keepCounters(deps, T + DELAY_MS)).toMatchObject({
      state: 'rebuilt',
      countingSince: T,
      toolCalls: 5,
    });
    expect(await used(T + DELAY_MS)).toEqual({ 'key:github__*': 4, 'user:*': 6 });

    // The key's fifth github call today passes; the sixth is refused by the rebuilt budget.
    expect((await call(T + 6_000, 'github', 'search')).serverName).toBe('github');
    expect(
      await gate.admit({
        subject,
        tool: { server: 'github', tool: 'search' },
        nowMs: T + 7_000,
        failClosed: true,
      }),
    ).toMatchObject({
      ok: false,
      label: 'key:tool_budget/daily:github__*',
    });
  });
});
