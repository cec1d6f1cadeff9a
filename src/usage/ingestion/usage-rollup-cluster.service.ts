import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { USAGE_EVENT_WRITER, type UsageEventWriter } from '../core/usage-store.ports.js';

/**
 * The usage store's upkeep, outside the ingest writes: every few seconds the events written
 * since the last pass are added to the quarter-hour rollups (UsageEventWriter.rollUp), and
 * periodically the narrow rollups are re-clustered in org order (maintain): rows appended
 * since the last clustering are the only ones an export scans outside its org's own row
 * group, so that interval bounds the extra work.
 */
@Injectable()
export class UsageRollupClusterService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(UsageRollupClusterService.name);
  private readonly timers: NodeJS.Timeout[] = [];
  private running: Promise<void> | null = null;
  private rolling: Promise<void> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(USAGE_EVENT_WRITER) private readonly store: UsageEventWriter,
  ) {}

  onApplicationBootstrap(): void {
    const { rollupClusterIntervalMs, quarterHourRollupIntervalMs } = this.config.usage;
    if (rollupClusterIntervalMs > 0) {
      this.timers.push(setInterval(() => void this.cluster(), rollupClusterIntervalMs));
    }
    if (quarterHourRollupIntervalMs > 0) {
      this.timers.push(setInterval(() => void this.rollUp(), quarterHourRollupIntervalMs));
    }
    for (const timer of this.timers) timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all([this.running, this.rolling]);
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

  /** One roll-up of the quarter-hour rollups; one still running is awaited instead. */
  async rollUp(): Promise<void> {
    if (this.rolling) return this.rolling;
    this.rolling = this.store
      .rollUp()
      .then(() => undefined)
      .catch((error: unknown) => this.logger.error(`quarter-hour roll-up failed: ${String(error)}`))
      .finally(() => {
        this.rolling = null;
      });
    return this.rolling;
  }
}
