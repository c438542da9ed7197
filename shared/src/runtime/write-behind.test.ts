import { describe, expect, it } from 'vitest';
import type { LuaScript } from '../stores/lua-script';
import type { RedisPort } from '../stores/redis-port';
import { runScriptPipeline } from './script-pipeline';
import { createWriteBehind } from './write-behind';

const SCRIPT: LuaScript = { name: 's', source: 'return 1', sha1: 'e0e1f9fabfc9d4800c877a703b823ac0578ff8db' };

/** A Redis that records every pipeline it is sent; `known` lists the scripts it has loaded. */
function fakeRedis(options: { known?: boolean; fail?: boolean } = {}) {
  const pipelines: string[][] = [];
  let known = options.known ?? true;
  const redis = {
    pipeline() {
      const commands: string[] = [];
      const replies: Array<{ result?: unknown; error?: string }> = [];
      const p = {
        evalsha(sha: string, keys: string[], args: string[]) {
          commands.push(`EVALSHA ${sha.slice(0, 6)} ${keys.join(',')} ${args.join(',')}`);
          replies.push(known ? { result: `ok:${keys.join(',')}` } : { error: 'NOSCRIPT No matching script' });
          return p;
        },
        eval(_source: string, keys: string[], args: string[]) {
          commands.push(`EVAL ${keys.join(',')} ${args.join(',')}`);
          replies.push({ result: `ok:${keys.join(',')}` });
          return p;
        },
        async exec() {
          pipelines.push(commands);
          if (options.fail) throw new Error('connection refused');
          known = true;
          return replies;
        },
      };
      return p;
    },
  } as unknown as Pick<RedisPort, 'pipeline'>;
  return { redis, pipelines };
}

describe('runScriptPipeline', () => {
  it('sends every call in one pipeline and answers each on its own', async () => {
    const { redis, pipelines } = fakeRedis();
    const outcomes = await runScriptPipeline(redis, [
      { script: SCRIPT, keys: ['a'], args: [1] },
      { script: SCRIPT, keys: ['b'], args: ['x'] },
    ]);
    expect(outcomes).toEqual([
      { ok: true, value: 'ok:a' },
      { ok: true, value: 'ok:b' },
    ]);
    expect(pipelines).toEqual([['EVALSHA e0e1f9 a 1', 'EVALSHA e0e1f9 b x']]);
  });

  it('sends the calls Redis has no script for again as EVAL, once', async () => {
    const { redis, pipelines } = fakeRedis({ known: false });
    const outcomes = await runScriptPipeline(redis, [{ script: SCRIPT, keys: ['a'], args: [] }]);
    expect(outcomes).toEqual([{ ok: true, value: 'ok:a' }]);
    expect(pipelines).toEqual([['EVALSHA e0e1f9 a '], ['EVAL a ']]);
  });
});

describe('createWriteBehind', () => {
  it('flushes what every source gathered in one pipeline per window and reports each outcome', async () => {
    const { redis, pipelines } = fakeRedis();
    const wb = createWriteBehind(redis, { windowMs: 10, timeoutMs: 1_000 });
    const outcomes: unknown[] = [];
    let pendingA = ['a1', 'a2'];
    let pendingB = ['b1'];
    const source = (pending: () => string[], clear: () => void) => ({
      drain: () => {
        const keys = pending();
        clear();
        return keys.map((key) => ({
          call: { script: SCRIPT, keys: [key], args: [] },
          done: (outcome: unknown) => void outcomes.push(outcome),
        }));
      },
    });
    wb.register(
      source(
        () => pendingA,
        () => {
          pendingA = [];
        },
      ),
    );
    wb.register(
      source(
        () => pendingB,
        () => {
          pendingB = [];
        },
      ),
    );
    await Promise.all([wb.schedule(), wb.schedule()]);
    expect(pipelines).toHaveLength(1);
    expect(pipelines[0]).toHaveLength(3);
    expect(outcomes).toHaveLength(3);
    pendingB = ['b2'];
    await wb.schedule();
    expect(pipelines).toHaveLength(2);
    expect(pipelines[1]).toEqual(['EVALSHA e0e1f9 b2 ']);
  });

  it('reports a failed flush to every write and to onError, and never rejects', async () => {
    const { redis } = fakeRedis({ fail: true });
    const errors: unknown[] = [];
    const wb = createWriteBehind(redis, { windowMs: 1, timeoutMs: 1_000, onError: (e) => errors.push(e) });
    const outcomes: unknown[] = [];
    let sent = false;
    wb.register({
      drain: () => {
        if (sent) return [];
        sent = true;
        return [{ call: { script: SCRIPT, keys: ['k'], args: [] }, done: (o) => void outcomes.push(o) }];
      },
    });
    await expect(wb.schedule()).resolves.toBeUndefined();
    expect(outcomes).toEqual([{ ok: false, error: 'Error: connection refused' }]);
    expect(errors).toHaveLength(1);
  });

  it('opens a new window when one never fired (its timer lost with the request that opened it)', async () => {
    const { redis, pipelines } = fakeRedis();
    let clock = 0;
    const realSetTimeout = globalThis.setTimeout;
    let lose = true;
    // The first window's timer is lost, as a timer of a request context workerd has ended.
    globalThis.setTimeout = ((fn: () => void, ms?: number) =>
      lose ? 0 : realSetTimeout(fn, ms)) as unknown as typeof setTimeout;
    try {
      const writeBehind = createWriteBehind(redis, { windowMs: 5, timeoutMs: 100, now: () => clock });
      let pending = 0;
      writeBehind.register({
        drain() {
          const n = pending;
          pending = 0;
          return n === 0 ? [] : [{ call: { script: SCRIPT, keys: ['tokens'], args: [n] } }];
        },
      });
      pending = 3;
      void writeBehind.schedule();
      lose = false;
      // Within the window's life a contributor joins it (and would wait for ever).
      clock = 500;
      pending += 1;
      const joined = writeBehind.schedule();
      expect(
        await Promise.race([
          joined.then(() => 'flushed'),
          new Promise((r) => realSetTimeout(() => r('waiting'), 30)),
        ]),
      ).toBe('waiting');
      // Past it, the next contributor opens a new window, which carries everything pending.
      clock = 2_000;
      pending += 1;
      await writeBehind.schedule();
      expect(pipelines).toEqual([['EVALSHA e0e1f9 tokens 5']]);
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
  });
});
