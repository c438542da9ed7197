#!/usr/bin/env bash
# MCP conformance in CI: the three official MCP conformance suites (released 0.1.16; the
# 0.2 alpha's 2025-11-25 and 2026-07-28 requirement sets) against the reference server alone and
# through the gateway at /mcp/everything (npm start on embedded stores, the reference server
# registered behind it); fails when a check that passes alone fails through the gateway. Then the
# 0.2 alpha's authorization mode against the console (its OAuth for /mcp): every check must pass; and its
# client mode against Sluice's upstream connector (client-adapter.mjs): as client-baseline.json says.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# CONFORMANCE_DIR: a writable folder with the suites' package.json, lock file and reference server
# (everything-server.ts); not part of this repository (.ci/run supplies the team's copy).
SUITE_DIR=${CONFORMANCE_DIR:?set CONFORMANCE_DIR to the folder of the MCP conformance suites}
[ -d "$SUITE_DIR/node_modules" ] || npm ci --prefix "$SUITE_DIR" --no-audit --no-fund --loglevel=error
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
CONFORMANCE_DIR=$SUITE_DIR MCP_PATHS=/mcp/everything OUT_DIR=$OUT REFERENCE=1 AUTHORIZATION=1 CLIENT=1 \
  bash "$ROOT/dev/conformance/mcp.sh"
node "$ROOT/dev/conformance/compare.mjs" "$OUT"
node "$ROOT/dev/conformance/authorization-passed.mjs" "$OUT/authorization"
node "$ROOT/dev/conformance/client-passed.mjs" "$OUT/client"
