import { randomUUID } from 'node:crypto';
import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { ApiError } from '../../common/api-error.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { DuckDbService, type Transaction } from '../../database/duckdb.service.js';
import { AdmissionService } from '../admission/admission.service.js';
import { type ClassifyInputValue, InputResolver } from '../inputs/input-resolver.service.js';
import { UsageOutboxRelay } from '../outbox/usage-outbox.relay.js';
import { UsageOutboxRepository } from '../outbox/usage-outbox.repository.js';
import { QUEUE_DRIVER, type QueueDriver, type QueueTask } from '../queue/queue-driver.js';
import { isDeepWork } from '../queue/deep-work.js';
import { QueueWorkers, type TaskHandler } from '../queue/queue-workers.service.js';
import type { WebhookConfig } from '../requests/classify-config.dto.js';
import { ProcessingMetrics } from '../processing.metrics.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import { JobEvents } from './job-events.js';
import type { JobPayload, JobPipeline, Submission } from './job-pipeline.js';
import { usageEvent } from './job-usage-event.js';
import { type JobRecord, ProcessingError, toProcessingError } from './job.types.js';
import { JobsRepository } from './jobs.repository.js';
import { RunningJobs } from './running-jobs.js';
import { syncTimeoutError } from './sync-timeout.js';

/**
 * The job plumbing shared by every kind of processing job. Submission checks the inputs,
 * passes the admission cap (503 QUEUE_FULL before any job exists), then stores the job and
 * its cpu task in one transaction. Sync requests wait for their job up to SYNC_TIMEOUT_MS.
 * A worker runs the kind's pipeline; completion, the usage event (outbox) and the webhook
 * deliveries commit in one transaction: exactly one usage event per completed job, none
 * for failed or cancelled ones.
 */
@Injectable()
export class JobRunner {
  private readonly logger = new Logger(JobRunner.name);
  private readonly pipelines = new Map<string, JobPipeline<unknown>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DuckDbService,
    private readonly jobs: JobsRepository,
    @Inject(QUEUE_DRIVER) private readonly queue: QueueDriver,
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

  /** Registers the pipeline's task handler with this process's queue workers. */
  register<Outcome>(pipeline: JobPipeline<Outcome>): void {
    this.pipelines.set(pipeline.taskKind, pipeline as JobPipeline<unknown>);
    const handler: TaskHandler<JobPayload> = {
      kind: pipeline.taskKind,
      handle: (task) => this.handle(pipeline, task),
      exhausted: (task, reason) =>
        this.finishFailed(task, new ProcessingError('INTERRUPTED', reason, 500), false),
      recover: () => this.recover(),
    };
    this.workers.register(handler);
  }

  /**
   * The registered pipeline of a task kind: the new queue system's results consumer records
   * a worker's outcome with it, as a legacy worker does.
   */
  pipeline(kind: string): JobPipeline<unknown> | undefined {
    return this.pipelines.get(kind);
  }

  // ---- submission -------------------------------------------------------------------------

  private async submit(
    pipeline: JobPipeline<unknown>,
    principal: ProcessingPrincipal,
    submission: Submission,
  ): Promise<string> {
    try {
      await this.inputs.precheck(principal.orgId, submission.request.input as ClassifyInputValue);
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
    // The admitted slot stays reserved until the task is counted where it waits (committed
    // in the database queue, or added to Redis by `publish` after the commit).
    const queued = (async () => {
      const taskId = await this.db.transaction(async (tx) => {
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
        return this.queue.enqueue<JobPayload>(
          'cpu',
          pipeline.taskKind,
          { jobId },
          {
            lane: submission.lane,
            // A sync job's caller is gone after a restart: it is not retried (see recover).
            maxAttempts: submission.isAsync ? this.config.processing.jobMaxAttempts : 1,
            deep: isDeepWork(submission.type, submission.request),
          },
          tx,
        );
      });
      await this.queue.publish?.(taskId);
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
    this.workers.notify('cpu');
    return { job_id: jobId };
  }

  /** Sync: the same pipeline through the queue (priority lane by default), awaited. */
  async runSync(
    pipeline: JobPipeline<unknown>,
    principal: ProcessingPrincipal,
    submission: Submission,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const jobId = await this.submit(pipeline, principal, submission);
    const timeoutMs = this.config.processing.syncTimeoutMs;
    const waited = this.events.waitFor(jobId, signal, timeoutMs);
    this.workers.notify('cpu');
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

  /** Sync jobs whose request died with the previous process are failed, not retried. */
  private async recover(): Promise<void> {
    const orphaned = await this.jobs.failOrphanedSyncJobs();
    if (orphaned.length)
      this.logger.warn(`failed ${orphaned.length} sync job(s) interrupted by a restart`);
  }

  private async handle<Outcome>(
    pipeline: JobPipeline<Outcome>,
    task: QueueTask<JobPayload>,
  ): Promise<void> {
    const { jobId } = task.payload;
    if (!(await this.jobs.markRunning(jobId))) {
      await this.discard(jobId, (tx) => this.queue.complete(task, tx));
      return;
    }
    const job = (await this.jobs.find(jobId))!;
    let outcome: Outcome;
    const signal = this.running.start(jobId);
    try {
      const input = job.request.input as ClassifyInputValue;
      const documents = await this.inputs.resolve(job.orgId, input);
      // Cancelled while its inputs were fetched: the work does not start.
      signal.throwIfAborted();
      outcome = await pipeline.run(job, documents, signal);
    } catch (error) {
      if (this.workers.stopping) throw error;
      if (signal.aborted) {
        // POST /cancel ended the task: recorded as cancelled (cancel_requested is set).
        await this.finishFailed(
          task,
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
      await this.finishFailed(task, failure);
      return;
    } finally {
      this.running.finish(jobId);
    }
    await this.finishCompleted(pipeline, task, job, outcome);
  }

  /**
   * A job that cannot start (cancelled, deleted or finished while its task waited): a
   * cancellation requested meanwhile is recorded, `removeTask` drops the task.
   */
  async discard(jobId: string, removeTask: (tx: Transaction) => Promise<void>): Promise<void> {
    await this.db.transaction(async (tx) => {
      const job = await this.jobs.find(jobId, tx);
      if (job && job.cancelRequested && (job.state === 'queued' || job.state === 'running')) {
        await this.jobs.markCancelled(tx, jobId);
      }
      await removeTask(tx);
    });
    this.events.finished(jobId);
  }

  /** Public for the new queue system's results consumer (issue 6). */
  async finishCompleted<Outcome>(
    pipeline: JobPipeline<Outcome>,
    task: QueueTask<JobPayload>,
    started: JobRecord,
    outcome: Outcome,
  ): Promise<void> {
    const jobId = started.jobId;
    const deliveries = await this.db.transaction(async (tx) => {
      const job = await this.jobs.find(jobId, tx);
      if (!job || job.state !== 'running') {
        await this.queue.complete(task, tx);
        return 0;
      }
      if (job.cancelRequested) {
        // Cancelled while running: the result is discarded, not billed, no webhook.
        await this.jobs.markCancelled(tx, jobId);
        await this.queue.complete(task, tx);
        this.metrics.jobFinished(job.type, 'cancelled', job.createdAt);
        return 0;
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
      await this.queue.complete(task, tx);
      this.metrics.jobFinished(job.type, 'completed', job.createdAt);
      return scheduled;
    });
    this.afterFinish(jobId, deliveries);
  }

  /** Public for the new queue system's results consumer (issue 6). */
  async finishFailed(
    task: QueueTask<JobPayload>,
    failure: ProcessingError,
    completeTask = true,
  ): Promise<void> {
    const jobId = task.payload.jobId;
    const deliveries = await this.db.transaction(async (tx) => {
      let scheduled = 0;
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
      if (completeTask) await this.queue.complete(task, tx);
      return scheduled;
    });
    this.afterFinish(jobId, deliveries);
  }

  /** `deliveries`: webhook deliveries the finish scheduled; only then are io workers woken. */
  private afterFinish(jobId: string, deliveries: number): void {
    this.events.finished(jobId);
    this.relay.kick();
    if (deliveries > 0) this.workers.notify('io');
  }
}
