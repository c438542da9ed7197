import type { LuaScript } from '../stores/lua-script';
import { COUNTER_LUA } from './counter-lua';

/**
 * Lua for the sliding-window engine (sliding-window.ts). Each limit is one Redis hash of
 * buckets with running totals (counter-lua.ts): field = bucket index (floor(nowMs / bucketMs),
 * computed by the caller), value = count in that bucket. A limit's usage is the sum of the
 * buckets with index ≥ current − (N − 1), N = windowMs / bucketMs.
 *
 * The scripts do no time or division maths: the caller passes integers only, and every
 * reply is integers or arrays of integers (no strings, so no client-side decoding quirks).
 * Both SHA-1s are checked against SCRIPT LOAD on real Redis in
 * tests/integration/limits-sliding-window.test.ts and against the source in a unit test.
 */

/**
 * CHECK — KEYS[i]: hash of limit i, then the counting-since key (limits/counter-rebuild.ts).
 * ARGV[1]: number of limits; then 5 per limit: current bucket index, buckets in window (N),
 * limit, cost, expiry ms (window + bucket); last the caller's time in ms.
 *
 * Reads every limit first; only if all pass adds `cost` to the current bucket of each limit
 * with cost > 0 (dropping that hash's fields that left the window, refreshing its expiry), and
 * stamps the counting-since key when it is missing (Redis lost its data), as ADMIT and ADD do:
 * calls the tool gate counts after a loss are not counted again by the rebuild.
 * Pass: used + cost ≤ limit for cost > 0; used < limit for cost 0 (a checked-only limit).
 *
 * Reply: {allowed (1|0), {used, newest bucket or -1, {idx, count, idx, count, ...}}, ...}.
 * used is after counting when allowed; the bucket list is filled only for refusing limits.
 */
export const CHECK_SCRIPT: LuaScript = {
  name: 'sliding-window-check',
  source: `${COUNTER_LUA}
local n = tonumber(ARGV[1])
local pass, states = inspect(1, n, 2)
if pass then
  redis.call('SET', KEYS[n + 1], ARGV[2 + n * 5], 'NX')
  count_all(states)
end
local reply = {pass and 1 or 0}
local each = replies(states)
for i = 1, #each do reply[i + 1] = each[i] end
return reply`,
  sha1: 'b50b41285a84f2f428ab8c394834ad5005b69db0',
};

/**
 * ADD — KEYS[i]: hash of entry i, then the counting-since key (limits/counter-rebuild.ts).
 * ARGV[1]: number of entries; then 4 per entry: current bucket index, buckets in window (N),
 * amount, expiry ms (window + bucket); last the caller's time in ms, stamped on the
 * counting-since key when it is missing (Redis lost its data), as ADMIT does.
 * Adds without checking (dropping the buckets that left the window). A negative amount gives
 * a reservation back to the bucket it was taken in (limits/reservation.ts): never more than
 * the bucket holds, and nothing to a bucket that has left the window or a period that expired.
 * Reply: number of entries.
 */
export const ADD_SCRIPT: LuaScript = {
  name: 'sliding-window-add',
  source: `${COUNTER_LUA}
local n = tonumber(ARGV[1])
redis.call('SET', KEYS[n + 1], ARGV[2 + n * 4], 'NX')
for i = 1, n do
  local a = 2 + (i - 1) * 4
  local current, buckets = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local oldest = current - buckets + 1
  local amount = tonumber(ARGV[a + 2])
  if amount > 0 and buckets == 1 then
    add(KEYS[i], current, amount, oldest, ARGV[a + 3], false, 0, buckets, 0, 0, ARGV[a], ARGV[a + 2])
  elseif amount < 0 and buckets == 1 then
    local held = tonumber(redis.call('HGET', KEYS[i], ARGV[a]))
    if held and held > 0 then redis.call('HINCRBY', KEYS[i], ARGV[a], math.max(amount, -held)) end
  elseif amount ~= 0 then
    local t, newest, fresh, here = usage(KEYS[i], oldest, true, buckets, current, ARGV[a])
    if amount < 0 then amount = math.max(amount, -here) end
    if amount ~= 0 then add(KEYS[i], current, amount, oldest, ARGV[a + 3], fresh, newest, buckets, t, here, ARGV[a]) end
  end
end
return n`,
  sha1: '2c3a94fc0d496288c1bd99d80512f6562be057de',
};
