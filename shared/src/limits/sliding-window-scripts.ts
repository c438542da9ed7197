import type { LuaScript } from '../stores/lua-script';

/**
 * Lua for the sliding-window engine (sliding-window.ts). Each limit is one Redis hash:
 * field = bucket index (floor(nowMs / bucketMs), computed by the caller), value = count in
 * that bucket. A limit's usage is the sum of the buckets with index ≥ current − (N − 1),
 * N = windowMs / bucketMs. Buckets "ahead" of the caller's clock (another isolate's clock
 * ran ahead) are counted too, so clock skew never under-counts.
 *
 * The scripts do no time or division maths: the caller passes integers only, and every
 * reply is integers or arrays of integers (no strings, so no client-side decoding quirks).
 * Both SHA-1s are checked against SCRIPT LOAD on real Redis in
 * tests/integration/limits-sliding-window.test.ts and against the source in a unit test.
 */

/**
 * CHECK — KEYS[i]: hash of limit i. ARGV[1]: number of limits; then 5 per limit:
 * current bucket index, buckets in window (N), limit, cost, expiry ms (window + bucket).
 *
 * Reads every limit first; only if all pass adds `cost` to the current bucket of each limit
 * with cost > 0 (dropping that hash's fields that left the window, refreshing its expiry).
 * Pass: used + cost ≤ limit for cost > 0; used < limit for cost 0 (a checked-only limit).
 *
 * Reply: {allowed (1|0), {used, newest bucket or -1, {idx, count, idx, count, ...}}, ...}.
 * used is after counting when allowed; the bucket list is filled only for refusing limits.
 */
export const CHECK_SCRIPT: LuaScript = {
  name: 'sliding-window-check',
  source: `local n = tonumber(ARGV[1])
local states = {}
local allowed = 1
for i = 1, n do
  local a = 1 + (i - 1) * 5
  local current = tonumber(ARGV[a + 1])
  local oldest = current - tonumber(ARGV[a + 2]) + 1
  local limit = tonumber(ARGV[a + 3])
  local cost = tonumber(ARGV[a + 4])
  local fields = redis.call('HGETALL', KEYS[i])
  local used, newest, live, stale = 0, -1, {}, {}
  for j = 1, #fields, 2 do
    local idx, count = tonumber(fields[j]), tonumber(fields[j + 1])
    if idx and count and idx >= oldest then
      used = used + count
      if idx > newest then newest = idx end
      live[#live + 1] = idx
      live[#live + 1] = count
    else
      stale[#stale + 1] = fields[j]
    end
  end
  local pass
  if cost > 0 then pass = used + cost <= limit else pass = used < limit end
  if not pass then allowed = 0 end
  states[i] = {used, newest, pass and {} or live, stale}
end
local reply = {allowed}
for i = 1, n do
  local s = states[i]
  if allowed == 1 then
    local a = 1 + (i - 1) * 5
    local current = tonumber(ARGV[a + 1])
    local cost = tonumber(ARGV[a + 4])
    if cost > 0 then
      redis.call('HINCRBY', KEYS[i], current, cost)
      for j = 1, #s[4], 100 do
        redis.call('HDEL', KEYS[i], unpack(s[4], j, math.min(j + 99, #s[4])))
      end
      redis.call('PEXPIRE', KEYS[i], ARGV[a + 5])
      s[1] = s[1] + cost
      if current > s[2] then s[2] = current end
    end
  end
  reply[i + 1] = {s[1], s[2], s[3]}
end
return reply`,
  sha1: 'b775b2b87763e44705f8c9965aebe51e8bb28a8b',
};

/**
 * ADD — KEYS[i]: hash of entry i. ARGV[1]: number of entries; then 4 per entry:
 * current bucket index, buckets in window (N), amount, expiry ms (window + bucket).
 * Adds without checking. When a hash holds more fields than its window has buckets,
 * drops the fields that left the window. Reply: number of entries applied.
 */
export const ADD_SCRIPT: LuaScript = {
  name: 'sliding-window-add',
  source: `local n = tonumber(ARGV[1])
for i = 1, n do
  local a = 1 + (i - 1) * 4
  local current = tonumber(ARGV[a + 1])
  local buckets = tonumber(ARGV[a + 2])
  local amount = tonumber(ARGV[a + 3])
  if amount > 0 then
    redis.call('HINCRBY', KEYS[i], current, amount)
    redis.call('PEXPIRE', KEYS[i], ARGV[a + 4])
    if redis.call('HLEN', KEYS[i]) > buckets then
      local oldest = current - buckets + 1
      local stale = {}
      for _, field in ipairs(redis.call('HKEYS', KEYS[i])) do
        local idx = tonumber(field)
        if not idx or idx < oldest then stale[#stale + 1] = field end
      end
      for j = 1, #stale, 100 do
        redis.call('HDEL', KEYS[i], unpack(stale, j, math.min(j + 99, #stale)))
      end
    end
  end
end
return n`,
  sha1: '8b7d5fd76f5a5dc1953d368efe1aeb9e7c89444d',
};
