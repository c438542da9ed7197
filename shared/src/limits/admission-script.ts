import type { LuaScript } from '../stores/lua-script';

/**
 * ADMIT — a model request's whole admission in one script (one round trip before the upstream
 * call): the isolate's cache versions, every limit of the key and its owner, the response
 * cache, and the caps of the first route it will try.
 *
 * KEYS: version keys (V), limit counters (L), route-cap counters (R), the cache key (C = 0|1).
 * ARGV: V, L, R, C; the expected value of each version key ('*' = not checked, '' = unset);
 * then 5 per counter, limits first: current bucket, buckets in window (N), limit, cost, expiry ms
 * (the layout of the check script in sliding-window-scripts.ts).
 *
 * 1. A version key that moved means the isolate's cached keys, routes, limits or settings are
 *    out of date: nothing is counted, the reply is {-1, versions}, and the gateway reloads what
 *    changed and asks again. So a revoked key or a lowered limit holds for the very next request.
 * 2. The limits: all must pass, else {0, versions, states} and nothing is counted.
 * 3. The cache entry is read; a hit skips the route caps (no upstream call will be made).
 * 4. The route caps: when they pass they are counted with the limits; when one is reached the
 *    limits still count (the request goes on to another route) and route is 0.
 * Reply when admitted: {1, versions, limit states, route (1 | 0 | -1 not checked), route states,
 * cached value or ''}. A state is {used, newest bucket, live buckets of a refusing counter}.
 */
export const ADMIT_SCRIPT: LuaScript = {
  name: 'admit',
  source: `local nv, nl, nr, nc = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local versions, stale = {}, false
for i = 1, nv do
  local current = redis.call('GET', KEYS[i]) or ''
  versions[i] = current
  local expected = ARGV[4 + i]
  if expected ~= '*' and expected ~= current then stale = true end
end
if stale then return {-1, versions} end

local function inspect(firstKey, count, firstArg)
  local states, pass = {}, true
  for i = 1, count do
    local key = KEYS[firstKey + i - 1]
    local a = firstArg + (i - 1) * 5
    local oldest = tonumber(ARGV[a]) - tonumber(ARGV[a + 1]) + 1
    local limit, cost = tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
    local fields = redis.call('HGETALL', key)
    local used, newest, live, old = 0, -1, {}, {}
    for j = 1, #fields, 2 do
      local idx, n = tonumber(fields[j]), tonumber(fields[j + 1])
      if idx and n and idx >= oldest then
        used = used + n
        if idx > newest then newest = idx end
        live[#live + 1] = idx
        live[#live + 1] = n
      else
        old[#old + 1] = fields[j]
      end
    end
    local ok
    if cost > 0 then ok = used + cost <= limit else ok = used < limit end
    if not ok then pass = false end
    states[i] = {used, newest, ok and {} or live, old, key, a}
  end
  return pass, states
end

local function count(states)
  for i = 1, #states do
    local s = states[i]
    local a = s[6]
    local current, cost = tonumber(ARGV[a]), tonumber(ARGV[a + 3])
    if cost > 0 then
      redis.call('HINCRBY', s[5], current, cost)
      for j = 1, #s[4], 100 do
        redis.call('HDEL', s[5], unpack(s[4], j, math.min(j + 99, #s[4])))
      end
      redis.call('PEXPIRE', s[5], ARGV[a + 4])
      s[1] = s[1] + cost
      if current > s[2] then s[2] = current end
    end
  end
end

local function replies(states)
  local out = {}
  for i = 1, #states do out[i] = {states[i][1], states[i][2], states[i][3]} end
  return out
end

local firstArg = 5 + nv
local limitsPass, limitStates = inspect(nv + 1, nl, firstArg)
if not limitsPass then return {0, versions, replies(limitStates)} end
local cached = ''
if nc == 1 then cached = redis.call('GET', KEYS[nv + nl + nr + 1]) or '' end
local route, routeStates = -1, {}
if cached == '' and nr > 0 then
  local routePass
  routePass, routeStates = inspect(nv + nl + 1, nr, firstArg + nl * 5)
  if routePass then
    route = 1
    count(routeStates)
  else
    route = 0
  end
end
count(limitStates)
return {1, versions, replies(limitStates), route, replies(routeStates), cached}`,
  sha1: '273a15ac3874a036022f307cfeaf7d47a14b6696',
};
