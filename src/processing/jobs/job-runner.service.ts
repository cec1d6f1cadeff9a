import { randomUUID } from 'node:crypto';
import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { ApiError } from '../../common/api-error.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { DuckDbService, type Transaction } from '../../database/duckdb.service.js';
import { AdmissionService } from '../admission/admission.service.js';
import { InputResolver } from '../inputs/input-resolver.service.js';
import { UsageOutboxRelay } from '../outbox/usage-outbox.relay.js';
import { UsageOutboxRepository } from '../outbox/usage-outbox.repository.js';
import { command, commandType, RunJobCommand } from '../queue/queue-command.js';
import { QUEUE, type QueuePort } from '../queue/queue-port.js';
import { isDeepWork } from '../queue/deep-work.js';
import { QueueWorkers } from '../queue/queue-workers.service.js';
import type { WebhookConfig } from '../requests/classify-config.dto.js';
import { ProcessingMetrics } from '../processing.metrics.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import { JobEvents, type WaitOutcome } from './job-events.js';
import { jobCommandOf, operationOfRequest } from './job-command.js';
import type { JobPipeline, Submission } from './job-pipeline.js';
import { usageEvent } from './job-usage-event.js';
import { type JobRecord, ProcessingError, toProcessingError } from './job.types.js';
import { JobsRepository } from './jobs.repository.js';
import { RunningJobs } from './running-jobs.js';
import { syncTimeoutError } from './sync-timeout.js';

/** Writes that commit in the same transaction as a job's outcome (e.g. a dispatch row's removal). */
export type AlsoInTransaction = (tx: Transaction) => Promise<void>;

/**
 * The job plumbing shared by every kind of processing job. Submission checks the inputs,
 * passes the admission cap (503 QUEUE_FULL before any job exists), commits the job row (the
 * durable record) and then adds its command to the queue (QueuePort: no transaction
 * crosses it; JobReconciler re-adds a job a crash left without one). Sync requests wait for
 * their job up to SYNC_TIMEOUT_MS. A worker runs the kind's pipeline; completion, the usage
 * event (outbox) and the webhook delivery rows commit in one transaction: exactly one usage
 * event per completed job, none for failed or cancelled ones, whatever re-runs a command
 * (a job no longer queued or running is never started again).
 */
@Injectable()
export class JobRunner {
  private readonly logger = new Logger(JobRunner.name);
  private readonly pipelines = new Map<string, JobPipeline<unknown>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DuckDbService,
    private readonly jobs: JobsRepository,
    @Inject(QUEUE) private readonly queue: QueuePort,
    private readonly workers: QueueWorkers,
    private readonly events: JobEvents,
    private readonly inputs: InputResolver,
    private readonly outbox: UsageOutboxRepository,
    private readonly relay: UsageOutboxRelay,
    private readonly webhooks: WebhooksService,
    private readonly admission: AdmissionService,
    private readonly running: RunningJobs,
    private readonly metrics: ProcessingMetrics,
  ) {}

  /** Takes the pipeline's job commands from the queue. */
  register<Outcome>(pipeline: JobPipeline<Outcome>): void {
    this.pipelines.set(pipeline.taskKind, pipeline as JobPipeline<unknown>);
    this.queue.work(
      commandType(pipeline.taskKind, RunJobCommand),
      (work) => this.handle(pipeline, work.payload.jobId),
      {
        exhausted: (work, reason) =>
          this.finishFailed(work.payload.jobId, new ProcessingError('INTERRUPTED', reason, 500)),
      },
    );
  }

  /**
   * The registered pipeline of a task kind: the new queue system's results consumer records
   * a worker's outcome with it, as a legacy worker does.
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
    try {
      await this.inputs.precheck(principal.orgId, submission.request.input);
    } catch (error) {
      if (error instanceof ProcessingError)
        throw new ApiError(error.status as HttpStatus, error.code, error.message);
      throw error;
    }
    if (submission.isAsync) {
      const asyncConfig = submission.request.async as
        { webhook?: WebhookConfig | null } | undefined;
      await this.webhooks.assertSubmittable(asyncConfig?.webhook);
    }
    const admitted = await this.admission.admit({
      queue: 'cpu',
      lane: submission.lane,
      sync: submission.gated,
    });
    const jobId = randomUUID();
    // The admitted slot stays reserved until the task is counted where it waits (the
    // database queue's row, or the Redis add).
    const queued = (async () => {
      await this.db.transaction(async (tx) => {
        await this.jobs.insert(tx, {
          jobId,
          orgId: principal.orgId,
          apiKeyId: principal.keyId,
          type: submission.type,
          isAsync: submission.isAsync,
          request: submission.request,
          metadata: submission.isAsync ? submission.metadata : undefined,
          persistResult: submission.persistResult,
        });
      });
      onCommitted?.(jobId);
      const type = commandType(pipeline.taskKind, RunJobCommand);
      const operation = operationOfRequest(submission.request);
      try {
        await this.queue.add(command(type, { jobId, operation }), {
          queue: 'cpu',
          lane: submission.lane,
          // A sync job's caller is gone after a restart: it is not retried (see JobReconciler).
          maxAttempts: submission.isAsync ? this.config.processing.jobMaxAttempts : 1,
          deep: isDeepWork(submission.type, submission.request),
        });
      } catch (error) {
        // Not queued anywhere: the job is removed, the request fails (e.g. 503).
        await this.db.transaction((tx) => this.jobs.delete(tx, jobId));
        this.events.finished(jobId);
        throw error;
      }
    })();
    await queued.finally(admitted);
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
  ): Promise<Record<string, unknown>> {
    const timeoutMs = this.config.processing.syncTimeoutMs;
    let waited: Promise<WaitOutcome> = Promise.resolve('finished');
    // The wait starts before the command is queued, so no finish signal is missed.
    const jobId = await this.submit(pipeline, principal, submission, (id) => {
      waited = this.events.waitFor(id, signal, timeoutMs);
    });
    const outcome = await waited;
    const job = await this.jobs.find(jobId);
    if (!job) throw ApiError.notFound('JOB_NOT_FOUND', 'The job was deleted');
    if (job.state === 'completed') return pipeline.syncResult?.(job) ?? job.result ?? {};
    if (job.state === 'cancelled')
      throw new ApiError(HttpStatus.CONFLICT, 'JOB_CANCELLED', 'The job was cancelled');
    if (job.state === 'failed') {
      throw (
        pipeline.syncFailure?.(job) ??
        new ApiError(
          (job.errorStatus ?? 500) as HttpStatus,
          job.errorCode ?? 'PROCESSING_FAILED',
          job.reason ?? 'Processing failed',
          { job_id: jobId },
        )
      );
    }
    if (outcome === 'timeout') throw syncTimeoutError(jobId, timeoutMs);
    if (outcome === 'aborted' && (await this.cancelUnstarted(jobId))) {
      throw new ApiError(HttpStatus.CONFLICT, 'JOB_CANCELLED', 'The client went away');
    }
    // Woken by shutdown (or the client left) with the job unfinished.
    throw new ApiError(
      HttpStatus.SERVICE_UNAVAILABLE,
      'SHUTTING_DOWN',
      'The service is shutting down',
      { job_id: jobId },
    );
  }

  /**
   * A sync job whose client disconnected before it started is cancelled: it never runs and
   * is not billed. One already running completes and is billed once, as its work was done.
   */
  private async cancelUnstarted(jobId: string): Promise<boolean> {
    const cancelled = await this.db.transaction(async (tx) => {
      const job = await this.jobs.find(jobId, tx);
      if (job?.state !== 'queued') return false;
      await this.jobs.markCancelled(tx, jobId);
      return true;
    });
    if (cancelled) this.events.finished(jobId);
    return cancelled;
  }

  // ---- the cpu task -----------------------------------------------------------------------

  private async handle<Outcome>(pipeline: JobPipeline<Outcome>, jobId: string): Promise<void> {
    if (!(await this.jobs.markRunning(jobId))) {
      await this.discard(jobId);
      return;
    }
    const job = (await this.jobs.find(jobId))!;
    let outcome: Outcome;
    const signal = this.running.start(jobId);
    try {
      const { request } = jobCommandOf(job.request);
      const documents = await this.inputs.resolve(job.orgId, request.input);
      // Cancelled while its inputs were fetched: the work does not start.
      signal.throwIfAborted();
      outcome = await pipeline.run(job, documents, signal);
    } catch (error) {
      if (this.workers.stopping) throw error;
      if (signal.aborted) {
        // POST /cancel ended the task: recorded as cancelled (cancel_requested is set).
        await this.finishFailed(
          jobId,
          new ProcessingError('JOB_CANCELLED', 'The job was cancelled', 409),
        );
        return;
      }
      const mapped = toProcessingError(error);
      if (!(mapped instanceof ProcessingError))
        this.logger.error({ err: error, jobId, kind: pipeline.taskKind }, 'job failed');
      const failure =
        mapped instanceof ProcessingError
          ? mapped
          : new ProcessingError(
              'PROCESSING_FAILED',
              'Internal error while processing the document',
              500,
            );
      await this.finishFailed(jobId, failure);
      return;
    } finally {
      this.running.finish(jobId);
    }
    await this.finishCompleted(pipeline, job, outcome);
  }

  /**
   * A job that cannot start (cancelled, deleted or finished while its command waited): a
   * cancellation requested meanwhile is recorded.
   */
  async discard(jobId: string, also?: AlsoInTransaction): Promise<void> {
    await this.db.transaction(async (tx) => {
      const job = await this.jobs.find(jobId, tx);
      if (job && job.cancelRequested && (job.state === 'queued' || job.state === 'running')) {
        await this.jobs.markCancelled(tx, jobId);
      }
      await also?.(tx);
    });
    this.events.finished(jobId);
  }

  /** Public for the new queue system's results consumer (issue 6). */
  async finishCompleted<Outcome>(
    pipeline: JobPipeline<Outcome>,
    started: JobRecord,
    outcome: Outcome,
    also?: AlsoInTransaction,
  ): Promise<void> {
    const jobId = started.jobId;
    const deliveries = await this.db.transaction(async (tx) => {
      await also?.(tx);
      const job = await this.jobs.find(jobId, tx);
      if (!job || job.state !== 'running') return [];
      if (job.cancelRequested) {
        // Cancelled while running: the result is discarded, not billed, no webhook.
        await this.jobs.markCancelled(tx, jobId);
        this.metrics.jobFinished(job.type, 'cancelled', job.createdAt);
        return [];
      }
      const billing = pipeline.billing(job, outcome);
      const credits = await this.outbox.credits(
        tx,
        billing.product,
        billing.feature,
        billing.pages,
      );
      const duration = (Date.now() - job.createdAt.getTime()) / 1000;
      const result = pipeline.result(job, outcome, credits, duration);
      await this.jobs.markCompleted(tx, jobId, result, billing.pages, billing.totalPages);
      await this.outbox.insert(tx, usageEvent(job, billing, credits));
      const scheduled = await this.webhooks.scheduleForJob(tx, job, 'Completed');
      this.metrics.jobFinished(job.type, 'completed', job.createdAt);
      return scheduled;
    });
    this.afterFinish(jobId, deliveries);
  }

  /** Public for the new queue system's results consumer (issue 6). */
  async finishFailed(
    jobId: string,
    failure: ProcessingError,
    also?: AlsoInTransaction,
  ): Promise<void> {
    const deliveries = await this.db.transaction(async (tx) => {
      await also?.(tx);
      let scheduled: string[] = [];
      const job = await this.jobs.find(jobId, tx);
      if (job && (job.state === 'queued' || job.state === 'running')) {
        if (job.cancelRequested) {
          await this.jobs.markCancelled(tx, jobId);
          this.metrics.jobFinished(job.type, 'cancelled', job.createdAt);
        } else {
          await this.jobs.markFailed(tx, jobId, failure.code, failure.message, failure.status);
          scheduled = await this.webhooks.scheduleForJob(tx, job, 'Failed');
          this.metrics.jobFinished(job.type, 'failed', job.createdAt);
        }
      }
      return scheduled;
    });
    this.afterFinish(jobId, deliveries);
  }

  /** `deliveries`: webhook deliveries the finish committed, queued now (after the commit). */
  private afterFinish(jobId: string, deliveries: string[]): void {
    this.events.finished(jobId);
    this.relay.kick();
    if (deliveries.length > 0) void this.webhooks.dispatch(deliveries);
  }
}
