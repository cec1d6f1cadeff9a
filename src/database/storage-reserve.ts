import fs from 'node:fs';
import path from 'node:path';
import { Inject, Injectable, OnModuleDestroy, OnModuleInit, Logger } from '@nestjs/common';
import type { ReadinessCheck, ReadinessReport } from '../common/health/readiness.service.js';
import { storageFullError } from '../common/http/storage-full.js';
import { MetricsService } from '../common/metrics/metrics.service.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import type { AppConfig } from '../config/app-config.js';

/** How often the free space of the data volumes is measured (one statfs each). */
const MEASURE_INTERVAL_MS = 1_000;

/** Free bytes on the volume holding `dir` for an unprivileged writer; throws when `dir` is missing. */
export type FreeSpaceProbe = (dir: string) => number;

/** The probe StorageReserve measures with (specs give one they drive). */
export const FREE_SPACE_PROBE = Symbol('FREE_SPACE_PROBE');

/** The system's free space (one statfs). */
export const statfsFreeBytes: FreeSpaceProbe = (dir) => {
  const stats = fs.statfsSync(dir);
  return stats.bavail * stats.bsize;
};

/**
 * Keeps `DATA_DIR_MIN_FREE_MB` free on the volumes of the data dir and the database file.
 * DuckDB that runs out of space mid-write aborts the process, and its log may not replay
 * until space is freed; so below the reserve new uploads and jobs are refused (503
 * `STORAGE_FULL`) while accepted work, whose writes are small, finishes. The space is
 * measured once a second in the background, so a request reads a number, never the disk.
 */
@Injectable()
export class StorageReserve implements ReadinessCheck, OnModuleInit, OnModuleDestroy {
  readonly name = 'storage';
  private readonly logger = new Logger(StorageReserve.name);
  private readonly volumes: string[];
  private freeBytes: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private wasLow = false;
  private readonly lowChangeListeners: Array<(low: boolean) => void> = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    @Inject(FREE_SPACE_PROBE) private readonly probe: FreeSpaceProbe,
  ) {
    const databaseDir =
      config.databaseFile === ':memory:' ? [] : [path.dirname(config.databaseFile)];
    this.volumes = [...new Set([config.dataDir, ...databaseDir])];
  }

  onModuleInit(): void {
    this.measure();
    this.timer = setInterval(() => this.measure(), MEASURE_INTERVAL_MS);
    this.timer.unref();
    const freeBytes = (): number | null => this.freeBytes;
    const minFreeBytes = this.config.dataDirMinFreeBytes;
    this.metrics.gauge({
      name: 'docproc_data_dir_free_bytes',
      help: 'Free space on the fullest volume of DATA_DIR and DATABASE_FILE',
      collect() {
        const free = freeBytes();
        if (free !== null) this.set(free);
      },
    });
    this.metrics.gauge({
      name: 'docproc_data_dir_min_free_bytes',
      help: 'The free space kept for accepted work (DATA_DIR_MIN_FREE_MB)',
      collect() {
        this.set(minFreeBytes);
      },
    });
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Throws 503 STORAGE_FULL while the free space is below the reserve. */
  assertRoom(): void {
    if (this.isLow()) throw storageFullError();
  }

  /**
   * Calls `listener` each time the free space crosses the reserve (true: now below it), so
   * writers that do not pass through a request (usage ingestion) stop and start with it.
   */
  onLowChange(listener: (low: boolean) => void): void {
    this.lowChangeListeners.push(listener);
  }

  readiness(): ReadinessReport {
    const low = this.isLow();
    return {
      ready: !low,
      detail: {
        ...(low ? { reason: 'free disk space below DATA_DIR_MIN_FREE_MB' } : {}),
        freeBytes: this.freeBytes,
        minFreeBytes: this.config.dataDirMinFreeBytes,
        volumes: this.volumes,
      },
    };
  }

  /** Whether the free space is below the reserve now (as of the last measurement). */
  isLow(): boolean {
    const reserve = this.config.dataDirMinFreeBytes;
    return reserve > 0 && this.freeBytes !== null && this.freeBytes < reserve;
  }

  private measure(): void {
    let free: number | null = null;
    for (const volume of this.volumes) {
      try {
        const bytes = this.probe(volume);
        free = free === null ? bytes : Math.min(free, bytes);
      } catch {
        // A folder not made yet (the blob store makes its own): the others still count.
      }
    }
    this.freeBytes = free;
    const low = this.isLow();
    if (low !== this.wasLow) {
      if (low) {
        this.logger.error(
          { freeBytes: free, minFreeBytes: this.config.dataDirMinFreeBytes, volumes: this.volumes },
          'free disk space below DATA_DIR_MIN_FREE_MB: new uploads and jobs are refused with 503 STORAGE_FULL',
        );
      } else {
        this.logger.log({ freeBytes: free }, 'free disk space back above DATA_DIR_MIN_FREE_MB');
      }
      this.wasLow = low;
      for (const listener of this.lowChangeListeners) listener(low);
    }
  }
}
