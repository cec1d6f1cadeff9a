import type { Resolved } from './setting.js';
import type { OPERATIONS_SETTINGS } from './settings.schema.js';
import type { RolloutKey } from './rollout-keys.js';

type OperationsSettings = Resolved<typeof OPERATIONS_SETTINGS>;

/** The admission cap (spec "Admission"); each field's meaning is in settings.schema.ts. */
export type AdmissionConfig = OperationsSettings['admission'];
/** The worker watchdog and its exec probe. */
export type LivenessConfig = OperationsSettings['liveness'];
/**
 * The three database-queue worker kinds of the spec, as roles of the process that owns
 * the DuckDB file (the workers run inside it: DuckDB is single-process).
 */
export type LegacyWorkerConfig = OperationsSettings['legacyWorkers'];
/** The new queue system (BullMQ), configured when REDIS_URL is set. */
export type RedisQueueConfig = Omit<OperationsSettings['redis'], 'url'> & { url: string };

export interface OperationsConfig extends Omit<OperationsSettings, 'redis' | 'rollout'> {
  /** REDIS_URL set: the new queue system is configured. */
  redis: RedisQueueConfig | null;
  /** Effective rollout ratios, 0..1, every key present. */
  rollout: Record<RolloutKey, number>;
}
