import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { QueueStatus } from '../../processing/queue/queue-status.js';
import { legacyWorkersEnabled } from '../../config/operations.config.js';
import { WorkerWatchdog } from '../../common/health/worker-watchdog.js';

/** The watchdog of the database-queue workers (worker, priority worker, gpu worker roles). */
@Injectable()
export class LegacyWatchdogService implements OnApplicationBootstrap, OnApplicationShutdown {
  private watchdog: WorkerWatchdog | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queues: QueueStatus,
  ) {}

  onApplicationBootstrap(): void {
    if (!legacyWorkersEnabled(this.config.operations.legacyWorkers)) return;
    this.watchdog = new WorkerWatchdog(
      this.config.operations.liveness,
      [this.queues.legacyWorkers],
      'database-queue-worker',
    );
    this.watchdog.start();
  }

  onApplicationShutdown(): void {
    this.watchdog?.stop();
  }
}
