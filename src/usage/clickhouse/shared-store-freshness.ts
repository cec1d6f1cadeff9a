import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { UsageWatermarks } from '../usage-watermarks.js';

/** How stale a cached export answer may be when other processes write the same store. */
export const SHARED_STORE_CACHE_MS = 1_000;

/**
 * With the ClickHouse store, other ingest processes write usage this process never hears
 * of, so its per-org watermarks alone would keep serving a cached export answer after
 * their writes. Every second all watermarks move: a cached answer is at most that old,
 * and a dashboard burst still shares one query.
 */
@Injectable()
export class SharedStoreFreshness implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly watermarks: UsageWatermarks,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.usage.store.kind !== 'clickhouse') return;
    this.timer = setInterval(() => this.watermarks.advanceAll(), SHARED_STORE_CACHE_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
