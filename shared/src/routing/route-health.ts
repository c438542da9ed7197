import type { StoreEnv } from '../config/env';
import type { LuaScript } from '../stores/lua-script';

/** Every route's health, one field per route that failed lately: `fails,since,until,level`. */
export const ROUTE_HEALTH_KEY = 'sluice:route-health';
/** Moves whenever a route is benched or recovers: isolates reload the bench then. */
export const ROUTE_HEALTH_VERSION_KEY = 'sluice:route-health:version';
/** Fields not reported on for this long are dropped with the hash (a route deleted long ago). */
const HEALTH_TTL_MS = 7 * 86_400_000;

/** When a route is benched, and for how long (env SLUICE_ROUTE_BENCH_*). */
export interface BenchPolicy {
  /** Failures (connect error, timeout, 429, 5xx) within `windowMs` that bench a route. */
  failures: number;
  windowMs: number;
  /** The first bench; each failed probe doubles it, up to `maxCooldownMs`. */
  cooldownMs: number;
  maxCooldownMs: number;
}

export const DEFAULT_BENCH_POLICY: BenchPolicy = {
  failures: 3,
  windowMs: 30_000,
  cooldownMs: 10_000,
  maxCooldownMs: 300_000,
};

/** The bench policy the environment sets; a longest bench below the first is the first. */
export function benchPolicyOf(
  env: Pick<
    StoreEnv,
    | 'SLUICE_ROUTE_BENCH_FAILURES'
    | 'SLUICE_ROUTE_BENCH_WINDOW_MS'
    | 'SLUICE_ROUTE_BENCH_COOLDOWN_MS'
    | 'SLUICE_ROUTE_BENCH_MAX_COOLDOWN_MS'
  >,
): BenchPolicy {
  return {
    failures: env.SLUICE_ROUTE_BENCH_FAILURES,
    windowMs: env.SLUICE_ROUTE_BENCH_WINDOW_MS,
    cooldownMs: env.SLUICE_ROUTE_BENCH_COOLDOWN_MS,
    maxCooldownMs: Math.max(env.SLUICE_ROUTE_BENCH_COOLDOWN_MS, env.SLUICE_ROUTE_BENCH_MAX_COOLDOWN_MS),
  };
}

/**
 * REPORT — outcomes of routes since the last flush, applied in order. KEYS: the health hash,
 * its version key. ARGV: now, failures, window, cooldown, max cooldown, then per route its id,
 * 'f' (failed n times) or 's' (succeeded), n.
 * - A failure inside the window adds to the route's count; `failures` of them bench it for the
 *   cool-down (level 1). A route off the bench but not yet seen to succeed (level > 0) is on
 *   probation: one failure benches it again for twice as long (up to the max).
 * - Failures reported while benched are requests sent before the bench was known: ignored.
 * - A success clears the route. Benching and clearing move the version key.
 * Returns 1 when the version moved.
 */
export const ROUTE_HEALTH_SCRIPT: LuaScript = {
  name: 'route-health-report',
  source: `local now, need, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local cool, maxCool = tonumber(ARGV[4]), tonumber(ARGV[5])
local moved = 0
for i = 6, #ARGV, 3 do
  local id, outcome, n = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local fails, since, untilMs, level = 0, now, 0, 0
  local raw = redis.call('HGET', KEYS[1], id)
  if raw then
    local a, b, c, d = string.match(raw, '^(%d+),(%d+),(%d+),(%d+)$')
    if a then fails, since, untilMs, level = tonumber(a), tonumber(b), tonumber(c), tonumber(d) end
  end
  if outcome == 's' then
    if raw then
      redis.call('HDEL', KEYS[1], id)
      if level > 0 then moved = 1 end
    end
  elseif untilMs <= now then
    if level > 0 then
      level = level + 1
      untilMs = now + math.min(maxCool, cool * 2 ^ (level - 1))
      fails, since, moved = 0, now, 1
    else
      if now - since > window then fails, since = 0, now end
      fails = fails + n
      if fails >= need then
        level, untilMs, fails, since, moved = 1, now + cool, 0, now, 1
      end
    end
    redis.call('HSET', KEYS[1], id, string.format('%.0f,%.0f,%.0f,%.0f', fails, since, untilMs, level))
  end
end
redis.call('PEXPIRE', KEYS[1], ${HEALTH_TTL_MS})
if moved == 1 then redis.call('INCR', KEYS[2]) end
return moved`,
  sha1: '7793c27deb43103e3128ce1e2c087098652ae2f1',
};

/** A route's state as isolates and the console see it. */
export interface RouteState {
  /** Benched until then (ms): skipped without an upstream call. 0: not benched. */
  benchedUntil: number;
  /** Benches in a row: > 0 while benched or on probation; 0 when healthy. */
  level: number;
  /** Failures counted in the current window (not yet benched). */
  failures: number;
}

export const HEALTHY: RouteState = { benchedUntil: 0, level: 0, failures: 0 };

/** The health hash as stored → route id → state. Unreadable fields are left out. */
export function parseRouteHealth(stored: Record<string, unknown> | null): Map<string, RouteState> {
  const states = new Map<string, RouteState>();
  for (const [id, raw] of Object.entries(stored ?? {})) {
    const match = /^(\d+),(\d+),(\d+),(\d+)$/.exec(String(raw));
    if (!match) continue;
    states.set(id, { failures: Number(match[1]), benchedUntil: Number(match[3]), level: Number(match[4]) });
  }
  return states;
}
