#!/usr/bin/env bash
# Starts the Debian clickhouse-server (18.16) on loopback for tests and local use.
# The package does not start a server on install; it runs as the clickhouse user
# with a data directory of its own. Idempotent: exits 0 if it already answers.
set -euo pipefail
HTTP_PORT="${CLICKHOUSE_HTTP_PORT:-8123}"
TCP_PORT="${CLICKHOUSE_TCP_PORT:-9000}"
DATA_DIR="${CLICKHOUSE_DATA_DIR:-/var/lib/clickhouse-sluice}"

if curl -fsS "http://127.0.0.1:${HTTP_PORT}/ping" >/dev/null 2>&1; then
  echo "clickhouse: already answering on ${HTTP_PORT}"
  exit 0
fi
mkdir -p "${DATA_DIR}/tmp" "${DATA_DIR}/log"
chown -R clickhouse:clickhouse "${DATA_DIR}"
setpriv --reuid=clickhouse --regid=clickhouse --init-groups \
  clickhouse-server --config-file=/etc/clickhouse-server/config.xml -- \
  --path="${DATA_DIR}/" --tmp_path="${DATA_DIR}/tmp/" \
  --http_port="${HTTP_PORT}" --tcp_port="${TCP_PORT}" --interserver_http_port="${CLICKHOUSE_INTERSERVER_PORT:-9009}" --listen_host=127.0.0.1 \
  --logger.log="${DATA_DIR}/log/server.log" --logger.errorlog="${DATA_DIR}/log/error.log" \
  >"${DATA_DIR}/log/stdout.log" 2>&1 &

for _ in $(seq 1 60); do
  if curl -fsS "http://127.0.0.1:${HTTP_PORT}/ping" >/dev/null 2>&1; then
    echo "clickhouse: up on http://127.0.0.1:${HTTP_PORT}"
    exit 0
  fi
  sleep 0.5
done
echo "clickhouse: did not start; last log lines:" >&2
tail -20 "${DATA_DIR}/log/stdout.log" "${DATA_DIR}/log/error.log" >&2 || true
exit 1
