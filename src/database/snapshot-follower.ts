import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DuckDbService } from './duckdb.service.js';
import { SnapshotFiles } from './snapshot-files.js';

/** Where a read replica finds the snapshots it serves (`ReplicaDatabaseModule.following`). */
export interface SnapshotSource {
  /** The directory the writer publishes to (`USAGE_SNAPSHOT_DIR`). */
  dir: string;
  /** The file name prefix of the writer's snapshots. */
  prefix: string;
  /** How often to look for a newer snapshot. */
  pollMs: number;
}

export const SNAPSHOT_SOURCE = Symbol('SNAPSHOT_SOURCE');

/** How long a starting replica waits for the writer's first snapshot. */
const FIRST_SNAPSHOT_TIMEOUT_MS = 120_000;

/**
 * The replica's half: opens the current snapshot read-only at start (waiting for the first
 * one), then looks for a newer one every poll and swaps to it, telling each swap listener
 * (the usage export's watermarks, so its cache never serves an answer of an older
 * snapshot). Staleness is therefore at most the writer's interval plus its copy time plus
 * one poll.
 */
@Injectable()
export class SnapshotFollower implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(SnapshotFollower.name);
  private readonly files: SnapshotFiles;
  private readonly swapListeners: Array<() => void> = [];
  private current: string | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(SNAPSHOT_SOURCE) private readonly source: SnapshotSource,
    private readonly db: DuckDbService,
  ) {
    this.files = new SnapshotFiles(source.dir, source.prefix);
  }

  async onModuleInit(): Promise<void> {
    const deadline = Date.now() + FIRST_SNAPSHOT_TIMEOUT_MS;
    while (!(await this.follow())) {
      if (Date.now() > deadline) {
        throw new Error(
          `no usage snapshot in ${this.source.dir} after ${FIRST_SNAPSHOT_TIMEOUT_MS / 1000} s: start the writer with USAGE_SNAPSHOT_INTERVAL_SEC`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    this.timer = setInterval(() => {
      this.follow().catch((error: unknown) =>
        this.logger.warn(`could not open the newer usage snapshot: ${String(error)}`),
      );
    }, this.source.pollMs);
    this.timer.unref();
  }

  /** Calls `listener` after every swap to a newer snapshot. */
  onSwap(listener: () => void): void {
    this.swapListeners.push(listener);
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
    for (const listener of this.swapListeners) listener();
    this.logger.log(`serving usage snapshot ${latest.name}`);
    return true;
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
