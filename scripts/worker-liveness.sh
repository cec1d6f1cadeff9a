#!/usr/bin/env sh
# Exec liveness probe of a docproc worker (database-queue worker, priority worker, gpu
# worker, and the new-queue worker process). The worker's watchdog writes
# "<unix_timestamp> <oldest_in_flight_task_age_seconds>" (age -1 when idle) to the state
# file every 5 seconds. Fails (exit 1, forcing a restart) when
#   - the file is missing or older than WORKER_LIVENESS_WATCHDOG_STALE_SEC (default 60):
#     the worker's event loop is blocked or the process is gone, or
#   - the oldest in-flight task is older than WORKER_LIVENESS_STUCK_THRESHOLD_SEC
#     (default 1800): a task is stuck.
# An idle worker (age -1) always passes. WORKER_LIVENESS_PROBE_ENABLED=false makes the probe
# always pass (the watchdog still logs its warning). State file: WORKER_STATE_FILE
# (default /tmp/worker-state, the spec's path; DEFAULT_WORKER_STATE_FILE in
# src/config/operations.config.ts).
set -u

STATE_FILE="${WORKER_STATE_FILE:-/tmp/worker-state}"
STALE_SEC="${WORKER_LIVENESS_WATCHDOG_STALE_SEC:-60}"
STUCK_SEC="${WORKER_LIVENESS_STUCK_THRESHOLD_SEC:-1800}"
ENABLED="${WORKER_LIVENESS_PROBE_ENABLED:-true}"

case "$(printf '%s' "$ENABLED" | tr -d '[:space:]' | tr '[:upper:]' '[:lower:]')" in
  false | 0 | no | off)
    echo "worker-liveness: probe disabled"
    exit 0
    ;;
esac

# A threshold that is not a number would make every comparison below an error, which `if`
# takes as false: the probe would pass whatever the state. The server refuses such a value
# at start; the probe fails naming it.
for threshold in "WORKER_LIVENESS_WATCHDOG_STALE_SEC=${STALE_SEC}" \
  "WORKER_LIVENESS_STUCK_THRESHOLD_SEC=${STUCK_SEC}"; do
  case "${threshold#*=}" in
    '' | *[!0-9]*)
      echo "worker-liveness: FAIL: ${threshold%%=*} must be a whole number of seconds, got \"${threshold#*=}\"" >&2
      exit 1
      ;;
  esac
done

if [ ! -f "$STATE_FILE" ]; then
  echo "worker-liveness: FAIL: no state file ${STATE_FILE} (watchdog not running)" >&2
  exit 1
fi

now="$(date +%s)"
modified="$(stat -c %Y "$STATE_FILE" 2>/dev/null || echo 0)"
file_age=$((now - modified))
if [ "$file_age" -gt "$STALE_SEC" ]; then
  echo "worker-liveness: FAIL: ${STATE_FILE} is ${file_age}s old (> ${STALE_SEC}s): event loop blocked or worker gone" >&2
  exit 1
fi

read -r stamp task_age <"$STATE_FILE" || true
case "${task_age:-}" in
  -1)
    echo "worker-liveness: ok (idle)"
    exit 0
    ;;
  '' | *[!0-9]*)
    echo "worker-liveness: FAIL: unreadable state \"${stamp:-} ${task_age:-}\" in ${STATE_FILE}" >&2
    exit 1
    ;;
esac

if [ "$task_age" -gt "$STUCK_SEC" ]; then
  echo "worker-liveness: FAIL: oldest in-flight task is ${task_age}s old (> ${STUCK_SEC}s): stuck" >&2
  exit 1
fi
echo "worker-liveness: ok (oldest in-flight task ${task_age}s)"
exit 0
