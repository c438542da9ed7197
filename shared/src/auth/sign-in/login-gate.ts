import { createFixedWindowCounter } from '../../limits/fixed-window';
import type { LuaScript } from '../../stores/lua-script';
import { runScript } from '../../stores/lua-script';
import type { RedisPort } from '../../stores/redis-port';

/**
 * Who may check a password for an email from an address. Only failed checks count towards the
 * lockout, so correct logins are never refused because of others; and no more checks run at
 * once than the failures still allowed, so guesses sent all together cannot all slip under the
 * limit. A check that finds no room waits for one (the ones under way end in a moment) instead
 * of being refused.
 */
export interface LoginGate {
  /** Takes a place to check a password, waiting up to `waitMs` for one. */
  enter(key: string, limits: LoginLimits): Promise<GateEntry>;
  /** The check failed: counted against the key for `windowMs`. */
  failed(key: string, windowMs: number): Promise<void>;
  /** The check is over (after `failed`, or after a success): its place is free. */
  leave(key: string): Promise<void>;
  /** A correct password clears the failures. */
  reset(key: string): Promise<void>;
}

export interface LoginLimits {
  maxFailures: number;
  /** Longest wait for a place while checks are under way. */
  waitMs: number;
}

export type GateEntry = { kind: 'admitted' } | { kind: 'locked'; resetMs: number } | { kind: 'busy' };

/** Failures at or past the limit: locked; failures and checks under way at it: no room yet. */
export const ENTER_SCRIPT: LuaScript = {
  name: 'login-gate-enter',
  source: `local max = tonumber(ARGV[1])
local failures = tonumber(redis.call('GET', KEYS[1]) or '0')
if failures >= max then return {-1, redis.call('PTTL', KEYS[1])} end
local inflight = tonumber(redis.call('GET', KEYS[2]) or '0')
if failures + inflight >= max then return {0, 0} end
redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return {1, 0}`,
  sha1: '928536bc79351257d5980ba8dd4794ab3f947844',
};

export const LEAVE_SCRIPT: LuaScript = {
  name: 'login-gate-leave',
  source: `local n = redis.call('DECR', KEYS[1])
if n <= 0 then redis.call('DEL', KEYS[1]) end
return n`,
  sha1: '9d9b5fa50836d2f0beac0ef1d9d6b35c5a048162',
};

/** A place held longer than this (a console that died mid-check) frees itself. */
const PLACE_TTL_MS = 30_000;
const RETRY_MS = 25;

export function createLoginGate(redis: RedisPort, prefix: string): LoginGate {
  const failures = createFixedWindowCounter(redis, `${prefix}-failures`);
  const failuresKey = (key: string) => `${prefix}-failures:${key}`;
  const placesKey = (key: string) => `${prefix}-checking:${key}`;
  const tryEnter = async (key: string, max: number): Promise<GateEntry> => {
    const [state, ttl] = await runScript<[number, number]>(
      redis,
      ENTER_SCRIPT,
      [failuresKey(key), placesKey(key)],
      [max, PLACE_TTL_MS],
    );
    if (Number(state) === 1) return { kind: 'admitted' };
    return Number(state) === -1 ? { kind: 'locked', resetMs: Math.max(0, Number(ttl)) } : { kind: 'busy' };
  };
  return {
    async enter(key, limits) {
      const deadline = Date.now() + limits.waitMs;
      for (;;) {
        const entry = await tryEnter(key, limits.maxFailures);
        if (entry.kind !== 'busy' || Date.now() >= deadline) return entry;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    },
    async failed(key, windowMs) {
      await failures.hit(key, windowMs);
    },
    async leave(key) {
      await runScript(redis, LEAVE_SCRIPT, [placesKey(key)], []);
    },
    reset: (key) => failures.reset(key),
  };
}
