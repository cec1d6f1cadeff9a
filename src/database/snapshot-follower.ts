import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { StartRefusedError } from '../common/start-refused.error.js';
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
  /** How long a start waits for the writer's first snapshot (`USAGE_REPLICA_FIRST_SNAPSHOT_WAIT_SEC`). */
  firstSnapshotWaitMs: number;
}

export const SNAPSHOT_SOURCE = Symbol('SNAPSHOT_SOURCE');

/** How often a starting replica looks for the writer's first snapshot. */
const FIRST_SNAPSHOT_POLL_MS = 500;

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
    await this.firstSnapshot();
    this.timer = setInterval(() => {
      this.follow().catch((error: unknown) =>
        this.logger.warn(`could not open the newer usage snapshot: ${String(error)}`),
      );
    }, this.source.pollMs);
    this.timer.unref();
  }

  /**
   * Waits for the writer's first snapshot: a writer started beside the replica publishes
   * within its interval. Without one by the deadline, or with a snapshot directory that
   * cannot hold one (a file, unreadable), the start is refused in one line saying what to
   * provide; the latter at once, as waiting cannot change it.
   */
  private async firstSnapshot(): Promise<void> {
    const { dir, firstSnapshotWaitMs } = this.source;
    const deadline = performance.now() + firstSnapshotWaitMs;
    let waiting = false;
    for (;;) {
      const unusable = this.files.unusableDir();
      if (unusable) {
        throw new StartRefusedError(
          `USAGE_SNAPSHOT_DIR ${dir} cannot hold usage snapshots (${unusable}): give the export replica the directory its writer publishes to`,
        );
      }
      if (await this.follow()) return;
      if (performance.now() >= deadline) {
        throw new StartRefusedError(
          `no usage snapshot in USAGE_SNAPSHOT_DIR ${dir} after ${firstSnapshotWaitMs / 1000} s (USAGE_REPLICA_FIRST_SNAPSHOT_WAIT_SEC): ` +
            'an export replica serves the snapshots its writer publishes; start the writer with USAGE_SNAPSHOT_INTERVAL_SEC above 0 and the same USAGE_SNAPSHOT_DIR',
        );
      }
      if (!waiting) {
        waiting = true;
        this.logger.warn(
          `no usage snapshot in ${dir} yet; waiting up to ${firstSnapshotWaitMs / 1000} s for the writer's first (USAGE_SNAPSHOT_INTERVAL_SEC)`,
        );
      }
      await new Promise((resolve) =>
        setTimeout(
          resolve,
          Math.min(FIRST_SNAPSHOT_POLL_MS, Math.max(0, deadline - performance.now())),
        ),
      );
    }
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
