import type { LuaScript } from '../stores/lua-script';
import { COUNTER_LUA } from './counter-lua';

/**
 * ADMIT — a model request's whole admission in one script (one round trip before the upstream
 * call): the isolate's cache versions, every limit of the key and its owner, the response
 * cache, and the caps of the first route it will try.
 *
 * KEYS: version keys (V), limit counters (L), route-cap counters (R), the cache key (C = 0|1),
 * then the counting-since and epoch keys (limits/counter-rebuild.ts).
 * ARGV: V, L, R, C; the expected value of each version key ('*' = not checked, '' = unset);
 * then 5 per counter, limits first: current bucket, buckets in window (N), limit, cost, expiry ms
 * (the layout of the check script in sliding-window-scripts.ts); then the caller's time in ms
 * and whether to check the epoch ('1' | '0').
 *
 * 1. A version key that moved means the isolate's cached keys, routes, limits or settings are
 *    out of date: nothing is counted, the reply is {-1, versions}, and the gateway reloads what
 *    changed and asks again. So a revoked key or a lowered limit holds for the very next request.
 * 2. The epoch key missing (Redis lost its data, or never had it) means the calendar counters
 *    are not to be trusted yet: nothing is counted, the reply is {-2}, and the gateway has them
 *    rebuilt from the request log (or marks a first start) and asks again.
 * 3. The limits: all must pass, else {0, versions, states} and nothing is counted.
 * 4. The cache entry is read; a hit skips the route caps (no upstream call will be made).
 * 5. The route caps: when they pass they are counted with the limits; when one is reached the
 *    limits still count (the request goes on to another route) and route is 0.
 * 6. Counting stamps the counting-since key when it is missing (Redis lost its data): what the
 *    request log holds from before that instant is what a rebuild adds back.
 * Reply when admitted: {1, versions, limit states, route (1 | 0 | -1 not checked), route states,
 * cached value or ''}, each list of states flat: {used, newest bucket, used, newest bucket, ...}
 * (one table, not two per counter: Redis converts every table of a reply, and nested ones
 * were a fifth of the script's time). Refused, and the route states when a cap was reached:
 * one state per counter, {used, newest bucket, live buckets of a refusing counter}.
 */
export const ADMIT_SCRIPT: LuaScript = {
  name: 'admit',
  source: `${COUNTER_LUA}
local nv, nl, nr, nc = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local versions = {}
if nv > 0 then
  local current = redis.call('MGET', unpack(KEYS, 1, nv))
  local stale = false
  for i = 1, nv do
    local value = current[i] or ''
    versions[i] = value
    local expected = ARGV[4 + i]
    if expected ~= '*' and expected ~= value then stale = true end
  end
  if stale then return {-1, versions} end
end
if ARGV[#ARGV] == '1' and redis.call('EXISTS', KEYS[#KEYS]) == 0 then return {-2} end
local first = 5 + nv
local pass, limits = inspect(nv + 1, nl, first)
if not pass then return {0, versions, replies(limits)} end
local cached = ''
if nc == 1 then cached = redis.call('GET', KEYS[nv + nl + nr + 1]) or '' end
local route, routes = -1, {}
if cached == '' and nr > 0 then
  local routePass
  routePass, routes = inspect(nv + nl + 1, nr, first + nl * 5)
  if routePass then
    route = 1
    count_all(routes)
  else
    route = 0
  end
end
count_all(limits)
redis.call('SET', KEYS[#KEYS - 1], ARGV[#ARGV - 1], 'NX')
if route == 0 then return {1, versions, flat(limits), route, replies(routes), cached} end
return {1, versions, flat(limits), route, flat(routes), cached}`,
  sha1: 'f3cddc7398a669887ca2e93869f6cadad3a31a59',
};
