import type { ClaimFilter, QueueName } from '../processing/queue/queue-driver.js';
import type { LegacyWorkerConfig } from '../config/operations-config.js';

// The settings live in src/config (one schema for every variable); these re-exports keep
// the operations plane's imports short.
export * from '../config/operations-config.js';
export * from '../config/rollout-keys.js';

/** True when any of the three database-queue worker kinds is on. */
export function legacyWorkersEnabled(config: LegacyWorkerConfig): boolean {
  return config.enabled || config.priorityCount > 0 || config.gpuEnabled;
}

/** Issue 6's three database-queue worker kinds, plus the io loops that deliver webhooks. */
export type DatabaseWorkerKind = 'worker' | 'priority_worker' | 'gpu_worker' | 'io_worker';

export interface DatabaseWorkerPool {
  kind: DatabaseWorkerKind;
  queue: QueueName;
  loops: number;
  /** What this kind's loops claim. */
  filter: ClaimFilter;
}

/**
 * The database-queue loops of this process, by worker kind:
 * - worker (WORKER_ENABLED): CPU_WORKER_CONCURRENCY loops, every lane;
 * - priority worker (WORKER_PRIORITY_COUNT): that many loops, priority lane only;
 * - gpu worker (GPU_WORKER_ENABLED): GPU_WORKER_CONCURRENCY loops, deep work only (every
 *   lane, priority first). While it is configured the other two never take deep work;
 *   without it they take it as any other work.
 * The io loops deliver webhooks, which need the DuckDB file, so they run whatever the
 * legacy settings (see docs/operations.md). Kinds with no loops are left out.
 */
export function databaseQueueWorkers(
  legacy: LegacyWorkerConfig,
  cpuWorkerConcurrency: number,
  ioWorkerConcurrency: number,
): DatabaseWorkerPool[] {
  const notDeep: ClaimFilter = legacy.gpuEnabled ? { deep: 'exclude' } : {};
  const pools: DatabaseWorkerPool[] = [
    {
      kind: 'worker',
      queue: 'cpu',
      loops: legacy.enabled ? cpuWorkerConcurrency : 0,
      filter: notDeep,
    },
    {
      kind: 'priority_worker',
      queue: 'cpu',
      loops: legacy.priorityCount,
      filter: { ...notDeep, lanes: ['priority'] },
    },
    {
      kind: 'gpu_worker',
      queue: 'cpu',
      loops: legacy.gpuEnabled ? legacy.gpuConcurrency : 0,
      filter: { deep: 'only' },
    },
    { kind: 'io_worker', queue: 'io', loops: ioWorkerConcurrency, filter: {} },
  ];
  return pools.filter((pool) => pool.loops > 0);
}
