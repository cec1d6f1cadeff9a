import type { ClaimFilter, QueueName } from './queue.types.js';
import type { RolloutKey } from './rollout-keys.js';
import type { Resolved } from './setting.js';
import type { OPERATIONS_SETTINGS } from './settings.schema.js';

/** Spec "Limits": `Retry-After` on a refusal for a full or unavailable queue. */
export const QUEUE_FULL_RETRY_AFTER_SECONDS = 30;
/** Spec "Worker liveness rules": the watchdog's state file (scripts/worker-liveness.sh has the same default). */
export const DEFAULT_WORKER_STATE_FILE = '/tmp/worker-state';

type OperationsSettings = Resolved<typeof OPERATIONS_SETTINGS>;

/** The worker watchdog and its exec probe. */
export type LivenessConfig = OperationsSettings['liveness'];
/**
 * The three database-queue worker kinds of the spec, as roles of the process that owns
 * the DuckDB file (the workers run inside it: DuckDB is single-process).
 */
type LegacyWorkerConfig = Pick<
  OperationsSettings['legacyWorkers'],
  'enabled' | 'priorityCount' | 'gpuEnabled' | 'gpuConcurrency'
>;
/** The new queue system (BullMQ), configured when REDIS_URL is set. */
export type RedisQueueConfig = Omit<OperationsSettings['redis'], 'url'> & { url: string };

export interface OperationsConfig extends Omit<OperationsSettings, 'redis' | 'rollout'> {
  /** REDIS_URL set: the new queue system is configured. */
  redis: RedisQueueConfig | null;
  /** Effective rollout ratios, 0..1, every key present. */
  rollout: Record<RolloutKey, number>;
}

/** True when any of the three database-queue worker kinds is on. */
export function legacyWorkersEnabled(config: LegacyWorkerConfig): boolean {
  return config.enabled || config.priorityCount > 0 || config.gpuEnabled;
}

/** The three database-queue worker kinds, plus the io loops that deliver webhooks. */
type DatabaseWorkerKind = 'worker' | 'priority_worker' | 'gpu_worker' | 'io_worker';

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
