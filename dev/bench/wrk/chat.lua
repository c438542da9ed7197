-- wrk script of `npm run bench`: POSTs one chat completion body again and again, closed loop or
-- at a fixed rate, and ends with one machine-readable line for dev/bench/wrk.ts:
--   BENCH_RESULT requests=.. seconds=.. p50_us=.. p90_us=.. p95_us=.. p99_us=.. max_us=.. ...
--
-- Environment (set by dev/bench/wrk.ts):
--   BENCH_BODY_FILE  the request body (dev/bench/payloads/*.txt)
--   BENCH_AUTH       the Authorization header value (none when empty)
--   BENCH_HEADERS    more request headers, "Name: value" lines separated by "\n" (a peer
--                    gateway's routing headers)
--   BENCH_STREAM     "1": ask for server-sent events
--   BENCH_RATE       requests per second over all connections; 0 or unset: as fast as answered
--
-- Pacing: wrk calls delay() before each request of each connection. One schedule per thread
-- (bench runs wrk with one thread) hands out send times `interval` apart; delay() waits until
-- the next free one. Latency is timed by wrk from the actual send, so it is not corrected for
-- coordinated omission: fine well below saturation, and wrk.ts checks the achieved rate.

local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } sluice_bench_timespec;
  int clock_gettime(int clock_id, sluice_bench_timespec *tp);
]]
local CLOCK_MONOTONIC = 1
local now_ts = ffi.new("sluice_bench_timespec")

local function monotonic_ms()
  ffi.C.clock_gettime(CLOCK_MONOTONIC, now_ts)
  return tonumber(now_ts.tv_sec) * 1000 + tonumber(now_ts.tv_nsec) / 1e6
end

local function read_file(path)
  local file = assert(io.open(path, "rb"), "BENCH_BODY_FILE: cannot open " .. tostring(path))
  local text = file:read("*a")
  file:close()
  return text
end

wrk.method = "POST"
wrk.body = read_file(os.getenv("BENCH_BODY_FILE"))
wrk.headers["Content-Type"] = "application/json"
local auth = os.getenv("BENCH_AUTH") or ""
if auth ~= "" then wrk.headers["Authorization"] = auth end
for line in string.gmatch(os.getenv("BENCH_HEADERS") or "", "[^\n]+") do
  local name, value = string.match(line, "^([^:]+):%s*(.*)$")
  if name then wrk.headers[name] = value end
end
if os.getenv("BENCH_STREAM") == "1" then
  wrk.headers["Accept"] = "text/event-stream"
else
  wrk.headers["Accept"] = "application/json"
end

local rate = tonumber(os.getenv("BENCH_RATE") or "0") or 0
if rate > 0 then
  local interval_ms = 1000 / rate
  local next_send = nil
  function delay()
    local now = monotonic_ms()
    next_send = (next_send or now) + interval_ms
    -- Fallen more than a second behind (every connection busy): start again from now rather
    -- than firing the whole backlog at once.
    if next_send < now - 1000 then next_send = now end
    return math.max(0, next_send - now)
  end
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    "BENCH_RESULT requests=%d seconds=%.3f p50_us=%d p90_us=%d p95_us=%d p99_us=%d max_us=%d mean_us=%.1f "
      .. "connect_errors=%d read_errors=%d write_errors=%d timeouts=%d non2xx=%d bytes=%d\n",
    summary.requests, summary.duration / 1e6,
    latency:percentile(50), latency:percentile(90), latency:percentile(95), latency:percentile(99),
    latency.max, latency.mean,
    errors.connect, errors.read, errors.write, errors.timeout, errors.status, summary.bytes))
end
