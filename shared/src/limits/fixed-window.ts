import type { LuaScript } from '../stores/lua-script';
import { runScript } from '../stores/lua-script';
import type { RedisPort } from '../stores/redis-port';

/**
 * Fixed-window attempt counters for coarse abuse protection (setup calls, failed logins).
 * Model-traffic limits use the sliding-window engine instead.
 */
export const HIT_SCRIPT: LuaScript = {
  name: 'fixed-window-hit',
  source: `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`,
  sha1: '964a595db93385de3814d1b8d1630417b7fdedf5',
};

export interface WindowState {
  count: number;
  resetMs: number;
}

export interface FixedWindowCounter {
  /** Counts one event and returns the state after it. */
  hit(key: string, windowMs: number): Promise<WindowState>;
  /** Reads the state without counting. */
  peek(key: string): Promise<WindowState>;
  reset(key: string): Promise<void>;
}

export function createFixedWindowCounter(redis: RedisPort, prefix: string): FixedWindowCounter {
  const full = (key: string) => `${prefix}:${key}`;
  return {
    async hit(key, windowMs) {
      const [count, ttl] = await runScript<[number, number]>(redis, HIT_SCRIPT, [full(key)], [windowMs]);
      return { count: Number(count), resetMs: Math.max(0, Number(ttl)) };
    },
    async peek(key) {
      const [count, ttl] = await Promise.all([redis.get<number>(full(key)), redis.pttl(full(key))]);
      return { count: Number(count ?? 0), resetMs: Math.max(0, Number(ttl)) };
    },
    async reset(key) {
      await redis.del(full(key));
    },
  };
}
