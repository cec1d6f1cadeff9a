import { Injectable, OnModuleInit } from '@nestjs/common';
import { MetricsService } from '../common/metrics/metrics.service.js';
import { DuckDbService } from './duckdb.service.js';

const SIZE_UNITS: Record<string, number> = {
  bytes: 1,
  KiB: 2 ** 10,
  MiB: 2 ** 20,
  GiB: 2 ** 30,
  TiB: 2 ** 40,
  PiB: 2 ** 50,
};

/** A size as DuckDB prints its settings ("244.1 MiB", "18.8 GiB"), in bytes; null if not one. */
export function parseDuckDbSize(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?) ?(bytes|[KMGTP]iB)$/.exec(text.trim());
  return match ? Math.round(Number(match[1]) * SIZE_UNITS[match[2]]) : null;
}

/**
 * DuckDB's own memory accounting at scrape time, by component (`duckdb_memory()`): the
 * buffer pool's share of the process RSS, which `DUCKDB_MEMORY_LIMIT` caps. With the limit
 * beside it, an operator can alert before the usage dedupe index (component `ART_INDEX`),
 * which inserts need in memory, outgrows the limit and stops ingestion.
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
    this.metrics.gauge({
      name: 'docproc_duckdb_memory_limit_bytes',
      help: "DuckDB's memory limit (DUCKDB_MEMORY_LIMIT)",
      async collect() {
        const rows = await db
          .all<{ value: string }>("SELECT current_setting('memory_limit') AS value")
          .catch(() => null); // closing: a scrape must not fail for it
        const bytes = rows?.[0] ? parseDuckDbSize(rows[0].value) : null;
        if (bytes !== null) this.set(bytes);
      },
    });
  }
}
