import path from 'node:path';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { payloadKey } from '../../database/blob-keys.js';
import { BlobStore, type StoredBlob } from '../../database/blob-store.js';
import { DuckDbService, Transaction } from '../../database/duckdb.service.js';
import { IS_DEEP_TASK } from '../queue/db/database-queue.repository.js';
import type { Lane, QueueName } from '../../config/queue.types.js';
import { attachDocumentPassword, detachDocumentPassword } from '../core/document-password.js';
import { JobRecord, NewJob } from '../core/job.types.js';
import { type PageCursor, rowsWithinPage } from '../core/list-page.js';
import { JOB_SECRET_KEY_FILE, JobSecretSealer } from './job-secret.sealer.js';
import { JOB_COLUMNS, type JobRow, toRecord, withoutRow } from './job-row.js';

/**
 * Requests up to this size (as JSON) stay in the row; larger ones are files, so the
 * database keeps kilobytes per job whatever a request carries.
 */
export const INLINE_REQUEST_MAX_BYTES = 4 * 1024;

interface WaitingTask {
  queue: QueueName;
  lane: Lane;
  /** Deep work, which only the gpu worker takes while one is configured. */
  deep: boolean;
}

@Injectable()
export class JobsRepository {
  private readonly secrets: JobSecretSealer;

  constructor(
    private readonly db: DuckDbService,
    private readonly blobs: BlobStore,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
  ) {
    this.secrets = new JobSecretSealer(
      config ? path.join(config.dataDir, JOB_SECRET_KEY_FILE) : null,
    );
  }

  /**
   * A large request's file is written before its row commits (a row never refers to a
   * missing file); one whose transaction rolls back is an orphan the start-up sweep removes.
   */
  async insert(tx: Transaction, job: NewJob): Promise<void> {
    // The password of an encrypted PDF lives in its own column, cleared when the job ends.
    const { request: stored, secret } = detachDocumentPassword(job.request);
    let request = JSON.stringify(stored);
    let requestKey: string | null = null;
    if (Buffer.byteLength(request, 'utf8') > INLINE_REQUEST_MAX_BYTES) {
      requestKey = (await this.blobs.write(payloadKey('requests', job.jobId), Buffer.from(request)))
        .key;
      request = 'null';
    }
    await tx.run(
      `INSERT INTO processing_jobs (job_id, org_id, api_key_id, type, status, is_async, request,
         request_key, versions, metadata, persist_result, document_password, created_at)
       VALUES ($1, $2, $3, $4, 'queued', $5, $6, $7, $8, $9, $10, $11, now())`,
      [
        job.jobId,
        job.orgId,
        job.apiKeyId,
        job.type,
        job.isAsync,
        request,
        requestKey,
        job.versions === null || job.versions === undefined ? null : JSON.stringify(job.versions),
        job.metadata === undefined ? null : JSON.stringify(job.metadata),
        job.persistResult,
        secret === null ? null : this.secrets.seal(secret),
      ],
    );
  }

  /** Rows as records, with the requests that live as files read back. */
  private async records<R extends JobRow>(rows: R[]): Promise<(JobRecord & { row: R })[]> {
    const records: (JobRecord & { row: R })[] = [];
    for (const row of rows) {
      const text = row.request_key
        ? (await this.blobs.read(row.request_key)).toString('utf8')
        : row.request;
      const request = JSON.parse(text) as Record<string, unknown>;
      records.push({
        ...toRecord(row, attachDocumentPassword(request, this.secretOf(row))),
        row,
      });
    }
    return records;
  }

  /** A running job's sealed password, opened (null once the job ended or when unreadable). */
  private secretOf(row: JobRow): string | null {
    return row.document_password === null ? null : this.secrets.open(row.document_password);
  }

  private async one(rows: JobRow[]): Promise<JobRecord | null> {
    if (rows.length === 0) return null;
    return withoutRow((await this.records(rows.slice(0, 1)))[0]);
  }

  async find(jobId: string, tx?: Transaction): Promise<JobRecord | null> {
    const sql = `SELECT ${JOB_COLUMNS} FROM processing_jobs WHERE job_id = $1`;
    const rows = tx ? await tx.all<JobRow>(sql, [jobId]) : await this.db.all<JobRow>(sql, [jobId]);
    return this.one(rows);
  }

  async findForOrg(orgId: string, jobId: string): Promise<JobRecord | null> {
    const rows = await this.db.all<JobRow>(
      `SELECT ${JOB_COLUMNS} FROM processing_jobs WHERE job_id = $1 AND org_id = $2`,
      [jobId, orgId],
    );
    return this.one(rows);
  }

  /**
   * Newest first; the cursor is the (created_at, job_id) of the last row of the previous page.
   * As many rows as their requests fit in a page (`rowsWithinPage`); `cut`: rows were left.
   */
  async listForOrg(
    orgId: string,
    limit: number,
    after: PageCursor | null,
  ): Promise<{ records: (JobRecord & { createdAtMicros: bigint })[]; cut: boolean }> {
    const rows = await this.db.all<JobRow & { created_us: bigint }>(
      `SELECT ${JOB_COLUMNS}, epoch_us(created_at) AS created_us FROM processing_jobs
       WHERE org_id = $1
         AND (CAST($2 AS BIGINT) IS NULL OR epoch_us(created_at) < CAST($2 AS BIGINT)
           OR (epoch_us(created_at) = CAST($2 AS BIGINT) AND job_id < $3))
       ORDER BY created_at DESC, job_id DESC LIMIT $4`,
      [orgId, after ? after.createdAtMicros.toString() : null, after?.id ?? '', limit],
    );
    const taken = await rowsWithinPage(rows, (row) =>
      row.request_key ? this.blobs.size(row.request_key) : row.request.length,
    );
    return {
      records: (await this.records(rows.slice(0, taken))).map(({ row, ...record }) => ({
        ...record,
        createdAtMicros: BigInt(row.created_us),
      })),
      cut: taken < rows.length,
    };
  }

  /**
   * Where queued jobs wait in the database queue (queue and lane of their task), by job id.
   * Jobs handed to the new queue system (Redis) have no such task and are absent.
   */
  async waitingTasks(jobIds: readonly string[]): Promise<Map<string, WaitingTask>> {
    const waiting = new Map<string, WaitingTask>();
    if (jobIds.length === 0) return waiting;
    const rows = await this.db.all<{
      job_id: string;
      queue: QueueName;
      lane: Lane;
      deep: boolean;
    }>(
      `SELECT json_extract_string(payload, '$.jobId') AS job_id, queue, lane,
         ${IS_DEEP_TASK} AS deep FROM queue_tasks
       WHERE state = 'queued'
         AND list_contains(string_split($1, ','), json_extract_string(payload, '$.jobId'))`,
      [jobIds.join(',')],
    );
    for (const row of rows)
      waiting.set(row.job_id, { queue: row.queue, lane: row.lane, deep: row.deep });
    return waiting;
  }

  /** queued -> running; false when the job is no longer queued (cancelled or deleted). */
  async markRunning(jobId: string): Promise<boolean> {
    const rows = await this.db.transaction((tx) =>
      tx.all(
        `UPDATE processing_jobs SET status = 'running', progress = 0.1, attempts = attempts + 1,
           started_at = COALESCE(started_at, now())
         WHERE job_id = $1 AND status IN ('queued', 'running') AND NOT cancel_requested
         RETURNING job_id`,
        [jobId],
      ),
    );
    return rows.length > 0;
  }

  /**
   * queued -> running when another process reports the job started (the new queue
   * system's workers). Counts no attempt: the worker's outcome, written with markRunning,
   * does. False when the job is not queued (already running or finished, cancelled, deleted).
   */
  async markStarted(jobId: string): Promise<boolean> {
    const rows = await this.db.transaction((tx) =>
      tx.all(
        `UPDATE processing_jobs SET status = 'running', progress = 0.1,
           started_at = COALESCE(started_at, now())
         WHERE job_id = $1 AND status = 'queued' AND NOT cancel_requested
         RETURNING job_id`,
        [jobId],
      ),
    );
    return rows.length > 0;
  }

  async markCompleted(
    tx: Transaction,
    jobId: string,
    result: StoredBlob,
    numPages: number,
    totalPages: number,
    documentKey: string | null = null,
  ): Promise<void> {
    await tx.run(
      `UPDATE processing_jobs SET status = 'completed', progress = 1, result_key = $2,
         result_bytes = $3, result_sha256 = $4, num_pages = $5, total_pages = $6,
         document_key = $7, finished_at = now(), reason = NULL, document_password = NULL
       WHERE job_id = $1`,
      [jobId, result.key, result.bytes, result.sha256, numPages, totalPages, documentKey],
    );
  }

  async markFailed(
    tx: Transaction,
    jobId: string,
    code: string,
    reason: string,
    status: number,
  ): Promise<void> {
    await tx.run(
      `UPDATE processing_jobs SET status = 'failed', progress = 1, reason = $2, error_code = $3,
         error_status = $4, finished_at = now(), document_password = NULL
       WHERE job_id = $1`,
      [jobId, reason, code, status],
    );
  }

  async markCancelled(tx: Transaction, jobId: string): Promise<void> {
    await tx.run(
      `UPDATE processing_jobs SET status = 'cancelled', cancel_requested = true,
         reason = 'Job was cancelled', finished_at = now(), document_password = NULL
       WHERE job_id = $1`,
      [jobId],
    );
  }

  async requestCancel(tx: Transaction, jobId: string): Promise<void> {
    await tx.run(`UPDATE processing_jobs SET cancel_requested = true WHERE job_id = $1`, [jobId]);
  }

  /** Removes the row; the keys of its files, which the caller deletes after the commit. */
  async delete(tx: Transaction, jobId: string): Promise<string[]> {
    const rows = await tx.all<{
      result_key: string | null;
      request_key: string | null;
      document_key: string | null;
    }>(
      `DELETE FROM processing_jobs WHERE job_id = $1
       RETURNING result_key, request_key, document_key`,
      [jobId],
    );
    return rows
      .flatMap((row) => [row.result_key, row.request_key, row.document_key])
      .filter((key): key is string => key !== null);
  }

  /** Every file a job row refers to, result or request (the orphan sweep keeps these). */
  async payloadKeys(): Promise<Set<string>> {
    const rows = await this.db.all<{ key: string }>(
      `SELECT result_key AS key FROM processing_jobs WHERE result_key IS NOT NULL
       UNION ALL
       SELECT request_key FROM processing_jobs WHERE request_key IS NOT NULL
       UNION ALL
       SELECT document_key FROM processing_jobs WHERE document_key IS NOT NULL`,
    );
    return new Set(rows.map((row) => row.key));
  }

  /** A sync job released by a shutdown with its id: recorded before the client is told. */
  async keepForPolling(jobId: string): Promise<void> {
    await this.db.run(
      `UPDATE processing_jobs SET kept_for_polling = true
       WHERE job_id = $1 AND NOT is_async AND status IN ('queued', 'running')`,
      [jobId],
    );
  }

  /**
   * Async jobs (and sync ones kept for polling) queued or running with no live task: no queued or running `kinds` task in
   * the database queue and no Redis dispatch row. A crash between a job's commit and the
   * add of its command leaves such a job; JobReconciler queues it again.
   */
  async withoutTask(kinds: readonly string[]): Promise<JobRecord[]> {
    const placeholders = kinds.map((_, i) => `$${i + 1}`).join(', ');
    const rows = await this.db.all<JobRow>(
      `SELECT ${JOB_COLUMNS} FROM processing_jobs j
       WHERE (j.is_async OR j.kept_for_polling) AND j.status IN ('queued', 'running')
         AND NOT EXISTS (
           SELECT 1 FROM queue_tasks t
           WHERE t.kind IN (${placeholders}) AND t.state IN ('queued', 'running')
             AND json_extract_string(t.payload, '$.jobId') = j.job_id)
         AND NOT EXISTS (SELECT 1 FROM redis_dispatches r WHERE r.job_id = j.job_id)
       ORDER BY j.created_at`,
      [...kinds],
    );
    return (await this.records(rows)).map(withoutRow);
  }

  /**
   * Drops results finished more than `seconds` ago, unless the request asked to persist
   * them; returns the keys of their files, which the caller deletes after the commit. The
   * keys are read before the update: an UPDATE's RETURNING gives the updated row, whose
   * keys are already NULL, and the files then stayed in the data dir for good.
   */
  async expireResults(seconds: number): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.all<{
        job_id: string;
        result_key: string | null;
        document_key: string | null;
      }>(
        `SELECT job_id, result_key, document_key FROM processing_jobs
         WHERE status = 'completed' AND NOT persist_result AND NOT result_expired
           AND finished_at < now() - to_seconds(CAST($1 AS BIGINT))`,
        [seconds],
      );
      if (rows.length === 0) return [];
      await tx.run(
        `UPDATE processing_jobs SET result_key = NULL, result_bytes = NULL, result_sha256 = NULL,
           document_key = NULL,
           result_expired = true
         WHERE list_contains(CAST($1 AS VARCHAR[]), job_id)`,
        [JSON.stringify(rows.map((row) => row.job_id))],
      );
      return rows.flatMap((row) =>
        [row.result_key, row.document_key].filter((key): key is string => key !== null),
      );
    });
  }
}
