import { Injectable } from '@nestjs/common';
import { DuckDbService } from '../../database/duckdb.service.js';

/**
 * Which finished jobs may leave the store, and the rows that hang off them: their webhook
 * deliveries with their attempts, their usage-outbox row once sent, and dead queue tasks
 * of the job or of its deliveries. Usage events themselves live in the usage store and are
 * never touched: the history of billing outlives the history of jobs.
 */
@Injectable()
export class JobHistoryRepository {
  constructor(private readonly db: DuckDbService) {}

  /**
   * Deletes up to `limit` jobs finished more than `seconds` ago, oldest first, in one
   * transaction; returns the keys of their files, which the caller deletes after the commit.
   * A job is kept while anything may still need it: it is queued or running, it asked for
   * `persist_results`, its result is still stored (a completed job waits for result
   * retention), a webhook delivery of it is pending, its usage event is not yet sent, a
   * Redis dispatch or a live queue task still names it.
   */
  async deleteFinishedBefore(
    seconds: number,
    limit: number,
  ): Promise<{ jobs: number; keys: string[] }> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.all<{
        job_id: string;
        result_key: string | null;
        request_key: string | null;
        document_key: string | null;
      }>(
        `SELECT j.job_id, j.result_key, j.request_key, j.document_key FROM processing_jobs j
         WHERE j.status IN ('completed', 'failed', 'cancelled') AND NOT j.persist_result
           AND (j.status <> 'completed' OR j.result_expired)
           AND COALESCE(j.finished_at, j.created_at) < now() - to_seconds(CAST($1 AS BIGINT))
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                           WHERE d.job_id = j.job_id AND d.status = 'pending')
           AND NOT EXISTS (SELECT 1 FROM usage_outbox o
                           WHERE o.job_id = j.job_id AND o.sent_at IS NULL)
           AND NOT EXISTS (SELECT 1 FROM redis_dispatches r WHERE r.job_id = j.job_id)
           AND NOT EXISTS (SELECT 1 FROM queue_tasks t
                           WHERE t.state IN ('queued', 'running')
                             AND json_extract_string(t.payload, '$.jobId') = j.job_id)
         ORDER BY COALESCE(j.finished_at, j.created_at), j.job_id
         LIMIT CAST($2 AS BIGINT)`,
        [seconds, limit],
      );
      if (rows.length === 0) return { jobs: 0, keys: [] };
      const ids = [JSON.stringify(rows.map((row) => row.job_id))];
      const ofJobs = `list_contains(CAST($1 AS VARCHAR[]), job_id)`;
      const deliveries = `SELECT delivery_id FROM webhook_deliveries WHERE ${ofJobs}`;
      await tx.run(
        `DELETE FROM queue_tasks WHERE state = 'dead' AND (
           list_contains(CAST($1 AS VARCHAR[]), json_extract_string(payload, '$.jobId'))
           OR json_extract_string(payload, '$.deliveryId') IN (${deliveries}))`,
        ids,
      );
      await tx.run(`DELETE FROM webhook_attempts WHERE delivery_id IN (${deliveries})`, ids);
      await tx.run(`DELETE FROM webhook_deliveries WHERE ${ofJobs}`, ids);
      await tx.run(`DELETE FROM usage_outbox WHERE sent_at IS NOT NULL AND ${ofJobs}`, ids);
      await tx.run(`DELETE FROM processing_jobs WHERE ${ofJobs}`, ids);
      return {
        jobs: rows.length,
        keys: rows.flatMap((row) =>
          [row.result_key, row.request_key, row.document_key].filter(
            (key): key is string => key !== null,
          ),
        ),
      };
    });
  }

  /**
   * Deletes, up to `limit` of each, the rows older than `seconds` whose job is gone already
   * (`DELETE /job/{id}` removes the job row alone): finished webhook deliveries with their
   * attempts and dead tasks, sent usage-outbox rows, dead tasks of the job. The number of
   * rows deleted. Without this they would stay for good, no job row leading to them.
   */
  async deleteLeftBehindBefore(seconds: number, limit: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      const params = [seconds, limit];
      const before = `now() - to_seconds(CAST($1 AS BIGINT))`;
      const jobGone = (column: string) =>
        `NOT EXISTS (SELECT 1 FROM processing_jobs j WHERE j.job_id = ${column})`;
      const deliveries = await tx.all<{ delivery_id: string }>(
        `SELECT delivery_id FROM webhook_deliveries d
         WHERE d.status <> 'pending' AND d.created_at < ${before} AND ${jobGone('d.job_id')}
         LIMIT CAST($2 AS BIGINT)`,
        params,
      );
      const ids = [JSON.stringify(deliveries.map((row) => row.delivery_id))];
      const ofDeliveries = `list_contains(CAST($1 AS VARCHAR[]), delivery_id)`;
      const counts = [
        await tx.all<{ n: bigint }>(
          `DELETE FROM queue_tasks WHERE state = 'dead' AND list_contains(CAST($1 AS VARCHAR[]),
             json_extract_string(payload, '$.deliveryId')) RETURNING 1 AS n`,
          ids,
        ),
        await tx.all(`DELETE FROM webhook_attempts WHERE ${ofDeliveries} RETURNING 1 AS n`, ids),
        await tx.all(`DELETE FROM webhook_deliveries WHERE ${ofDeliveries} RETURNING 1 AS n`, ids),
        await tx.all(
          `DELETE FROM usage_outbox WHERE event_id IN (
             SELECT event_id FROM usage_outbox o
             WHERE o.sent_at IS NOT NULL AND o.created_at < ${before} AND ${jobGone('o.job_id')}
             LIMIT CAST($2 AS BIGINT))
           RETURNING 1 AS n`,
          params,
        ),
        await tx.all(
          `DELETE FROM queue_tasks WHERE task_id IN (
             SELECT task_id FROM queue_tasks t
             WHERE t.state = 'dead' AND t.enqueued_at < ${before}
               AND json_extract_string(t.payload, '$.jobId') IS NOT NULL
               AND ${jobGone("json_extract_string(t.payload, '$.jobId')")}
             LIMIT CAST($2 AS BIGINT))
           RETURNING 1 AS n`,
          params,
        ),
      ];
      return counts.reduce((sum, rows) => sum + rows.length, 0);
    });
  }
}
