import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { USAGE_EVENT_WRITER, type UsageEventWriter } from '../usage-store.ports.js';

/**
 * Keeps the narrow rollups in org order (see UsageStoreRepository.clusterNarrowRollups):
 * rows appended since the last pass are the only ones an export scans outside its org's
 * own row group, so the interval bounds that extra work.
 */
@Injectable()
export class UsageRollupClusterService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(UsageRollupClusterService.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(USAGE_EVENT_WRITER) private readonly store: UsageEventWriter,
  ) {}

  onApplicationBootstrap(): void {
    const interval = this.config.usage.rollupClusterIntervalMs;
    if (interval <= 0) return;
    this.timer = setInterval(() => void this.cluster(), interval);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass; a pass still running is awaited rather than started twice. */
  async cluster(): Promise<void> {
    if (this.running) return this.running;
    const started = Date.now();
    this.running = this.store
      .maintain()
      .then(() => this.logger.log(`usage store upkeep done in ${Date.now() - started} ms`))
      .catch((error: unknown) => this.logger.error(`usage store upkeep failed: ${String(error)}`))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
