import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import { UsageWatermarks } from '../usage-watermarks.js';
import { UsageSnapshotFiles } from './usage-snapshot.files.js';

/** How long a starting replica waits for the writer's first snapshot. */
const FIRST_SNAPSHOT_TIMEOUT_MS = 120_000;

/**
 * The replica's half: opens the current snapshot read-only at start (waiting for the first
 * one), then looks for a newer one every second and swaps to it; each swap moves every
 * org's watermark, so the export cache never serves an answer of an older snapshot.
 * Staleness is therefore at most the writer's interval plus its copy time plus a second.
 */
@Injectable()
export class UsageSnapshotFollower implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(UsageSnapshotFollower.name);
  private readonly files: UsageSnapshotFiles;
  private current: string | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DuckDbService,
    private readonly watermarks: UsageWatermarks,
  ) {
    this.files = new UsageSnapshotFiles(config.usage.snapshots.dir);
  }

  async onModuleInit(): Promise<void> {
    const deadline = Date.now() + FIRST_SNAPSHOT_TIMEOUT_MS;
    while (!(await this.follow())) {
      if (Date.now() > deadline) {
        throw new Error(
          `no usage snapshot in ${this.config.usage.snapshots.dir} after ${FIRST_SNAPSHOT_TIMEOUT_MS / 1000} s: start the writer with USAGE_SNAPSHOT_INTERVAL_SEC`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    this.timer = setInterval(() => {
      this.follow().catch((error: unknown) =>
        this.logger.warn(`could not open the newer usage snapshot: ${String(error)}`),
      );
    }, this.config.usage.snapshots.pollMs);
    this.timer.unref();
  }

  /** The snapshot being served (its file name). */
  get snapshot(): string | null {
    return this.current;
  }

  /** Opens the current snapshot if it is newer than the one served; true once one is open. */
  async follow(): Promise<boolean> {
    const latest = this.files.current();
    if (!latest) return this.current !== null;
    if (latest.name === this.current) return true;
    await this.db.openReadOnly(latest.file);
    this.current = latest.name;
    this.watermarks.advanceAll();
    this.logger.log(`serving usage snapshot ${latest.name}`);
    return true;
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
