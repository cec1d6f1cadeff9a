#!/usr/bin/env bash
# Runs Schemathesis, the OpenAPI conformance fuzzer of test/e2e/contract, at a pinned version.
# It is installed from PyPI on first use into .cache/schemathesis-<version> (a Python venv;
# needs python3 with venv, which scripts/install-test-deps.sh installs), then reused.
#   bash scripts/schemathesis.sh run http://127.0.0.1:PORT/openapi.json --checks all ...
set -euo pipefail
VERSION=4.32.5
root="$(cd "$(dirname "$0")/.." && pwd)"
# Runs in the caller's directory: the CLI keeps a cache of failures (.schemathesis/) there.
venv="$root/.cache/schemathesis-$VERSION"
if [[ ! -f "$venv/installed" ]]; then
  echo "schemathesis.sh: installing schemathesis $VERSION into $venv" >&2
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "schemathesis==$VERSION" >&2
  touch "$venv/installed"
fi
exec "$venv/bin/schemathesis" "$@"
