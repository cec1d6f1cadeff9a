#!/usr/bin/env bash
# A Python virtualenv with a pinned chDB (ClickHouse's current engine, embedded) under the
# repository's git-ignored .cache/, for the spec that runs every statement the ClickHouse
# usage store sends on today's engine as well as on the Debian server the tests use.
# Idempotent: prints the venv's python path; installs only when the pinned version is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

CHDB_VERSION="${CHDB_VERSION:-4.4.0}"
# The engine itself (ClickHouse 26.9); chdb's other dependencies (pandas, pyarrow) serve
# DataFrame results, which the replay does not use, so they are not installed.
CHDB_CORE_VERSION="${CHDB_CORE_VERSION:-26.9.0}"
VENV=".cache/chdb-venv"
PYTHON="${VENV}/bin/python"

mkdir -p .cache
# Two spec runs on a cold cache must not install into the same venv at once.
exec 9>".cache/chdb-venv.lock"
flock 9
pinned="import importlib.metadata as m, sys; sys.exit(m.version('chdb') != '${CHDB_VERSION}' or m.version('chdb-core') != '${CHDB_CORE_VERSION}')"
if ! "$PYTHON" -c "$pinned" 2>/dev/null; then
  echo "chdb-venv.sh: installing chdb ${CHDB_VERSION} (engine ${CHDB_CORE_VERSION}) into ${VENV} (first run only)" >&2
  python3 -m venv "$VENV"
  "${VENV}/bin/pip" install --quiet --disable-pip-version-check --no-deps \
    "chdb==${CHDB_VERSION}" "chdb-core==${CHDB_CORE_VERSION}" >&2
fi
echo "$(pwd)/${PYTHON}"
