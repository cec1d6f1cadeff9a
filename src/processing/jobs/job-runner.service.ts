import { randomUUID } from 'node:crypto';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { ApiError } from '../../common/api-error.js';
import { STORAGE_FULL, STORAGE_FULL_RETRY_AFTER_SECONDS } from '../../common/http/storage-full.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import { command, commandType, RunJobCommand } from '../queue/queue-command.js';
import { QUEUE, type QueuePort } from '../queue/queue-port.js';
import { isDeepWork, operationOfType } from '../operations/operations.js';
import { JobEvents, type WaitOutcome } from './job-events.js';
import { JobExecutor } from './job-executor.js';
import { JobResults } from './job-results.js';
import { JobInputStage } from './job-input.stage.js';
import { JobOutcomeRecorder } from './job-outcome.recorder.js';
import type { JobPipeline, Submission, SyncAnswer } from './job-pipeline.js';
import { ProcessingError } from '../core/processing-error.js';
import { JobsRepository } from './jobs.repository.js';
import { SubmissionGate } from './submission-gate.js';
import { SHUTDOWN_RETRY_AFTER_SECONDS } from './sync-request-drain.js';
import { syncTimeoutError } from './sync-timeout.js';

/**
 * The job plumbing shared by every kind of processing job (a JobPipeline registers here).
 * Submission passes the SubmissionGate (inputs, webhook, admission cap: 503 QUEUE_FULL
 * before any job exists), commits the job row (the durable record) and then adds its
 * command to the queue (QueuePort: no transaction crosses it; JobReconciler re-adds a job
 * a crash left without one). Sync requests wait for their job up to SYNC_TIMEOUT_MS. The
 * queue hands each command to the JobExecutor, and JobOutcomeRecorder records how the job
 * ended (exactly one usage event per completed job, whatever re-runs a command).
 */
@Injectable()
export class JobRunner {
  private readonly pipelines = new Map<string, JobPipeline<unknown>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DuckDbService,
    private readonly jobs: JobsRepository,
    @Inject(QUEUE) private readonly queue: QueuePort,
    private readonly events: JobEvents,
    private readonly gate: SubmissionGate,
    private readonly executor: JobExecutor,
    private readonly outcomes: JobOutcomeRecorder,
    private readonly results: JobResults,
    private readonly inputStage: JobInputStage,
  ) {}

  /** Takes the pipeline's job commands from the queue. */
  register<Outcome>(pipeline: JobPipeline<Outcome>): void {
    this.pipelines.set(pipeline.taskKind, pipeline as JobPipeline<unknown>);
    this.queue.work(
      commandType(pipeline.taskKind, RunJobCommand),
      (work) => this.executor.execute(pipeline, work.payload.jobId),
      {
        exhausted: (work, reason) =>
          this.outcomes.failed(work.payload.jobId, new ProcessingError('INTERRUPTED', reason, 500)),
      },
    );
  }

  /**
   * The registered pipeline of a task kind: the Redis results consumer records a Redis
   * worker's outcome with it (JobOutcomeRecorder), as this process's executor does.
   */
  pipeline(kind: string): JobPipeline<unknown> | undefined {
    return this.pipelines.get(kind);
  }

  // ---- submission -------------------------------------------------------------------------

  /** `onCommitted`: runs once the job row exists, before its command is queued (sync waits). */
  private async submit(
    pipeline: JobPipeline<unknown>,
    principal: ProcessingPrincipal,
    submission: Submission,
    onCommitted?: (jobId: string) => void,
  ): Promise<string> {
    const admitted = await this.gate.pass(principal, submission);
    const jobId = randomUUID();
    // The admitted slot stays reserved until the task is counted where it waits (the
    // database queue's row, or the Redis add): for a job downloading its inputs first, until
    // the downloads end (JobInputStage).
    let downloading = false;
    const queued = (async () => {
      await this.db.transaction(async (tx) => {
        await this.jobs.insert(tx, {
          jobId,
          orgId: principal.orgId,
          apiKeyId: principal.keyId,
          type: submission.type,
          isAsync: submission.isAsync,
          request: submission.request,
          versions: submission.versions,
          metadata: submission.isAsync ? submission.metadata : undefined,
          persistResult: submission.persistResult,
        });
      });
      onCommitted?.(jobId);
      if (this.inputStage.needsDownloads(submission.request)) {
        downloading = true;
        const job = { jobId, orgId: principal.orgId, ...submission };
        this.inputStage.start(job, pipeline.taskKind, admitted);
        return;
      }
      const type = commandType(pipeline.taskKind, RunJobCommand);
      const operation = operationOfType(submission.type);
      try {
        await this.queue.add(command(type, { jobId, operation }), {
          queue: 'cpu',
          lane: submission.lane,
          // A sync job's caller is gone after a restart: it is not retried (see JobReconciler).
          maxAttempts: submission.isAsync ? this.config.processing.jobMaxAttempts : 1,
          deep: isDeepWork(submission.type, submission.request),
          // The queue's workers are shared fairly between organizations.
          tenant: principal.orgId,
        });
      } catch (error) {
        // Not queued anywhere: the job is removed, the request fails (e.g. 503).
        await this.outcomes.withdrawn(jobId);
        throw error;
      }
    })();
    await queued.finally(() => {
      if (!downloading) admitted();
    });
    return jobId;
  }

  async submitAsync(
    pipeline: JobPipeline<unknown>,
    principal: ProcessingPrincipal,
    submission: Submission,
  ): Promise<{ job_id: string }> {
    const jobId = await this.submit(pipeline, principal, submission);
    return { job_id: jobId };
  }

  /** Sync: the same pipeline through the queue (priority lane by default), awaited. */
  async runSync(
    pipeline: JobPipeline<unknown>,
    principal: ProcessingPrincipal,
    submission: Submission,
    signal?: AbortSignal,
  ): Promise<SyncAnswer> {
    const timeoutMs = this.config.processing.syncTimeoutMs;
    let waited: Promise<WaitOutcome> = Promise.resolve('finished');
    // The wait starts before the command is queued, so no finish signal is missed.
    const jobId = await this.submit(pipeline, principal, submission, (id) => {
      waited = this.events.waitFor(id, signal, timeoutMs);
    });
    const outcome = await waited;
    const job = await this.jobs.find(jobId);
    if (!job) throw ApiError.notFound('JOB_NOT_FOUND', 'The job was deleted');
    if (job.state === 'completed') {
      if (pipeline.syncResult) return pipeline.syncResult(job);
      return (await this.results.load(job)) ?? {};
    }
    if (job.state === 'cancelled')
      throw new ApiError(HttpStatus.CONFLICT, 'JOB_CANCELLED', 'The job was cancelled');
    if (job.state === 'failed') {
      throw (
        pipeline.syncFailure?.(job) ??
        (job.errorCode === STORAGE_FULL
          ? ApiError.unavailable(
              STORAGE_FULL,
              job.reason ?? 'The server is out of disk space',
              STORAGE_FULL_RETRY_AFTER_SECONDS,
              { job_id: jobId },
            )
          : new ApiError(
              (job.errorStatus ?? 500) as HttpStatus,
              job.errorCode ?? 'PROCESSING_FAILED',
              job.reason ?? 'Processing failed',
              { job_id: jobId },
            ))
      );
    }
    if (outcome === 'timeout') throw syncTimeoutError(jobId, timeoutMs);
    if (outcome === 'aborted' && (await this.outcomes.cancelledUnstarted(jobId))) {
      throw new ApiError(HttpStatus.CONFLICT, 'JOB_CANCELLED', 'The client went away');
    }
    // Released by shutdown once its drain was over with the job unfinished (or the client
    // left). The job is kept for polling before the client is told its id: a job still
    // running may finish within the workers' grace period, and one unfinished at the
    // restart is queued again and finishes (JobReconciler). A client that left is told
    // nothing; its job stays a sync one, failed as interrupted at the restart.
    if (outcome !== 'aborted' && !(await this.keptForPolling(jobId))) {
      throw ApiError.unavailable(
        'SHUTTING_DOWN',
        'The service is shutting down and could not keep the job; submit it again shortly',
        SHUTDOWN_RETRY_AFTER_SECONDS,
      );
    }
    throw ApiError.unavailable(
      'SHUTTING_DOWN',
      `The service is shutting down; the job is kept: poll GET /job/${jobId} or retry shortly`,
      SHUTDOWN_RETRY_AFTER_SECONDS,
      { job_id: jobId },
    );
  }

  /** False when the store could not record it (the client is then not told the job id). */
  private async keptForPolling(jobId: string): Promise<boolean> {
    try {
      await this.jobs.keepForPolling(jobId);
      return true;
    } catch {
      return false;
    }
  }
}
