import { DEFAULT_WORKER_STATE_FILE, QUEUE_FULL_RETRY_AFTER_SECONDS } from '../operations.config.js';
import { bool, filePath, fixed, int, optionalInt } from '../setting.js';
import { REDIS_QUEUE_SETTINGS } from './redis-queue.settings.js';

/* Operations: the admission cap, worker liveness, database-queue workers, shutdown and
 * preflight (the Redis queue and rollout are in redis-queue.settings.ts). */

export const OPERATIONS_SETTINGS = {
  admission: {
    cpuMaxDepth: optionalInt(
      'CPU_MAX_QUEUE_DEPTH',
      { min: 1 },
      'Admission cap of the cpu queue (queued + running); past it 503 `QUEUE_FULL` with `Retry-After: 30`. Unset: no cap.',
    ),
    ioMaxDepth: optionalInt(
      'IO_MAX_QUEUE_DEPTH',
      { min: 1 },
      'Admission cap of the io queue. Unset: no cap.',
    ),
    batchMaxDepth: optionalInt(
      'BATCH_MAX_QUEUE_DEPTH',
      { min: 1 },
      'Admission cap of the batch lane. Unset: no cap.',
    ),
    depthReadTimeoutMs: int(
      'QUEUE_DEPTH_READ_TIMEOUT_MS',
      { default: 1000, min: 1, max: 60_000, unit: 'ms' },
      'Time limit of each background read of a queue depth from its store; a read that fails or passes it is logged (`queue_depth.reconcile_failed`) and the cap keeps holding on its live counts (it fails open only after `QUEUE_DEPTH_STALE_MS`).',
    ),
    depthReconcileMs: int(
      'QUEUE_DEPTH_RECONCILE_MS',
      { default: 1000, min: 50, max: 60_000, unit: 'ms' },
      "How often the in-memory queue depth the cap reads is reconciled with the queues' stores.",
    ),
    depthStaleMs: int(
      'QUEUE_DEPTH_STALE_MS',
      { default: 30_000, min: 1000, max: 3_600_000, unit: 'ms' },
      'Past this age without a successful reconcile the depth counts as unknown: the cap fails open (and counts a failed read).',
    ),
    retryAfterSeconds: fixed(QUEUE_FULL_RETRY_AFTER_SECONDS),
  },
  liveness: {
    stateFile: filePath(
      'WORKER_STATE_FILE',
      { default: DEFAULT_WORKER_STATE_FILE, defaultText: `\`${DEFAULT_WORKER_STATE_FILE}\`` },
      'State file the worker watchdog writes and `scripts/worker-liveness.sh` judges.',
    ),
    intervalMs: int(
      'WORKER_WATCHDOG_INTERVAL_MS',
      { default: 5000, min: 10, max: 60_000, unit: 'ms' },
      'How often the watchdog writes the state file.',
    ),
    staleSec: int(
      'WORKER_LIVENESS_WATCHDOG_STALE_SEC',
      { default: 60, min: 1, unit: 'seconds' },
      'The liveness probe fails when the state file is older than this (event loop blocked or worker gone).',
    ),
    stuckThresholdSec: int(
      'WORKER_LIVENESS_STUCK_THRESHOLD_SEC',
      { default: 1800, min: 1, unit: 'seconds' },
      'The liveness probe fails when the oldest in-flight task is older than this.',
    ),
    probeEnabled: bool(
      'WORKER_LIVENESS_PROBE_ENABLED',
      true,
      'The liveness probe switch; the watchdog keeps warning either way.',
    ),
  },
  legacyWorkers: {
    enabled: bool(
      'WORKER_ENABLED',
      true,
      'Database-queue `worker` loops (every lane) in the process owning the DuckDB file.',
    ),
    priorityCount: int(
      'WORKER_PRIORITY_COUNT',
      { default: 0, min: 0, max: 256 },
      "Database-queue loops for the priority lane only, each with an executor of its own beside the `worker` loops' (memory budget: one more executor each); they count toward `WORKER_PRIORITY_RESERVE`, so the `worker` loops keep only the rest of it. With 1, another organization's sync request starts at once beside a backlog, even the first after a quiet while (docs/decisions/0547-*).",
    ),
    priorityReserve: int(
      'WORKER_PRIORITY_RESERVE',
      { default: 1, min: 0, max: 256 },
      "`worker` loops (one executor each) kept for priority-lane work (sync requests, by default) while such work was queued or claimed within `WORKER_PRIORITY_RESERVE_HOLD_MS`: standard and batch work holds the others, so a sync request starts at once instead of after another organization's running task. The same holds for a Redis worker process's cpu slots (`REDIS_CPU_WORKER_CONCURRENCY`), per process: each worker process keeps its own reserve, held from its own last priority job (docs/scaling.md). At most the loops - 1 take effect; 0: every loop takes any lane.",
    ),
    priorityReserveHoldMs: int(
      'WORKER_PRIORITY_RESERVE_HOLD_MS',
      { default: 60_000, min: 0, max: 3_600_000, unit: 'ms' },
      'How long after the last priority-lane task was queued or claimed the `WORKER_PRIORITY_RESERVE` stays kept; then standard and batch work takes every loop again.',
    ),
    gpuEnabled: bool(
      'GPU_WORKER_ENABLED',
      false,
      'Database-queue loops for deep work only (Deep Classify, deep extract, deep split).',
    ),
    gpuConcurrency: int(
      'GPU_WORKER_CONCURRENCY',
      { default: 1, min: 1, max: 64 },
      'Loops of the gpu worker.',
    ),
  },
  ...REDIS_QUEUE_SETTINGS,
  terminationGraceSeconds: int(
    'TERMINATION_GRACE_PERIOD_SECONDS',
    { default: 30, min: 0, max: 86_400, unit: 'seconds' },
    'Shutdown grace period of workers (spec `worker.terminationGracePeriodSeconds`).',
  ),
  preflight: {
    deadlineMs: int(
      'PREFLIGHT_DEADLINE_SEC',
      { default: 540, min: 1, max: 3600, unit: 'seconds', scale: 1000 },
      '`docproc-admin preflight` gives up after this long.',
    ),
    workerHealthMs: int(
      'PREFLIGHT_WORKER_HEALTH_SEC',
      { default: 360, min: 1, max: 3600, unit: 'seconds', scale: 1000 },
      'How long preflight waits for healthy Redis workers on `cpu` and `io`.',
    ),
  },
} as const;
