import { Injectable } from '@nestjs/common';
import { DuckDbService } from '../../database/duckdb.service.js';

/**
 * What a restart does to the sync jobs the previous process left queued or running
 * (JobReconciler, before interrupted tasks are recovered): those whose client was never told
 * their id are failed, those kept for polling (their request released by a shutdown with
 * the id, JobsRepository.keepForPolling) carry on like async jobs.
 */
@Injectable()
export class SyncJobRecoveryRepository {
  constructor(private readonly db: DuckDbService) {}

  /**
   * The `kinds` tasks of sync jobs kept for polling get an async job's attempts (a sync
   * task has one), so one a stop cut off mid-run is retried at the restart, not given up.
   */
  async allowRetriesOfKeptSyncJobs(kinds: readonly string[], maxAttempts: number): Promise<number> {
    if (kinds.length === 0) return 0;
    const placeholders = kinds.map((_, i) => `$${i + 2}`).join(', ');
    const rows = await this.db.transaction((tx) =>
      tx.all<{ task_id: string }>(
        `UPDATE queue_tasks SET max_attempts = GREATEST(max_attempts, CAST($1 AS INTEGER))
         WHERE kind IN (${placeholders}) AND state IN ('queued', 'running')
           AND json_extract_string(payload, '$.jobId') IN (
             SELECT job_id FROM processing_jobs
             WHERE kept_for_polling AND NOT is_async AND status IN ('queued', 'running'))
         RETURNING task_id`,
        [maxAttempts, ...kinds],
      ),
    );
    return rows.length;
  }

  /** Sync jobs whose request died with the previous process (not those kept for polling). */
  async failOrphanedSyncJobs(): Promise<string[]> {
    const rows = await this.db.transaction((tx) =>
      tx.all<{ job_id: string }>(
        `UPDATE processing_jobs SET status = 'failed', progress = 1, error_code = 'INTERRUPTED',
           error_status = 503, finished_at = now(), document_password = NULL,
           reason = 'The synchronous request was interrupted by a restart'
         WHERE NOT is_async AND NOT kept_for_polling
           AND status IN ('queued', 'running') RETURNING job_id`,
      ),
    );
    return rows.map((r) => r.job_id);
  }
}
