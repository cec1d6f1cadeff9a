#!/usr/bin/env bash
# Prints the backtrace of every Node core dump under the repository (left by a native crash
# during the tests) with gdb when it is installed, then deletes the dump.
set -uo pipefail
cd "$(dirname "$0")/.."

mapfile -t cores < <(find . -path ./node_modules -prune -o -type f \( -name core -o -name 'core.[0-9]*' \) -print)
for core in "${cores[@]}"; do
  echo "report-crashes.sh: a process crashed and left ${core}" >&2
  if command -v gdb >/dev/null; then
    gdb -batch -quiet -ex 'info threads' -ex 'bt 40' "$(command -v node)" "$core" 2>&1 | grep -v '^\[New LWP' >&2
  fi
  rm -f "$core"
done
