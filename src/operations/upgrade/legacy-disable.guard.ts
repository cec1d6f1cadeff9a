import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { legacyWorkersEnabled } from '../../config/operations.config.js';
import { rolloutEnvName, ALL_ROLLOUT_KEYS } from '../../config/rollout-keys.js';
import { QueueStatus } from '../../processing/queue/queue-status.js';

/** Why turning the legacy workers off is refused now; empty when it is allowed. */
export function legacyDisableRefusals(
  ratios: Record<string, number>,
  newQueueConfigured: boolean,
  legacyActiveTasks: number,
): string[] {
  const reasons: string[] = [];
  if (!newQueueConfigured) reasons.push('the new queue system is not configured (REDIS_URL)');
  const below = ALL_ROLLOUT_KEYS.filter((key) => ratios[key] !== 1);
  if (below.length) {
    reasons.push(
      `rollout ratios below 1.0: ${below.map((k) => `${rolloutEnvName(k)}=${ratios[k] ?? 0}`).join(', ')}`,
    );
  }
  if (legacyActiveTasks > 0) {
    reasons.push(
      `the database queue has not drained (${legacyActiveTasks} task(s) queued or running)`,
    );
  }
  return reasons;
}

class LegacyDisableRefused extends Error {
  constructor(readonly reasons: string[]) {
    super(
      `refusing to start with the legacy workers disabled (WORKER_ENABLED=false, ` +
        `WORKER_PRIORITY_COUNT=0, GPU_WORKER_ENABLED=false): ${reasons.join('; ')}. ` +
        'Set every rollout ratio to 1.0 in a separate deploy first and wait for ' +
        'GET /drain_status to report drained (docs/operations.md).',
    );
    this.name = 'LegacyDisableRefused';
  }
}

/**
 * Spec upgrade step 8/9: the legacy workers may only be turned off when the process
 * serves every operation from the new queue (all effective ratios 1.0) and the database
 * queue has drained. The legacy workers live in the process that owns the DuckDB file, so
 * the check runs when that process starts with them disabled: it refuses to start, and the
 * previous deployment keeps running (`docproc-admin upgrade check-disable-legacy` asks the
 * running process the same question before the deploy).
 */
@Injectable()
export class LegacyDisableGuard implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queues: QueueStatus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (legacyWorkersEnabled(this.config.operations.legacyWorkers)) return;
    const report = this.queues.rolloutReport();
    const reasons = legacyDisableRefusals(
      report.ratios,
      report.new_queue_configured,
      await this.queues.legacyActiveTasks(),
    );
    if (reasons.length) throw new LegacyDisableRefused(reasons);
  }
}
