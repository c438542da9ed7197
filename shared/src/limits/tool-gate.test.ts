import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../stores/breaker';
import type { ScriptCall } from '../stores/lua-script';
import { COUNTING_SINCE_KEY } from './counting-since';
import type { LimitSubject, SubjectLimits } from './definitions';
import { createToolGate, toolCallCounters, toolUsageReads } from './tool-gate';
import type { ToolLimitDef } from './tool-limits';

const subject: LimitSubject = { keyId: 'k1', userId: 'u1', rateLimitRpm: null };
const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
const search = { server: 'github', tool: 'search' };

function limitsWith(key: ToolLimitDef[] | null, user: ToolLimitDef[]): SubjectLimits {
  return { key: null, user: { rules: [], budgets: [] }, tools: { key, user } };
}

/** A script runner that records calls and answers what the CHECK script would. */
function recordingRun(reply: unknown | Error) {
  const calls: ScriptCall[] = [];
  return {
    calls,
    run: async (call: ScriptCall) => {
      calls.push(call);
      if (reply instanceof Error) throw reply;
      return reply;
    },
  };
}

function gate(run: (call: ScriptCall) => Promise<unknown>, limits: SubjectLimits | Error) {
  const warnings: string[] = [];
  const tools = createToolGate({
    run,
    limitsOf: async () => {
      if (limits instanceof Error) throw limits;
      return limits;
    },
    warn: (message) => warnings.push(message),
  });
  return { tools, warnings };
}

describe('toolCallCounters', () => {
  it('counts 1 on every limit of the key and the owner that covers the tool, and only those', () => {
    const limits = limitsWith(
      [{ tool: 'github__search', kind: 'rate', window: '1m', limit: 3 }],
      [
        { tool: 'github__*', kind: 'budget', period: 'daily', limit: 100 },
        { tool: '*', kind: 'rate', window: '1h', limit: 50 },
        { tool: 'docs__read', kind: 'rate', window: '1m', limit: 1 },
      ],
    );
    const counters = toolCallCounters(subject, limits, search, NOW);
    expect(counters.map((c) => ({ label: c.label, key: c.key, limit: c.limit, cost: c.cost }))).toEqual([
      {
        label: 'key:tool_calls/1m:github__search',
        key: 'sluice:rl:key:k1:tool:github__search:1m',
        limit: 3,
        cost: 1,
      },
      {
        label: 'user:tool_budget/daily:github__*',
        key: 'sluice:rl:user:u1:tool:github__*:2026-11-29',
        limit: 100,
        cost: 1,
      },
      { label: 'user:tool_calls/1h:*', key: 'sluice:rl:user:u1:tool:*:1h', limit: 50, cost: 1 },
    ]);
    expect(
      toolCallCounters(subject, limits, { server: 'docs', tool: 'search' }, NOW).map((c) => c.label),
    ).toEqual(['user:tool_calls/1h:*']);
  });

  it('a JWT caller (no key) runs under its own limits only', () => {
    const limits = limitsWith(null, [{ tool: '*', kind: 'rate', window: '1m', limit: 5 }]);
    const counters = toolCallCounters({ ...subject, keyId: null }, limits, search, NOW);
    expect(counters.map((c) => c.label)).toEqual(['user:tool_calls/1m:*']);
  });

  it('reads every limit at cost 0 for the usage report', () => {
    const limits = limitsWith(
      [{ tool: 'a__b', kind: 'rate', window: '5m', limit: 1 }],
      [{ tool: '*', kind: 'budget', period: 'monthly', limit: 9 }],
    );
    const reads = toolUsageReads(subject, limits, NOW);
    expect(reads.map((r) => [r.scope, r.counter.key, r.counter.cost, r.counter.meta.resetsAt])).toEqual([
      ['key', 'sluice:rl:key:k1:tool:a__b:5m', 0, null],
      ['user', 'sluice:rl:user:u1:tool:*:2026-11', 0, '2026-12-01T00:00:00.000Z'],
    ]);
  });
});

describe('createToolGate', () => {
  const limited = limitsWith(null, [{ tool: 'github__*', kind: 'rate', window: '1m', limit: 2 }]);

  it('makes no Redis call when no limit covers the tool', async () => {
    const redis = recordingRun(new Error('not to be called'));
    const { tools } = gate(
      redis.run,
      limitsWith(null, [{ tool: 'docs__*', kind: 'rate', window: '1m', limit: 1 }]),
    );
    expect(await tools.admit({ subject, tool: search, nowMs: NOW, failClosed: true })).toEqual({ ok: true });
    const none = gate(redis.run, { key: null, user: { rules: [], budgets: [] } });
    expect(await none.tools.admit({ subject, tool: search, nowMs: NOW, failClosed: true })).toEqual({
      ok: true,
    });
    expect(redis.calls).toHaveLength(0);
  });

  it('admits when the script counted the call', async () => {
    const redis = recordingRun([1, [1, 0, []]]);
    const { tools } = gate(redis.run, limited);
    expect(await tools.admit({ subject, tool: search, nowMs: NOW, failClosed: false })).toEqual({ ok: true });
    expect(redis.calls).toHaveLength(1);
    // The counter, then the counting-since key the script stamps if Redis lost it.
    expect(redis.calls[0]?.keys).toEqual(['sluice:rl:user:u1:tool:github__*:1m', COUNTING_SINCE_KEY]);
  });

  it('refuses with the limit, the wait until a call fits and that instant', async () => {
    // Two calls counted 20 s and 10 s ago (1 s buckets): one leaves the window in 40 s.
    const bucket = Math.floor(NOW / 1000);
    const redis = recordingRun([0, [2, bucket - 10, [bucket - 20, 1, bucket - 10, 1]]]);
    const { tools } = gate(redis.run, limited);
    expect(await tools.admit({ subject, tool: search, nowMs: NOW, failClosed: false })).toEqual({
      ok: false,
      label: 'user:tool_calls/1m:github__*',
      retryAfterSeconds: 40,
      resetsAt: new Date(NOW + 40_000).toISOString(),
    });
  });

  it('a used-up budget frees when its period ends', async () => {
    const daily = limitsWith(null, [{ tool: '*', kind: 'budget', period: 'daily', limit: 5 }]);
    const { tools } = gate(recordingRun([0, [5, 0, [0, 5]]]).run, daily);
    expect(await tools.admit({ subject, tool: search, nowMs: NOW, failClosed: false })).toMatchObject({
      ok: false,
      label: 'user:tool_budget/daily:*',
      retryAfterSeconds: 12 * 3600,
      resetsAt: '2026-11-30T00:00:00.000Z',
    });
  });

  it('passes when limits or counters cannot be read, or refuses with rate_limit_fail_closed', async () => {
    const down = gate(recordingRun(new Error('redis down')).run, limited);
    expect(await down.tools.admit({ subject, tool: search, nowMs: NOW, failClosed: false })).toEqual({
      ok: true,
    });
    expect(await down.tools.admit({ subject, tool: search, nowMs: NOW, failClosed: true })).toEqual({
      ok: false,
      label: 'rate_limiter_unavailable',
      retryAfterSeconds: 30,
      resetsAt: null,
    });
    expect(down.warnings).toEqual(['tool limit counters unavailable', 'tool limit counters unavailable']);

    const unloaded = gate(recordingRun([1]).run, new Error('postgres down'));
    expect(await unloaded.tools.admit({ subject, tool: search, nowMs: NOW, failClosed: false })).toEqual({
      ok: true,
    });
    expect(await unloaded.tools.admit({ subject, tool: search, nowMs: NOW, failClosed: true })).toMatchObject(
      {
        ok: false,
        label: 'limits_unavailable',
      },
    );

    // An open breaker has warned once already.
    const breaker = gate(recordingRun(new StoreUnavailableError('Redis')).run, limited);
    await breaker.tools.admit({ subject, tool: search, nowMs: NOW, failClosed: false });
    expect(breaker.warnings).toEqual([]);
  });
});
