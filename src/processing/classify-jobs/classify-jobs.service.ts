import { randomUUID } from 'node:crypto';
import { HttpStatus, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { ApiError } from '../../common/api-error.js';
import { RequestValidationError } from '../../common/validation-error.js';
import { AdmissionService } from '../../operations/admission/admission.service.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import {
  USAGE_EVENT_SOURCE_PROCESSING,
  USAGE_EVENT_TYPE,
  UsageCloudEvent,
} from '../../usage/usage-event.js';
import { ClassifyInputValue, InputResolver } from '../inputs/input-resolver.service.js';
import { JobEvents } from '../jobs/job-events.js';
import { JobRecord, ProcessingError } from '../jobs/job.types.js';
import { JobsRepository } from '../jobs/jobs.repository.js';
import { JobsService } from '../jobs/jobs.service.js';
import { syncTimeoutError } from '../jobs/sync-timeout.js';
import { UsageOutboxRelay } from '../outbox/usage-outbox.relay.js';
import { UsageOutboxRepository } from '../outbox/usage-outbox.repository.js';
import {
  type Lane,
  QUEUE_DRIVER,
  type QueueDriver,
  type QueueTask,
} from '../queue/queue-driver.js';
import { QueueWorkers, TaskHandler } from '../queue/queue-workers.service.js';
import type { ClassifyConfigDto } from '../requests/classify-config.dto.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import {
  CLASSIFICATION_RUNNER,
  type ClassificationOutcome,
  type ClassificationRunner,
  groupOf,
} from './classification-runner.js';
import { buildClassifyResult } from './classify-result.js';
import { PAGE_RANGE_INVALID } from './pooled-classification.runner.js';

export const CLASSIFY_TASK = 'classify';

interface ClassifyPayload {
  jobId: string;
}

/** Lane of a request: batch when asked, else priority/standard per the spec's two flags. */
export function laneFor(config: ClassifyConfigDto, isAsync: boolean): Lane {
  if (config.queue_priority === 'batch') return 'batch';
  const priority = isAsync ? config.async.priority : config.priority;
  return priority ? 'priority' : 'standard';
}

function apiErrorOf(error: ProcessingError): ApiError {
  return new ApiError(error.status as HttpStatus, error.code, error.message);
}

/**
 * Classification jobs: submission (sync waits for its job, async returns the id) and the
 * cpu-queue task that runs the pipeline. Completion, the usage event (outbox) and the
 * webhook deliveries commit in one transaction: exactly one usage event per completed job,
 * none for failed or cancelled ones.
 */
@Injectable()
export class ClassifyJobsService implements TaskHandler<ClassifyPayload>, OnModuleInit {
  readonly kind = CLASSIFY_TASK;
  private readonly logger = new Logger(ClassifyJobsService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DuckDbService,
    private readonly jobs: JobsRepository,
    private readonly jobsService: JobsService,
    @Inject(QUEUE_DRIVER) private readonly queue: QueueDriver,
    private readonly workers: QueueWorkers,
    private readonly events: JobEvents,
    private readonly inputs: InputResolver,
    @Inject(CLASSIFICATION_RUNNER) private readonly runner: ClassificationRunner,
    private readonly outbox: UsageOutboxRepository,
    private readonly relay: UsageOutboxRelay,
    private readonly webhooks: WebhooksService,
    private readonly admission: AdmissionService,
  ) {}

  onModuleInit(): void {
    this.workers.register(this);
  }

  // ---- submission -------------------------------------------------------------------------

  private async submit(
    principal: ProcessingPrincipal,
    config: ClassifyConfigDto,
    isAsync: boolean,
  ): Promise<string> {
    try {
      await this.inputs.precheck(principal.orgId, config.input);
    } catch (error) {
      if (error instanceof ProcessingError) throw apiErrorOf(error);
      throw error;
    }
    // Issue 6: the queue admission cap refuses before any job exists (503 QUEUE_FULL).
    const admitted = await this.admission.admit({
      queue: 'cpu',
      lane: laneFor(config, isAsync),
      sync: !isAsync,
    });
    const jobId = randomUUID();
    const request = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
    const committed = this.db.transaction(async (tx) => {
      await this.jobs.insert(tx, {
        jobId,
        orgId: principal.orgId,
        apiKeyId: principal.keyId,
        type: 'Classify',
        isAsync,
        request,
        metadata: isAsync ? config.async.metadata : undefined,
        persistResult: config.persist_results,
      });
      await this.queue.enqueue<ClassifyPayload>(
        'cpu',
        CLASSIFY_TASK,
        { jobId },
        {
          lane: laneFor(config, isAsync),
          maxAttempts: isAsync ? this.config.processing.jobMaxAttempts : 1,
        },
        tx,
      );
    });
    await committed.finally(admitted);
    return jobId;
  }

  async submitAsync(
    principal: ProcessingPrincipal,
    config: ClassifyConfigDto,
  ): Promise<{ job_id: string }> {
    const jobId = await this.submit(principal, config, true);
    this.workers.notify('cpu');
    return { job_id: jobId };
  }

  /** Sync: the same pipeline through the queue (priority lane by default), awaited. */
  async runSync(
    principal: ProcessingPrincipal,
    config: ClassifyConfigDto,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const jobId = await this.submit(principal, config, false);
    const timeoutMs = this.config.processing.syncTimeoutMs;
    const waited = this.events.waitFor(jobId, signal, timeoutMs);
    this.workers.notify('cpu');
    const outcome = await waited;
    const job = await this.jobs.find(jobId);
    if (!job) throw ApiError.notFound('JOB_NOT_FOUND', 'The job was deleted');
    if (outcome === 'timeout' && (job.state === 'queued' || job.state === 'running'))
      throw syncTimeoutError(jobId, timeoutMs);
    if (job.state === 'completed') return this.jobsService.resultView(job) ?? {};
    if (job.state === 'cancelled')
      throw new ApiError(HttpStatus.CONFLICT, 'JOB_CANCELLED', 'The job was cancelled');
    if (job.state === 'failed' && job.errorCode === PAGE_RANGE_INVALID) {
      throw new RequestValidationError([
        {
          loc: ['body', 'page_range'],
          msg: `Value error, ${job.reason}`,
          type: 'value_error',
          input: config.page_range,
          ctx: { error: job.reason },
        },
      ]);
    }
    if (job.state === 'failed') {
      throw new ApiError(
        (job.errorStatus ?? 500) as HttpStatus,
        job.errorCode ?? 'PROCESSING_FAILED',
        job.reason ?? 'Processing failed',
        { job_id: jobId },
      );
    }
    throw new ApiError(
      HttpStatus.SERVICE_UNAVAILABLE,
      'SHUTTING_DOWN',
      'The service is shutting down',
      {
        job_id: jobId,
      },
    );
  }

  // ---- the cpu task -----------------------------------------------------------------------

  async recover(): Promise<void> {
    const orphaned = await this.jobs.failOrphanedSyncJobs();
    if (orphaned.length)
      this.logger.warn(`failed ${orphaned.length} sync job(s) interrupted by a restart`);
  }

  async handle(task: QueueTask<ClassifyPayload>): Promise<void> {
    const { jobId } = task.payload;
    if (!(await this.jobs.markRunning(jobId))) {
      // Cancelled, deleted or already finished while queued: nothing to run.
      await this.db.transaction(async (tx) => {
        const job = await this.jobs.find(jobId, tx);
        if (job && job.cancelRequested && (job.state === 'queued' || job.state === 'running')) {
          await this.jobs.markCancelled(tx, jobId);
        }
        await this.queue.complete(task, tx);
      });
      this.events.finished(jobId);
      return;
    }
    const job = (await this.jobs.find(jobId))!;
    let outcome: ClassificationOutcome;
    try {
      const request = job.request as unknown as ClassifyConfigDto;
      const documents = await this.inputs.resolve(job.orgId, request.input as ClassifyInputValue);
      outcome = await this.runner.run({
        documents,
        classificationSchema: request.classification_schema,
        model: request.model,
        pageRange: request.page_range,
        documentMetadata: request.document_metadata,
        categoryGroups: request.category_groups,
      });
    } catch (error) {
      if (this.workers.stopping) throw error;
      const failure =
        error instanceof ProcessingError
          ? error
          : new ProcessingError(
              'PROCESSING_FAILED',
              'Internal error while classifying the document',
              500,
            );
      if (!(error instanceof ProcessingError))
        this.logger.error({ err: error, jobId }, 'classification failed');
      await this.finishFailed(task, failure);
      return;
    }
    await this.finishCompleted(task, job, outcome);
  }

  async exhausted(task: QueueTask<ClassifyPayload>, reason: string): Promise<void> {
    await this.finishFailed(task, new ProcessingError('INTERRUPTED', reason, 500), false);
  }

  /** Public for the new queue system's results consumer (issue 6). */
  async finishCompleted(
    task: QueueTask<ClassifyPayload>,
    started: JobRecord,
    outcome: ClassificationOutcome,
  ): Promise<void> {
    const jobId = started.jobId;
    await this.db.transaction(async (tx) => {
      const job = await this.jobs.find(jobId, tx);
      if (!job || job.state !== 'running') {
        await this.queue.complete(task, tx);
        return;
      }
      if (job.cancelRequested) {
        await this.jobs.markCancelled(tx, jobId);
        await this.queue.complete(task, tx);
        return;
      }
      const request = job.request as unknown as ClassifyConfigDto;
      const feature = request.model === 'accurate' ? 'deep_classify' : 'classify';
      const credits = await this.outbox.credits(tx, 'classify', feature, outcome.numPages);
      const grouping = request.category_groups
        ? (outcome.grouping ?? groupOf(outcome.category, request.category_groups))
        : undefined;
      const duration = (Date.now() - job.createdAt.getTime()) / 1000;
      const result = buildClassifyResult(jobId, outcome, credits, duration, grouping);
      await this.jobs.markCompleted(
        tx,
        jobId,
        result as unknown as Record<string, unknown>,
        outcome.numPages,
        outcome.totalPages,
      );
      await this.outbox.insert(tx, this.usageEvent(job, feature, outcome, credits));
      await this.webhooks.scheduleForJob(tx, job, 'Completed');
      await this.queue.complete(task, tx);
    });
    this.afterFinish(jobId);
  }

  async finishFailed(
    task: QueueTask<ClassifyPayload>,
    failure: ProcessingError,
    completeTask = true,
  ): Promise<void> {
    const jobId = task.payload.jobId;
    await this.db.transaction(async (tx) => {
      const job = await this.jobs.find(jobId, tx);
      if (job && (job.state === 'queued' || job.state === 'running')) {
        if (job.cancelRequested) {
          await this.jobs.markCancelled(tx, jobId);
        } else {
          await this.jobs.markFailed(tx, jobId, failure.code, failure.message, failure.status);
          await this.webhooks.scheduleForJob(tx, job, 'Failed');
        }
      }
      if (completeTask) await this.queue.complete(task, tx);
    });
    this.afterFinish(jobId);
  }

  private afterFinish(jobId: string): void {
    this.events.finished(jobId);
    this.relay.kick();
    this.workers.notify('io');
  }

  private usageEvent(
    job: JobRecord,
    feature: string,
    outcome: ClassificationOutcome,
    credits: string,
  ): UsageCloudEvent {
    const metadata =
      job.isAsync &&
      typeof job.metadata === 'object' &&
      job.metadata !== null &&
      !Array.isArray(job.metadata)
        ? (job.metadata as Record<string, unknown>)
        : null;
    return {
      specversion: '1.0',
      id: `evt_${job.jobId}`,
      source: USAGE_EVENT_SOURCE_PROCESSING,
      type: USAGE_EVENT_TYPE,
      time: new Date().toISOString(),
      datacontenttype: 'application/json',
      data: {
        orgId: job.orgId,
        apiKeyId: job.apiKeyId,
        product: 'classify',
        feature,
        fileType: outcome.fileType,
        pages: outcome.numPages,
        credits,
        jobId: job.jobId,
        async: job.isAsync,
        metadata,
      },
    };
  }
}
