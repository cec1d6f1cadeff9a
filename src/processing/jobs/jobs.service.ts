import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
  type StreamableFile,
} from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import { LANES, QUEUES } from '../../config/queue.types.js';
import { UrlSigner } from '../upload/url-signer.service.js';
import { JobEvents } from './job-events.js';
import { JobResults } from './job-results.js';
import { JobView, presentJob, presentListItem } from './job.presenter.js';
import { JobRecord } from '../core/job.types.js';
import { decodePageCursor, encodePageCursor } from '../core/list-page.js';
import { JobsRepository } from './jobs.repository.js';
import { JobHistoryRepository } from './job-history.repository.js';
import { RunningJobs } from './running-jobs.js';
import { SyncRequestDrain } from './sync-request-drain.js';
import { LegacyWorkers } from '../queue/db/legacy-workers.service.js';
import { envelopeAroundStoredResult, storedResultBody } from './stored-result-body.js';
import { asUrlResult, forcesUrlResult } from './url-result.js';

const RESULT_PURPOSE = 'job-result';

/** A result answered as its file: no URL to sign into it at each read. */
function answeredAsStored(job: JobRecord): boolean {
  return !forcesUrlResult(job.request) && !job.documentKey;
}
const DOCUMENT_PURPOSE = 'job-document';
const DOCUMENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};
const SWEEP_INTERVAL_MS = 60_000;
/** Jobs one history transaction deletes, and transactions per pass (10 000 jobs a minute). */
const HISTORY_BATCH = 1_000;
const HISTORY_BATCHES_PER_PASS = 10;

export interface JobListQuery {
  cursor: string | null;
  limit: number;
  excludeConfigs: boolean;
}

/** Reading and managing jobs: poll, list, cancel, delete, result URLs and retention. */
@Injectable()
export class JobsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(JobsService.name);
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: JobsRepository,
    private readonly history: JobHistoryRepository,
    private readonly db: DuckDbService,
    private readonly signer: UrlSigner,
    private readonly events: JobEvents,
    private readonly workers: LegacyWorkers,
    private readonly running: RunningJobs,
    private readonly results: JobResults,
    private readonly drain: SyncRequestDrain,
  ) {}

  onApplicationBootstrap(): void {
    const { resultRetentionSeconds, jobHistoryRetentionSeconds } = this.config.processing;
    if (resultRetentionSeconds > 0 || jobHistoryRetentionSeconds > 0) {
      void this.sweep();
      this.sweeper = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
      this.sweeper.unref();
    }
  }

  /** Sync requests in flight get their answer (or 503 SHUTTING_DOWN) before anything stops. */
  async onModuleDestroy(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    await this.drain.drain();
  }

  /**
   * The retention pass, once a minute: results past their retention, then old jobs, then
   * the old rows of jobs deleted through the API.
   */
  async sweep(): Promise<{ results: number; jobs: number; leftBehind: number }> {
    const results = await this.sweepResults();
    const jobs = await this.sweepHistory();
    return { results, jobs, leftBehind: await this.sweepLeftBehind() };
  }

  private async sweepResults(): Promise<number> {
    const seconds = this.config.processing.resultRetentionSeconds;
    if (seconds === 0) return 0;
    try {
      const keys = await this.jobs.expireResults(seconds);
      await this.results.remove(keys);
      if (keys.length) this.logger.log(`dropped ${keys.length} job result(s) past retention`);
      return keys.length;
    } catch (error) {
      this.logger.error({ err: error }, 'result retention sweep failed');
      return 0;
    }
  }

  /**
   * Deletes jobs past JOB_HISTORY_RETENTION_SECONDS in batches, each its own short
   * transaction so submissions and polls are never held behind one long delete; a backlog
   * (the first start after an upgrade) drains over the following passes.
   */
  private async sweepHistory(): Promise<number> {
    const seconds = this.config.processing.jobHistoryRetentionSeconds;
    if (seconds === 0) return 0;
    let deleted = 0;
    try {
      for (let batch = 0; batch < HISTORY_BATCHES_PER_PASS; batch++) {
        const { jobs, keys } = await this.history.deleteFinishedBefore(seconds, HISTORY_BATCH);
        await this.results.remove(keys);
        deleted += jobs;
        if (jobs < HISTORY_BATCH) break;
      }
    } catch (error) {
      this.logger.error({ err: error }, 'job history retention sweep failed');
    }
    if (deleted) this.logger.log(`deleted ${deleted} job(s) past JOB_HISTORY_RETENTION_SECONDS`);
    return deleted;
  }

  /** Rows a deleted job left (its deliveries, outbox row, dead tasks), once past retention. */
  private async sweepLeftBehind(): Promise<number> {
    const seconds = this.config.processing.jobHistoryRetentionSeconds;
    if (seconds === 0) return 0;
    try {
      const rows = await this.history.deleteLeftBehindBefore(seconds, HISTORY_BATCH);
      if (rows) this.logger.log(`deleted ${rows} row(s) left by deleted jobs past retention`);
      return rows;
    } catch (error) {
      this.logger.error({ err: error }, 'job history retention sweep failed');
      return 0;
    }
  }

  /** Another org's job is indistinguishable from a missing one. */
  async getOwned(orgId: string, jobId: string): Promise<JobRecord> {
    const job = await this.jobs.findForOrg(orgId, jobId);
    if (!job) throw ApiError.notFound('JOB_NOT_FOUND', `No job ${jobId}`);
    return job;
  }

  private signedUrl(purpose: string, jobId: string, path: string): string {
    const query = this.signer.sign(purpose, jobId, this.config.processing.resultUrlTtlSeconds);
    return `${this.config.publicBaseUrl}/job/${encodeURIComponent(jobId)}/${path}?${query}`;
  }

  /**
   * The job's result as the client sees it: full, or a signed URL for `force_url_result`;
   * a job that made a document (edit) points at it with a URL signed now.
   */
  async resultView(job: JobRecord): Promise<Record<string, unknown> | null> {
    const stored = await this.results.load(job);
    if (!stored) return null;
    const result = job.documentKey
      ? { ...stored, document_url: this.signedUrl(DOCUMENT_PURPOSE, job.jobId, 'document') }
      : stored;
    if (!forcesUrlResult(job.request)) return result;
    return asUrlResult(result, this.signedUrl(RESULT_PURPOSE, job.jobId, 'result'), job.jobId);
  }

  /**
   * The answer holding a completed job's result: its file as it is (never parsed in this
   * process), or the view with URLs signed now (`force_url_result`, an edited document);
   * null without one.
   */
  async resultBody(job: JobRecord): Promise<Record<string, unknown> | StreamableFile | null> {
    if (!answeredAsStored(job)) return this.resultView(job);
    const stored = await this.results.open(job);
    return stored ? storedResultBody(stored) : null;
  }

  async view(orgId: string, jobId: string): Promise<JobView | StreamableFile> {
    const job = await this.getOwned(orgId, jobId);
    const idle = await this.idleJobs([job]);
    const stored = answeredAsStored(job) ? await this.results.open(job) : null;
    if (stored) {
      return envelopeAroundStoredResult(
        (result) => presentJob(job, result as Record<string, unknown>, idle.has(job.jobId)),
        stored,
      );
    }
    return presentJob(job, await this.resultView(job), idle.has(job.jobId));
  }

  /**
   * The queued jobs among `jobs` that no worker of this deployment will claim: their task
   * waits in a database-queue lane without workers (e.g. the legacy workers were turned off
   * while it was queued). Usually every lane has workers and nothing is read.
   */
  private async idleJobs(jobs: readonly JobRecord[]): Promise<Set<string>> {
    const idle = new Set<string>();
    const everything = QUEUES.every((queue) =>
      LANES.every((lane) => [false, true].every((deep) => this.workers.claims(queue, lane, deep))),
    );
    if (everything) return idle;
    const queued = jobs.filter((job) => job.state === 'queued').map((job) => job.jobId);
    for (const [jobId, task] of await this.jobs.waitingTasks(queued)) {
      if (!this.workers.claims(task.queue, task.lane, task.deep)) idle.add(jobId);
    }
    return idle;
  }

  async signedResult(jobId: string, expires: unknown, signature: unknown): Promise<StreamableFile> {
    if (!this.signer.verify(RESULT_PURPOSE, jobId, expires, signature)) {
      throw ApiError.forbidden('INVALID_SIGNATURE', 'The result URL is invalid or has expired');
    }
    const job = await this.jobs.find(jobId);
    const stored = job ? await this.results.open(job) : null;
    if (!stored) throw ApiError.notFound('RESULT_NOT_FOUND', 'The result is not available');
    return storedResultBody(stored);
  }

  /** The document behind a signed `document_url`: its bytes and content type. */
  async signedDocument(
    jobId: string,
    expires: unknown,
    signature: unknown,
  ): Promise<{ bytes: Buffer; contentType: string; fileName: string }> {
    if (!this.signer.verify(DOCUMENT_PURPOSE, jobId, expires, signature)) {
      throw ApiError.forbidden('INVALID_SIGNATURE', 'The document URL is invalid or has expired');
    }
    const job = await this.jobs.find(jobId);
    const document = job ? await this.results.loadDocument(job) : null;
    if (!document) throw ApiError.notFound('DOCUMENT_NOT_FOUND', 'The document is not available');
    return {
      bytes: document.bytes,
      contentType: DOCUMENT_TYPES[document.extension] ?? 'application/octet-stream',
      fileName: `${jobId}.${document.extension}`,
    };
  }

  async list(
    orgId: string,
    query: JobListQuery,
  ): Promise<{ jobs: Record<string, unknown>[]; next_cursor: string | null }> {
    const after = query.cursor ? decodePageCursor(query.cursor) : null;
    const { records: rows, cut } = await this.jobs.listForOrg(orgId, query.limit + 1, after);
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    const idle = await this.idleJobs(page);
    return {
      jobs: page.map((job) => presentListItem(job, !query.excludeConfigs, idle.has(job.jobId))),
      next_cursor:
        (cut || rows.length > query.limit) && last
          ? encodePageCursor({ createdAtMicros: last.createdAtMicros, id: last.jobId })
          : null,
    };
  }

  /**
   * Queued jobs are cancelled at once; a running one has its task stopped (the executor
   * process doing it is ended) and is recorded as cancelled: not billed, no webhook.
   * Finished jobs cannot be cancelled.
   */
  async cancel(orgId: string, jobId: string): Promise<{ job_id: string; status: string }> {
    const outcome = await this.db.transaction(async (tx) => {
      const job = await this.jobs.find(jobId, tx);
      if (!job || job.orgId !== orgId) throw ApiError.notFound('JOB_NOT_FOUND', `No job ${jobId}`);
      if (job.state === 'queued') await this.jobs.markCancelled(tx, jobId);
      else if (job.state === 'running') await this.jobs.requestCancel(tx, jobId);
      else if (job.state !== 'cancelled') {
        throw new ApiError(409, 'JOB_NOT_CANCELLABLE', `Job ${jobId} has already finished`);
      }
      return job.state;
    });
    if (outcome === 'queued') this.events.finished(jobId);
    // Running here: stopped now. Running in a Redis worker process: discarded when it ends.
    if (outcome === 'running') this.running.abort(jobId);
    return { job_id: jobId, status: outcome === 'running' ? 'Cancelling' : 'Cancelled' };
  }

  /** Removes the job and its result; usage already recorded stays (it was billed). */
  async delete(orgId: string, jobId: string): Promise<{ job_id: string; deleted: true }> {
    const files = await this.db.transaction(async (tx) => {
      const job = await this.jobs.find(jobId, tx);
      if (!job || job.orgId !== orgId) throw ApiError.notFound('JOB_NOT_FOUND', `No job ${jobId}`);
      return this.jobs.delete(tx, jobId);
    });
    await this.results.remove(files);
    this.events.finished(jobId);
    return { job_id: jobId, deleted: true };
  }
}
