import { Injectable } from '@nestjs/common';
import { DuckDbService, Transaction } from '../../../database/duckdb.service.js';
import type { Lane, QueueName } from '../../../config/queue.types.js';
import { redisJobTaskOf, type RedisJobTask } from './redis-queue.types.js';

export interface Dispatch {
  jobId: string;
  queue: QueueName;
  bullJobId: string;
  lane: Lane;
  payload: RedisJobTask;
  dispatchedAt: Date;
}

interface DispatchRow {
  job_id: string;
  queue: QueueName;
  bull_job_id: string;
  lane: Lane;
  payload: string;
  dispatched_at: Date;
}

/** `redis_dispatches`: jobs handed to the new queue system whose outcome is not recorded yet. */
@Injectable()
export class RedisDispatchRepository {
  constructor(private readonly db: DuckDbService) {}

  async insert(tx: Transaction, dispatch: Omit<Dispatch, 'dispatchedAt'>): Promise<void> {
    await tx.run(
      `INSERT INTO redis_dispatches (job_id, queue, bull_job_id, payload, lane, dispatched_at)
       VALUES ($1, $2, $3, $4, $5, now())`,
      [
        dispatch.jobId,
        dispatch.queue,
        dispatch.bullJobId,
        JSON.stringify(dispatch.payload),
        dispatch.lane,
      ],
    );
  }

  async remove(tx: Transaction, jobId: string): Promise<void> {
    await tx.run(`DELETE FROM redis_dispatches WHERE job_id = $1`, [jobId]);
  }

  /** Dispatches older than `olderThanMs`, oldest first (the reconciler's work list). */
  async older(olderThanMs: number, limit: number): Promise<Dispatch[]> {
    const rows = await this.db.all<DispatchRow>(
      `SELECT job_id, queue, bull_job_id, lane, CAST(payload AS VARCHAR) AS payload, dispatched_at
       FROM redis_dispatches
       WHERE dispatched_at <= now() - to_milliseconds(CAST($1 AS BIGINT))
       ORDER BY dispatched_at LIMIT $2`,
      [olderThanMs, limit],
    );
    return rows.map((row) => ({
      jobId: row.job_id,
      queue: row.queue,
      bullJobId: row.bull_job_id,
      lane: row.lane,
      // Rows of the classify-only release hold the older task shape.
      payload: redisJobTaskOf(JSON.parse(row.payload) as Parameters<typeof redisJobTaskOf>[0]),
      dispatchedAt: row.dispatched_at,
    }));
  }

  /** Whether the job is still dispatched to the new queue system (not revoked, not finished). */
  async has(jobId: string): Promise<boolean> {
    const rows = await this.db.all<{ n: bigint }>(
      `SELECT count(*) AS n FROM redis_dispatches WHERE job_id = $1`,
      [jobId],
    );
    return Number(rows[0].n) > 0;
  }

  async pending(): Promise<number> {
    const rows = await this.db.all<{ n: bigint }>(`SELECT count(*) AS n FROM redis_dispatches`);
    return Number(rows[0].n);
  }
}
