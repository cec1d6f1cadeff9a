#!/usr/bin/env bash
# A real Redis on loopback for development, tests and CI: daemonized, no persistence.
#
#   scripts/redis.sh start    start (installs redis-server when missing and running as root), wait for PING
#   scripts/redis.sh stop     stop the server started from this state dir/port by its pid
#   scripts/redis.sh status   exit 0 and print the address when it is running, exit 1 otherwise
#   scripts/redis.sh env      print `export REDIS_URL=...` for eval
#
# Settings (environment): REDIS_PORT (16379), DOCPROC_CACHE (~/.cache/docproc).
set -euo pipefail

REDIS_PORT="${REDIS_PORT:-16379}"
REDIS_HOST="127.0.0.1"
STATE_DIR="${DOCPROC_CACHE:-${HOME}/.cache/docproc}/redis/${REDIS_PORT}"
PID_FILE="${STATE_DIR}/redis.pid"
LOG_FILE="${STATE_DIR}/redis.log"

log() { echo "redis.sh: $*" >&2; }
die() {
  log "$*"
  exit 1
}

print_env() { echo "export REDIS_URL=redis://${REDIS_HOST}:${REDIS_PORT}"; }

# The pid in the pid file, only if that process is still our server (pids get reused).
running_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(cat "$PID_FILE")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [[ -r "/proc/${pid}/cmdline" ]] || return 1
  tr '\0' ' ' <"/proc/${pid}/cmdline" | grep -q -- "redis-server ${REDIS_HOST}:${REDIS_PORT}" || return 1
  echo "$pid"
}

ping() { redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG; }

ensure_installed() {
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null && return 0
  if [[ $(id -u) -eq 0 ]]; then
    log "installing redis-server"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null
  else
    die "redis-server not found: sudo apt-get install -y redis-server"
  fi
}

cmd_start() {
  if running_pid >/dev/null; then
    print_env
    return 0
  fi
  ensure_installed
  if ping; then die "port ${REDIS_PORT} already serves another Redis; set REDIS_PORT"; fi
  mkdir -p "$STATE_DIR"
  rm -f "$PID_FILE"
  # No RDB snapshots and no AOF: test data never outlives the process.
  redis-server --bind "$REDIS_HOST" --port "$REDIS_PORT" --daemonize yes \
    --pidfile "$PID_FILE" --logfile "$LOG_FILE" --dir "$STATE_DIR" \
    --save '' --appendonly no --protected-mode yes --maxmemory 256mb \
    || die "redis-server failed to start (log: ${LOG_FILE})"
  local deadline=$((SECONDS + 15))
  until ping; do
    if ((SECONDS >= deadline)); then
      tail -n 20 "$LOG_FILE" >&2 || true
      die "redis did not answer PING within 15s"
    fi
    sleep 0.1
  done
  until running_pid >/dev/null; do
    ((SECONDS < deadline)) || die "redis answers PING but wrote no pid file ${PID_FILE}"
    sleep 0.1
  done
  log "serving on ${REDIS_HOST}:${REDIS_PORT} (pid $(cat "$PID_FILE"))"
  print_env
}

cmd_stop() {
  local pid
  if ! pid="$(running_pid)"; then
    log "not running"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + 10))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  rm -f "$PID_FILE"
  log "stopped (pid ${pid})"
}

cmd_status() {
  local pid
  if pid="$(running_pid)"; then
    echo "running: ${REDIS_HOST}:${REDIS_PORT} (pid ${pid})"
  else
    echo "stopped"
    return 1
  fi
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) print_env ;;
  *)
    echo "usage: $0 start|stop|status|env" >&2
    exit 2
    ;;
esac
