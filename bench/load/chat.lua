-- wrk script of `npm run bench:peers` (closed loop): every connection POSTs the same chat body,
-- sends the next request as soon as the answer is read, and at the end one line is printed:
--   PEER_RESULT requests=.. seconds=.. p50_us=.. p95_us=.. p99_us=.. max_us=.. errors=.. non2xx=..
--
-- Environment (set by bench/load/closed-loop.ts):
--   PEER_BODY_FILE  the request body
--   PEER_HEADERS    request headers as "Name: value" lines separated by "\n" (the target's
--                   Authorization, Portkey's routing headers)
--   PEER_STREAM     "1": ask for server-sent events

local function slurp(path)
  local file = assert(io.open(path, "rb"), "PEER_BODY_FILE: cannot open " .. tostring(path))
  local text = file:read("*a")
  file:close()
  return text
end

wrk.method = "POST"
wrk.body = slurp(os.getenv("PEER_BODY_FILE"))
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = os.getenv("PEER_STREAM") == "1" and "text/event-stream" or "application/json"
for line in string.gmatch(os.getenv("PEER_HEADERS") or "", "[^\n]+") do
  local name, value = string.match(line, "^%s*([^:]+):%s*(.-)%s*$")
  if name then wrk.headers[name] = value end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "PEER_RESULT requests=%d seconds=%.3f p50_us=%d p95_us=%d p99_us=%d max_us=%d errors=%d non2xx=%d\n",
    summary.requests, summary.duration / 1e6,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max,
    e.connect + e.read + e.write + e.timeout, e.status))
end
