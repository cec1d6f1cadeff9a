import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { legacyWorkersEnabled } from '../../config/operations.config.js';
import {
  ALL_ROLLOUT_KEYS,
  rolloutKey,
  type RolloutKey,
  type RolloutOperation,
  type RolloutVariant,
} from '../../config/rollout-keys.js';

export interface RolloutReport {
  /** True when REDIS_URL is set in this process. */
  new_queue_configured: boolean;
  /** Effective ratio per operation (`classify`, `classify_trainable`, ...), 0..1. */
  ratios: Record<RolloutKey, number>;
  all_ratios_one: boolean;
  legacy_workers: {
    worker_enabled: boolean;
    priority_count: number;
    gpu_worker_enabled: boolean;
    enabled: boolean;
  };
}

/**
 * Per-operation rollout ratios: the share of requests the new queue system (BullMQ) takes;
 * the rest go to the legacy database queue. Read once from the environment of this
 * process, so `/rollout` reports what the running HTTP process really does.
 */
@Injectable()
export class RolloutService {
  /** Replaceable in unit tests. */
  random: () => number = Math.random;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  ratio(operation: RolloutOperation, variant: RolloutVariant): number {
    if (!this.config.operations.redis) return 0;
    return this.config.operations.rollout[rolloutKey(operation, variant)];
  }

  /** True when this request goes to the new queue system. 0 and 1 are exact. */
  routeToRedis(operation: RolloutOperation, variant: RolloutVariant): boolean {
    const ratio = this.ratio(operation, variant);
    return ratio >= 1 || (ratio > 0 && this.random() < ratio);
  }

  report(): RolloutReport {
    const ratios = Object.fromEntries(
      ALL_ROLLOUT_KEYS.map((key) => [
        key,
        this.config.operations.redis ? this.config.operations.rollout[key] : 0,
      ]),
    ) as Record<RolloutKey, number>;
    const legacy = this.config.operations.legacyWorkers;
    return {
      new_queue_configured: this.config.operations.redis !== null,
      ratios,
      all_ratios_one: ALL_ROLLOUT_KEYS.every((key) => ratios[key] === 1),
      legacy_workers: {
        worker_enabled: legacy.enabled,
        priority_count: legacy.priorityCount,
        gpu_worker_enabled: legacy.gpuEnabled,
        enabled: legacyWorkersEnabled(legacy),
      },
    };
  }
}
