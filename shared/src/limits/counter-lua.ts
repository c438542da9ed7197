/**
 * Lua shared by the limit scripts (sliding-window-scripts.ts, admission-script.ts): how a
 * counter is read and written. A counter is one Redis hash: field = bucket index (the caller
 * passes integers only), value = the count in that bucket, plus three fields of its own:
 *   t  the sum of the buckets from bucket o on
 *   o  the oldest bucket t covers (older ones have been dropped)
 *   n  the newest bucket written
 * A counter's usage for a caller whose window starts at bucket `oldest` is t less the buckets
 * from o to oldest − 1: a few fields are read, not every bucket of the window (a minute counted
 * in 1-second buckets holds up to 60). Writes drop the buckets that left the window and move t
 * with them. Buckets "ahead" of the caller's clock (another isolate's clock ran ahead) are in t,
 * so clock skew makes a limit stricter, never looser. A hash without t (new, or written by an
 * earlier release) is summed once, in full, and gets its totals on its next write.
 *
 * Bucket fields and integer amounts go to redis.call as the caller's ARGV text (`field`,
 * `amount_text`), not as Lua numbers: Redis 7.0 formats every number argument with
 * snprintf("%.17g"); passing text cut the ADMIT call by 14 % of its instructions (callgrind).
 */
export const COUNTER_LUA = `local GAP = 16
-- The limit of a counter that only counts (usage per day and month): it never refuses.
local UNLIMITED = 9007199254740991
local function ensure_number(v) return tonumber(v) or 0 end

local function rebuild(key, oldest, write, current)
  local fields = redis.call('HGETALL', key)
  if #fields == 0 then return 0, -1, true, 0 end
  local t, n, gone, here = 0, -1, {}, 0
  for j = 1, #fields, 2 do
    local name = fields[j]
    local idx = tonumber(name)
    if idx == nil then
      if name ~= 't' and name ~= 'o' and name ~= 'n' then gone[#gone + 1] = name end
    elseif idx < oldest then
      gone[#gone + 1] = name
    else
      local count = ensure_number(fields[j + 1])
      t = t + count
      if idx > n then n = idx end
      if idx == current then here = count end
    end
  end
  if write then
    for j = 1, #gone, 100 do redis.call('HDEL', key, unpack(gone, j, math.min(j + 99, #gone))) end
    redis.call('HSET', key, 't', t, 'o', oldest, 'n', n)
  end
  return t, n, false, here
end

-- Usage from bucket oldest on, the newest bucket in the window (-1: none), whether the hash is
-- new, and the count in bucket current (so a write can set it and t in one HSET). With write,
-- buckets before oldest are dropped and t follows. A counter of one bucket (a calendar period,
-- its id in the key) needs no totals: its bucket is its usage.
local function usage(key, oldest, write, buckets, current, field)
  if buckets == 1 then
    local v = tonumber(redis.call('HGET', key, field))
    if v == nil then return 0, -1, true, 0 end
    return v, oldest, false, v
  end
  -- The bucket just before the window comes along: it is the one that most often just left.
  local f = redis.call('HMGET', key, 't', 'o', 'n', oldest - 1, field)
  local t, o, n = tonumber(f[1]), tonumber(f[2]), tonumber(f[3])
  if t == nil or o == nil or n == nil then return rebuild(key, oldest, write, current) end
  if o < oldest then
    if oldest - o > GAP then return rebuild(key, oldest, write, current) end
    local idx = {}
    for i = o, oldest - 1 do idx[#idx + 1] = i end
    if o == oldest - 1 then
      t = t - ensure_number(f[4])
    else
      local counts = redis.call('HMGET', key, unpack(idx))
      for i = 1, #counts do t = t - ensure_number(counts[i]) end
    end
    if write then
      redis.call('HDEL', key, unpack(idx))
      redis.call('HSET', key, 't', t, 'o', oldest)
    end
  end
  if n < oldest then n = -1 end
  return t, n, false, ensure_number(f[5])
end

-- Adds amount to bucket current (the caller's bucket: never one that left the window) and
-- keeps the totals. A counter of several buckets was read first (usage: its total t and the
-- count in bucket current), so both are set in one HSET. The expiry moves when a new bucket
-- starts: a write to the same bucket as the last one finds it at least a window away already.
local function add(key, current, amount, oldest, expiry, fresh, newest, buckets, t, here, field, amount_text)
  if buckets == 1 then
    local now = redis.call('HINCRBY', key, field, amount_text)
    -- A period's first count sets the expiry.
    if now == amount then redis.call('PEXPIRE', key, expiry) end
    return now
  end
  if fresh then
    redis.call('HSET', key, field, here + amount, 't', t + amount, 'o', oldest, 'n', field)
    redis.call('PEXPIRE', key, expiry)
  elseif current > newest then
    redis.call('HSET', key, field, here + amount, 't', t + amount, 'n', field)
    redis.call('PEXPIRE', key, expiry)
  else
    redis.call('HSET', key, field, here + amount, 't', t + amount)
  end
  return nil
end

-- The buckets in the window, as {idx, count, ...}: what a refused request's wait is worked out from.
local function live(key, oldest)
  local fields = redis.call('HGETALL', key)
  local out = {}
  for j = 1, #fields, 2 do
    local idx = tonumber(fields[j])
    if idx and idx >= oldest then
      out[#out + 1] = idx
      out[#out + 1] = ensure_number(fields[j + 1])
    end
  end
  return out
end

-- Checks count counters from KEYS[first] with their 5 ARGV each from ARGV[arg]: current, N,
-- limit, cost, expiry. Returns whether all pass and their states {used, newest, key, ARGV
-- index, oldest, fresh, pass, count in bucket current}. Counters that count (cost > 0) are
-- brought up to date.
local function inspect(first, count, arg)
  local states, pass = {}, true
  for i = 1, count do
    local a = arg + (i - 1) * 5
    local field = ARGV[a]
    local current, buckets = tonumber(field), tonumber(ARGV[a + 1])
    local oldest = current - buckets + 1
    local limit, cost = tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
    local key = KEYS[first + i - 1]
    if buckets == 1 and limit >= UNLIMITED and cost > 0 then
      -- Only counts, never refuses: its count comes back from the write.
      states[i] = {0, -1, key, a, oldest, false, true, 0, current, cost, buckets}
    else
      local used, newest, fresh, here = usage(key, oldest, cost > 0, buckets, current, field)
      local ok
      if cost > 0 then ok = used + cost <= limit else ok = used < limit end
      if not ok then pass = false end
      states[i] = {used, newest, key, a, oldest, fresh, ok, here, current, cost, buckets}
    end
  end
  return pass, states
end

-- Counts each counter's cost (those that have one) and updates its state.
local function count_all(states)
  for i = 1, #states do
    local s = states[i]
    local a, current, cost = s[4], s[9], s[10]
    if cost > 0 then
      local now = add(s[3], current, cost, s[5], ARGV[a + 4], s[6], s[2], s[11], s[1], s[8], ARGV[a], ARGV[a + 3])
      if now then s[1] = now else s[1] = s[1] + cost end
      if current > s[2] then s[2] = current end
    end
  end
end

-- The states of counters that all passed, flat: {used, newest, used, newest, ...}.
local function flat(states)
  local out = {}
  for i = 1, #states do
    out[2 * i - 1] = states[i][1]
    out[2 * i] = states[i][2]
  end
  return out
end

-- The reply of each counter: {used, newest, live buckets when it refused}.
local function replies(states)
  local out = {}
  for i = 1, #states do
    local s = states[i]
    out[i] = {s[1], s[2], s[7] and {} or live(s[3], s[5])}
  end
  return out
end
`;
