import { Injectable } from '@nestjs/common';
import { DuckDbService } from '../../../database/duckdb.service.js';

/**
 * The legacy-worker side of the database queue. "Drained" counts only the cpu queue: that
 * is the work of the three legacy worker kinds. The io queue (webhook deliveries) needs the
 * DuckDB file and is served by the API process whatever the legacy settings, so a webhook
 * endpoint retrying for hours does not hold the upgrade back
 * (docs/decisions/0041-legacy-queue-drain-guard-and-redis-results.md).
 */
@Injectable()
export class LegacyQueueRepository {
  constructor(private readonly db: DuckDbService) {}

  async activeLegacyTasks(): Promise<number> {
    const rows = await this.db.all<{ n: bigint }>(
      `SELECT count(*) AS n FROM queue_tasks WHERE queue = 'cpu' AND state IN ('queued', 'running')`,
    );
    return Number(rows[0].n);
  }
}
