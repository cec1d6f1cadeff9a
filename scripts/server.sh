#!/bin/sh
# Starts the server (`npm start`, the container image) with the process-level memory
# settings that only take effect when set before Node starts (docs/operations.md, "Memory"):
# - MALLOC_ARENA_MAX=2: glibc's malloc keeps two arenas instead of up to eight per core,
#   each holding on to freed memory of its own (the executor processes inherit it);
# - --max-semi-space-size=4: V8's young generation stops at 4 MB semi-spaces (16 MB by
#   default); a usage consumer's garbage dies young either way. A flag rather than
#   NODE_OPTIONS, so the executor processes keep V8's default for documents.
# A MALLOC_ARENA_MAX already in the environment, or a --max-semi-space-size in NODE_OPTIONS,
# wins. DuckDB's allocator (DUCKDB_JE_MALLOC_CONF) keeps its own setting: it keeps freed
# pages for seconds so the next statements reuse them, and the bulk writers hand back what
# they freed after each write (docs/decisions/0389-duckdb-freed-memory-returned-after-bulk-writes.md);
# returning every freed page at once instead cost a fifth more CPU per ingested event.
# `exec` keeps one process, so signals reach the graceful shutdown.
set -eu
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
main="$(dirname "$0")/../dist/src/main.js"
case " ${NODE_OPTIONS:-} " in
  *--max-semi-space-size*) exec node "$main" "$@" ;;
esac
exec node --max-semi-space-size=4 "$main" "$@"
