#!/bin/sh
# Starts the server (`npm start`, the container image) with the process-level memory
# settings that only take effect when set before Node starts (docs/operations.md, "Memory"):
# - MALLOC_ARENA_MAX=2: glibc's malloc keeps two arenas instead of up to eight per core,
#   each holding on to freed memory of its own (the executor processes inherit it);
# - DUCKDB_JE_MALLOC_CONF=muzzy_decay_ms:0: DuckDB's allocator (the jemalloc linked into
#   libduckdb) keeps the pages DuckDB frees for its own time so the next statements reuse
#   them, then returns them to the system at once instead of first marking them lazily
#   free, which still counts in the process's memory until the kernel wants it; with the
#   bulk writers handing back what they freed after each write, this kept a backlog's
#   drain under 512 MB at DuckDB's own CPU per event (docs/decisions/0389-duckdb-freed-memory-returned-after-bulk-writes.md).
#   jemalloc reads it once, when libduckdb loads;
# - --max-semi-space-size=4: V8's young generation stops at 4 MB semi-spaces (16 MB by
#   default); a usage consumer's garbage dies young either way. A flag rather than
#   NODE_OPTIONS, so the executor processes keep V8's default for documents;
# - --min-semi-space-size=4: and starts there. V8 starts at 1 MB and grows only when much
#   survives, which requests' short-lived garbage never makes happen: a server answering
#   cached exports stayed at 1-2 MB, a young-generation collection every 30-60 answers,
#   two to four times as many as at 4 MB; each one is a pause inside some answer, and
#   they were the slowest of a row's answers (docs/decisions/0462-young-generation-starts-at-its-size.md);
# - --no-parallel-scavenge: a young-generation collection runs on the main thread alone. On
#   V8's default it hands parts to helper threads and waits for them; on a machine whose
#   cores are busy (DuckDB's threads, the other processes) the wait was most of the pause:
#   a collection in a cached export answer took twice as long at the median and four times
#   at the 90th percentile (docs/decisions/0475-young-generation-collected-on-the-main-thread.md).
#   It holds whatever NODE_OPTIONS says, which cannot carry it.
# A MALLOC_ARENA_MAX or DUCKDB_JE_MALLOC_CONF already in the environment (an empty one
# keeps DuckDB's own setting), or a --max- or --min-semi-space-size in NODE_OPTIONS, wins
# (then neither flag is added).
# `exec` keeps one process, so signals reach the graceful shutdown.
set -eu
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export DUCKDB_JE_MALLOC_CONF="${DUCKDB_JE_MALLOC_CONF-muzzy_decay_ms:0}"
main="$(dirname "$0")/../dist/src/main.js"
case " ${NODE_OPTIONS:-} " in
  *--max-semi-space-size* | *--min-semi-space-size*) exec node --no-parallel-scavenge "$main" "$@" ;;
esac
exec node --no-parallel-scavenge --max-semi-space-size=4 --min-semi-space-size=4 "$main" "$@"
