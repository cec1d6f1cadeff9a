import { Injectable, OnModuleInit } from '@nestjs/common';
import { MetricsService } from '../common/metrics/metrics.service.js';
import { DuckDbService } from './duckdb.service.js';

/**
 * DuckDB's own memory accounting at scrape time, by component (`duckdb_memory()`): the
 * buffer pool's share of the process RSS, which `DUCKDB_MEMORY_LIMIT` caps.
 */
@Injectable()
export class DatabaseMetrics implements OnModuleInit {
  constructor(
    private readonly db: DuckDbService,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    const db = this.db;
    this.metrics.gauge({
      name: 'docproc_duckdb_memory_bytes',
      help: 'Memory held by DuckDB, by component (duckdb_memory())',
      labelNames: ['component'],
      async collect() {
        const rows = await db
          .all<{ tag: string; bytes: bigint }>(
            'SELECT tag, memory_usage_bytes AS bytes FROM duckdb_memory() WHERE memory_usage_bytes > 0',
          )
          .catch(() => null); // closing: a scrape must not fail for it
        if (!rows) return;
        this.reset();
        for (const { tag, bytes } of rows) this.set({ component: tag }, Number(bytes));
      },
    });
  }
}
