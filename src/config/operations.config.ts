import path from 'node:path';
import { ConfigError, readBool, readFloat, readInt } from './env-readers.js';
import type { ClaimFilter, QueueName } from './queue.types.js';

/** Spec "Limits": `Retry-After` on a refusal for a full or unavailable queue. */
export const QUEUE_FULL_RETRY_AFTER_SECONDS = 30;
/** Spec "Worker liveness rules": the watchdog's state file (scripts/worker-liveness.sh has the same default). */
export const DEFAULT_WORKER_STATE_FILE = '/tmp/worker-state';

type Env = Record<string, string | undefined>;

/** Operations the spec's rollout ratios name (step 7 of the self-hosted upgrade). */
export const ROLLOUT_OPERATIONS = [
  'parse',
  'extract',
  'split',
  'classify',
  'edit',
  'pipeline',
] as const;
export type RolloutOperation = (typeof ROLLOUT_OPERATIONS)[number];
export type RolloutVariant = 'trainable' | 'non_trainable';

/** `classify` / `classify_trainable`: the keys `/rollout` reports. */
export type RolloutKey = `${RolloutOperation}` | `${RolloutOperation}_trainable`;

export function rolloutKey(operation: RolloutOperation, variant: RolloutVariant): RolloutKey {
  return variant === 'trainable' ? `${operation}_trainable` : operation;
}

/** The env variable of a ratio: ROLLOUT_RATIO_CLASSIFY, ROLLOUT_RATIO_CLASSIFY_TRAINABLE, ... */
export function rolloutEnvName(key: RolloutKey): string {
  return `ROLLOUT_RATIO_${key.toUpperCase()}`;
}

export const ALL_ROLLOUT_KEYS: RolloutKey[] = ROLLOUT_OPERATIONS.flatMap((op) => [
  rolloutKey(op, 'non_trainable'),
  rolloutKey(op, 'trainable'),
]);

export interface AdmissionConfig {
  /** CPU_MAX_QUEUE_DEPTH: null = no cap (spec default: everything accepted and queued). */
  cpuMaxDepth: number | null;
  ioMaxDepth: number | null;
  /** BATCH_MAX_QUEUE_DEPTH: the batch lane's own cap. */
  batchMaxDepth: number | null;
  /** Spec: 1 second; on failure or time-out the queue counts as empty (fail open). */
  depthReadTimeoutMs: number;
  retryAfterSeconds: number;
}

export interface LivenessConfig {
  /** WORKER_STATE_FILE, default /tmp/worker-state (spec). */
  stateFile: string;
  /** Spec: 5 seconds. WORKER_WATCHDOG_INTERVAL_MS exists so tests can run faster. */
  intervalMs: number;
  staleSec: number;
  stuckThresholdSec: number;
  /** The exec probe's switch; the watchdog keeps warning either way. */
  probeEnabled: boolean;
}

/**
 * The three database-queue worker kinds of the spec, as roles of the process that owns
 * the DuckDB file (the workers run inside it: DuckDB is single-process).
 */
export interface LegacyWorkerConfig {
  /** WORKER_ENABLED (spec `worker.enabled`). */
  enabled: boolean;
  /** WORKER_PRIORITY_COUNT (spec `worker.priorityCount`): loops for the priority lane only. */
  priorityCount: number;
  /** GPU_WORKER_ENABLED (spec `gpuWorker.enabled`): loops for deep work only (see isDeepWork). */
  gpuEnabled: boolean;
  /** GPU_WORKER_CONCURRENCY: the gpu worker's loops. */
  gpuConcurrency: number;
}

export interface RedisQueueConfig {
  url: string;
  /** BullMQ key prefix, so several installs (or test runs) can share one Redis. */
  prefix: string;
  cpuConcurrency: number;
  ioConcurrency: number;
  /** Per Redis enqueue; past it the request falls back to the database queue. */
  enqueueTimeoutMs: number;
  /**
   * REDIS_RECONCILE_INTERVAL_MS: how often the API process looks for dispatches Redis lost
   * or gave up on (and for running jobs whose start report never arrived).
   */
  reconcileIntervalMs: number;
}

export interface OperationsConfig {
  admission: AdmissionConfig;
  liveness: LivenessConfig;
  legacyWorkers: LegacyWorkerConfig;
  /** REDIS_URL set: the new queue system is configured. */
  redis: RedisQueueConfig | null;
  /** Effective rollout ratios, 0..1, every key present. */
  rollout: Record<RolloutKey, number>;
  /** TERMINATION_GRACE_PERIOD_SECONDS (spec `worker.terminationGracePeriodSeconds`). */
  terminationGraceSeconds: number;
  preflight: { deadlineMs: number; workerHealthMs: number };
}

function readCap(env: Env, name: string): number | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return null;
  return readInt(env, name, 0, 1);
}

export function loadOperationsConfig(env: Env): OperationsConfig {
  const rollout = Object.fromEntries(
    ALL_ROLLOUT_KEYS.map((key) => [key, readFloat(env, rolloutEnvName(key), 0, 0, 1)]),
  ) as Record<RolloutKey, number>;
  const redisUrl = env.REDIS_URL?.trim() || null;
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL', `expected redis://host:port, got "${redisUrl}"`);
  }
  const routed = ALL_ROLLOUT_KEYS.filter((key) => rollout[key] > 0);
  if (redisUrl === null && routed.length > 0) {
    throw new ConfigError(
      rolloutEnvName(routed[0]),
      'a rollout ratio above 0 needs the new queue system: set REDIS_URL',
    );
  }
  const staleSec = readInt(env, 'WORKER_LIVENESS_WATCHDOG_STALE_SEC', 60, 1);
  const stuckThresholdSec = readInt(env, 'WORKER_LIVENESS_STUCK_THRESHOLD_SEC', 1800, 1);
  const terminationGraceSeconds = readInt(env, 'TERMINATION_GRACE_PERIOD_SECONDS', 30, 0, 86_400);
  return {
    admission: {
      cpuMaxDepth: readCap(env, 'CPU_MAX_QUEUE_DEPTH'),
      ioMaxDepth: readCap(env, 'IO_MAX_QUEUE_DEPTH'),
      batchMaxDepth: readCap(env, 'BATCH_MAX_QUEUE_DEPTH'),
      depthReadTimeoutMs: readInt(env, 'QUEUE_DEPTH_READ_TIMEOUT_MS', 1000, 1, 60_000),
      retryAfterSeconds: QUEUE_FULL_RETRY_AFTER_SECONDS,
    },
    liveness: {
      stateFile: path.resolve(env.WORKER_STATE_FILE || DEFAULT_WORKER_STATE_FILE),
      intervalMs: readInt(env, 'WORKER_WATCHDOG_INTERVAL_MS', 5000, 10, 60_000),
      staleSec,
      stuckThresholdSec,
      probeEnabled: readBool(env, 'WORKER_LIVENESS_PROBE_ENABLED', true),
    },
    legacyWorkers: {
      enabled: readBool(env, 'WORKER_ENABLED', true),
      priorityCount: readInt(env, 'WORKER_PRIORITY_COUNT', 0, 0, 256),
      gpuEnabled: readBool(env, 'GPU_WORKER_ENABLED', false),
      gpuConcurrency: readInt(env, 'GPU_WORKER_CONCURRENCY', 1, 1, 64),
    },
    redis: redisUrl
      ? {
          url: redisUrl,
          prefix: env.REDIS_QUEUE_PREFIX?.trim() || 'docproc',
          cpuConcurrency: readInt(env, 'REDIS_CPU_WORKER_CONCURRENCY', 2, 1, 64),
          ioConcurrency: readInt(env, 'REDIS_IO_WORKER_CONCURRENCY', 4, 1, 256),
          enqueueTimeoutMs: readInt(env, 'REDIS_ENQUEUE_TIMEOUT_MS', 2000, 10, 60_000),
          reconcileIntervalMs: readInt(env, 'REDIS_RECONCILE_INTERVAL_MS', 30_000, 100, 3_600_000),
        }
      : null,
    rollout,
    terminationGraceSeconds,
    preflight: {
      deadlineMs: readInt(env, 'PREFLIGHT_DEADLINE_SEC', 540, 1, 3600) * 1000,
      workerHealthMs: readInt(env, 'PREFLIGHT_WORKER_HEALTH_SEC', 360, 1, 3600) * 1000,
    },
  };
}

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
