#!/usr/bin/env bash
# Two local ClickHouse servers (scripts/clickhouse.sh instances) that declare each other as the
# two shards of the cluster `docproc_shards`: the usage store's cluster mode in tests.
#
#   scripts/clickhouse-shards.sh start|stop|status|env|reset
#
# CLICKHOUSE_SHARD_PORTS: "http1 native1 http2 native2" (default "18223 18224 18323 18324").
# `start` and `env` print `export CLICKHOUSE_SHARD_URLS=http://...,http://...` (the first is
# the server to send the store's statements to).
set -euo pipefail
cd "$(dirname "$0")/.."

read -r HTTP1 TCP1 HTTP2 TCP2 <<<"${CLICKHOUSE_SHARD_PORTS:-18223 18224 18323 18324}"
export CLICKHOUSE_SHARDS="127.0.0.1:${TCP1} 127.0.0.1:${TCP2}"

each() {
  CLICKHOUSE_HTTP_PORT="$HTTP1" CLICKHOUSE_TCP_PORT="$TCP1" bash scripts/clickhouse.sh "$1" >/dev/null
  CLICKHOUSE_HTTP_PORT="$HTTP2" CLICKHOUSE_TCP_PORT="$TCP2" bash scripts/clickhouse.sh "$1" >/dev/null
}

print_env() { echo "export CLICKHOUSE_SHARD_URLS=http://127.0.0.1:${HTTP1},http://127.0.0.1:${HTTP2}"; }

case "${1:-}" in
  start)
    each start
    print_env
    ;;
  stop | reset | status) each "$1" ;;
  env) print_env ;;
  *)
    echo "usage: $0 start|stop|status|env|reset" >&2
    exit 2
    ;;
esac
