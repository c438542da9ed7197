// The Redis port (shared/src/stores/redis-port.ts): what the domain code relies on from each
// command, held to one contract on every stand-in: the Upstash client over the store bridge in
// front of real Redis (project integration) and of the in-memory store (embedded), and over the
// console's RESP connection straight to Redis (direct).
import { randomUUID } from 'node:crypto';
import type { Redis } from '@upstash/redis';
import { beforeAll, describe, expect, it } from 'vitest';
import { type LuaScript, runScript } from '../../shared/src/stores/lua-script';
import { contractRedis } from '../helpers/contract-redis';

let redis: Redis;
const key = (name: string) => `it:port:${name}:${randomUUID()}`;

beforeAll(() => {
  redis = contractRedis();
});

describe('values', () => {
  it('stores objects as JSON and reads them back as objects; numbers and text as they were', async () => {
    const [object, number, text] = [key('object'), key('number'), key('text')];
    const record = { id: 'k1', scopes: ['a', 'b'], nested: { n: 1, none: null }, label: 'héllo ✓ 🎉' };
    expect(await redis.set(object, record)).toBe('OK');
    expect(await redis.get(object)).toEqual(record);
    await redis.set(number, 42);
    expect(await redis.get(number)).toBe(42);
    await redis.set(text, 'plain text, not JSON');
    expect(await redis.get(text)).toBe('plain text, not JSON');
    expect(await redis.get(key('missing'))).toBeNull();
  });

  it('SET NX writes once, EX and PX set the expiry PTTL reads, DEL counts what it removed', async () => {
    const [once, timed] = [key('once'), key('timed')];
    expect(await redis.set(once, 'first', { nx: true, px: 60_000 })).toBe('OK');
    expect(await redis.set(once, 'second', { nx: true, px: 60_000 })).toBeNull();
    expect(await redis.get(once)).toBe('first');
    const pttl = await redis.pttl(once);
    expect(pttl).toBeGreaterThan(50_000);
    expect(pttl).toBeLessThanOrEqual(60_000);
    await redis.set(timed, 'x', { ex: 30 });
    expect(await redis.pttl(timed)).toBeGreaterThan(20_000);
    expect(await redis.pexpire(timed, 5_000)).toBe(1);
    expect(await redis.pttl(timed)).toBeLessThanOrEqual(5_000);
    expect(await redis.pexpire(key('missing'), 5_000)).toBe(0);
    expect(await redis.pttl(key('missing'))).toBe(-2);
    expect(await redis.del(once, timed, key('missing'))).toBe(2);
    expect(await redis.get(once)).toBeNull();
  });

  it('INCR counts from nothing, and refuses a value that is not an integer', async () => {
    const counter = key('counter');
    expect(await redis.incr(counter)).toBe(1);
    expect(await redis.incr(counter)).toBe(2);
    const text = key('text');
    await redis.set(text, 'abc');
    await expect(redis.incr(text)).rejects.toThrow(/not an integer/);
    expect(await redis.get(text)).toBe('abc');
  });

  it('MGET answers in order, null for a missing key, values read as GET reads them', async () => {
    const [a, b] = [key('a'), key('b')];
    await redis.set(a, { v: 1 });
    await redis.set(b, 7);
    expect(await redis.mget(a, key('missing'), b)).toEqual([{ v: 1 }, null, 7]);
  });

  it('HGETALL gives an object of the fields (values read as GET reads them), null for no hash', async () => {
    const hash = key('hash');
    await redis.eval(
      "redis.call('HSET', KEYS[1], 'count', '3', 'state', 'open', 'data', ARGV[1])",
      [hash],
      [JSON.stringify({ failures: [1, 2] })],
    );
    expect(await redis.hgetall(hash)).toEqual({ count: 3, state: 'open', data: { failures: [1, 2] } });
    expect(await redis.hgetall(key('missing'))).toBeNull();
  });

  it('PING answers PONG', async () => {
    expect(await redis.ping()).toBe('PONG');
  });
});

describe('scripts', () => {
  const SCRIPT: LuaScript = {
    name: 'port-contract',
    source: "redis.call('SET', KEYS[1], ARGV[1]); return {redis.call('INCR', KEYS[2]), ARGV[1], KEYS[1]}",
    sha1: '',
  };

  it('SCRIPT LOAD answers the SHA-1 EVALSHA runs by; EVAL returns the table as an array', async () => {
    const sha1 = await redis.scriptLoad(SCRIPT.source);
    expect(sha1).toMatch(/^[0-9a-f]{40}$/);
    const [value, count] = [key('value'), key('count')];
    expect(await redis.evalsha(sha1, [value, count], ['v1'])).toEqual([1, 'v1', value]);
    expect(await redis.eval(SCRIPT.source, [value, count], ['v2'])).toEqual([2, 'v2', value]);
    expect(await redis.get(value)).toBe('v2');
  });

  it('EVALSHA of an unknown script is refused with NOSCRIPT, so runScript falls back to EVAL', async () => {
    const unknown = { ...SCRIPT, sha1: 'f'.repeat(40) };
    await expect(redis.evalsha(unknown.sha1, [key('v'), key('c')], ['x'])).rejects.toThrow(/NOSCRIPT/);
    const [value, count] = [key('value'), key('count')];
    expect(await runScript(redis, unknown, [value, count], ['y'])).toEqual([1, 'y', value]);
  });

  it('a script’s error is the command’s failure, with Redis’s text', async () => {
    await expect(redis.eval("error('no such budget')", [], [])).rejects.toThrow(/no such budget/);
  });
});

describe('pipelines', () => {
  it('run their commands in order in one exec, one answer each, read as the single commands are', async () => {
    const [a, counter] = [key('a'), key('counter')];
    const pipeline = redis.pipeline();
    pipeline.set(a, { n: 1 });
    pipeline.incr(counter);
    pipeline.get(a);
    pipeline.mget(a, key('missing'));
    expect(await pipeline.exec()).toEqual(['OK', 1, { n: 1 }, [{ n: 1 }, null]]);
  });

  it('keep a failing command’s error in its own slot when asked, the others still run', async () => {
    const [text, counter] = [key('text'), key('counter')];
    await redis.set(text, 'abc');
    const pipeline = redis.pipeline();
    pipeline.incr(text);
    pipeline.incr(counter);
    const [failed, counted] = await pipeline.exec({ keepErrors: true });
    expect(failed?.error).toMatch(/not an integer/);
    expect(counted).toEqual({ error: undefined, result: 1 });
    const strict = redis.pipeline();
    strict.incr(text);
    await expect(strict.exec()).rejects.toThrow(/not an integer/);
  });
});
