import { randomUUID } from 'node:crypto';
import {
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { ApiError } from '../../common/api-error.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import {
  USAGE_EVENT_SOURCE_PROCESSING,
  USAGE_EVENT_TYPE,
  type UsageCloudEvent,
} from '../../usage/usage-event.js';
import { toProcessingError } from '../classify-jobs/pooled-classification.runner.js';
import { type ClassifyInputValue, InputResolver } from '../inputs/input-resolver.service.js';
import { JobEvents } from '../jobs/job-events.js';
import { type JobRecord, type JobType, ProcessingError } from '../jobs/job.types.js';
import { JobsRepository } from '../jobs/jobs.repository.js';
import { syncTimeoutError } from '../jobs/sync-timeout.js';
import { UsageOutboxRelay } from '../outbox/usage-outbox.relay.js';
import { UsageOutboxRepository } from '../outbox/usage-outbox.repository.js';
import {
  type Lane,
  QUEUE_DRIVER,
  type QueueDriver,
  type QueueTask,
} from '../queue/queue-driver.js';
import { QueueWorkers, type TaskHandler } from '../queue/queue-workers.service.js';
import { validateExtractRequest } from '../extract/extract.runner.js';
import {
  resolveExtractVersions,
  resolveParseVersions,
  resolveSplitVersions,
} from '../versions/model-pins.js';
import { VersionRegistry } from '../versions/version-registry.service.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import type { OperationBaseDto } from './operation-requests.dto.js';
import { OperationPool } from './operation.pool.js';
import type { OperationOutcome, OperationTask } from './operation.task.js';

export const OPERATION_TASK = 'operation';
export type OperationKind = 'parse' | 'extract' | 'split';

const JOB_TYPES: Record<OperationKind, JobType> = {
  parse: 'Parse',
  extract: 'Extract',
  split: 'Split',
};

interface OperationPayload {
  jobId: string;
}

/** The request as stored with its job, plus the versions resolved at submission. */
type StoredRequest = Record<string, unknown> & {
  __kind: OperationKind;
  __versions: OperationTask['versions'];
};

function laneFor(config: OperationBaseDto, isAsync: boolean): Lane {
  if (config.queue_priority === 'batch') return 'batch';
  const priority = isAsync ? config.async.priority : config.priority;
  return priority ? 'priority' : 'standard';
}

/** Product and feature of a usage event: deep variants are their own features. */
function billingOf(kind: OperationKind, request: Record<string, unknown>): [OperationKind, string] {
  const settings = (request.settings ?? {}) as Record<string, unknown>;
  if (kind === 'extract')
    return ['extract', settings.deep_extract === true ? 'deep_extract' : 'extract'];
  if (kind === 'split') return ['split', settings.deep_split === true ? 'deep_split' : 'split'];
  return ['parse', 'parse'];
}

/**
 * Parse, extract and split jobs, on the same job store, cpu queue, outbox and webhooks as
 * classification: sync requests wait for their job, async ones return its id. Versions are
 * resolved (and pins checked) when the request is accepted and stored with the job, so a
 * queued job runs with what it was accepted with.
 */
@Injectable()
export class OperationJobsService
  implements TaskHandler<OperationPayload>, OnModuleInit, OnApplicationShutdown
{
  readonly kind = OPERATION_TASK;
  private readonly logger = new Logger(OperationJobsService.name);
  private readonly pool: OperationPool;

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
    private readonly registry: VersionRegistry,
    private readonly webhooks: WebhooksService,
  ) {
    this.pool = new OperationPool({ maxThreads: config.processing.cpuWorkerConcurrency });
  }

  onModuleInit(): void {
    this.workers.register(this);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }

  /** 422s for pins and the extract schema, before anything is stored or fetched. */
  private versionsFor(
    kind: OperationKind,
    body: Record<string, unknown>,
  ): OperationTask['versions'] {
    switch (kind) {
      case 'parse':
        return resolveParseVersions(body, this.registry);
      case 'extract':
        validateExtractRequest(body);
        return resolveExtractVersions(body, this.registry);
      case 'split':
        return resolveSplitVersions(body, this.registry);
    }
  }

  private async submit(
    kind: OperationKind,
    principal: ProcessingPrincipal,
    config: OperationBaseDto,
    isAsync: boolean,
  ): Promise<string> {
    const body = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
    const versions = this.versionsFor(kind, body);
    try {
      await this.inputs.precheck(principal.orgId, config.input);
    } catch (error) {
      if (error instanceof ProcessingError) {
        throw new ApiError(error.status as HttpStatus, error.code, error.message);
      }
      throw error;
    }
    const jobId = randomUUID();
    const request: StoredRequest = { ...body, __kind: kind, __versions: versions };
    await this.db.transaction(async (tx) => {
      await this.jobs.insert(tx, {
        jobId,
        orgId: principal.orgId,
        apiKeyId: principal.keyId,
        type: JOB_TYPES[kind],
        isAsync,
        request,
        metadata: isAsync ? config.async.metadata : undefined,
        persistResult: false,
      });
      await this.queue.enqueue<OperationPayload>(
        'cpu',
        OPERATION_TASK,
        { jobId },
        {
          lane: laneFor(config, isAsync),
          maxAttempts: isAsync ? this.config.processing.jobMaxAttempts : 1,
        },
        tx,
      );
    });
    return jobId;
  }

  async submitAsync(
    kind: OperationKind,
    principal: ProcessingPrincipal,
    config: OperationBaseDto,
  ): Promise<{ job_id: string }> {
    const jobId = await this.submit(kind, principal, config, true);
    this.workers.notify('cpu');
    return { job_id: jobId };
  }

  async runSync(
    kind: OperationKind,
    principal: ProcessingPrincipal,
    config: OperationBaseDto,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const jobId = await this.submit(kind, principal, config, false);
    const timeoutMs = this.config.processing.syncTimeoutMs;
    const waited = this.events.waitFor(jobId, signal, timeoutMs);
    this.workers.notify('cpu');
    const outcome = await waited;
    const job = await this.jobs.find(jobId);
    if (!job) throw ApiError.notFound('JOB_NOT_FOUND', 'The job was deleted');
    if (outcome === 'timeout' && (job.state === 'queued' || job.state === 'running'))
      throw syncTimeoutError(jobId, timeoutMs);
    if (job.state === 'completed') return job.result ?? {};
    if (job.state === 'cancelled') {
      throw new ApiError(HttpStatus.CONFLICT, 'JOB_CANCELLED', 'The job was cancelled');
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

  async handle(task: QueueTask<OperationPayload>): Promise<void> {
    const { jobId } = task.payload;
    if (!(await this.jobs.markRunning(jobId))) {
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
    let outcome: OperationOutcome;
    try {
      const request = job.request as StoredRequest;
      const documents = await this.inputs.resolve(job.orgId, request.input as ClassifyInputValue);
      outcome = await this.pool.run({
        kind: request.__kind,
        documents: documents.map((d) => ({ bytes: d.bytes, name: d.fileName })),
        request,
        versions: request.__versions,
      } as OperationTask);
    } catch (error) {
      if (this.workers.stopping) throw error;
      const mapped = toProcessingError(error);
      const failure =
        mapped instanceof ProcessingError
          ? mapped
          : new ProcessingError(
              'PROCESSING_FAILED',
              'Internal error while processing the document',
              500,
            );
      if (!(mapped instanceof ProcessingError))
        this.logger.error({ err: error, jobId }, 'operation failed');
      await this.finishFailed(task, failure);
      return;
    }
    await this.finishCompleted(task, job, outcome);
  }

  async exhausted(task: QueueTask<OperationPayload>, reason: string): Promise<void> {
    await this.finishFailed(task, new ProcessingError('INTERRUPTED', reason, 500), false);
  }

  /** The response body: the reductoai shape of each operation, plus `model_versions`. */
  private responseOf(
    kind: OperationKind,
    jobId: string,
    outcome: OperationOutcome,
    credits: number,
    duration: number,
  ): Record<string, unknown> {
    const usage = { ...outcome.usage, credits };
    const common = { job_id: jobId, duration, usage, model_versions: outcome.model_versions };
    if (kind === 'parse')
      return { ...common, result: outcome.result, pdf_url: null, studio_link: null };
    if (kind === 'extract') return { ...common, result: outcome.result, studio_link: null };
    return { ...common, result: outcome.result };
  }

  private async finishCompleted(
    task: QueueTask<OperationPayload>,
    started: JobRecord,
    outcome: OperationOutcome,
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
      const request = job.request as StoredRequest;
      const [product, feature] = billingOf(request.__kind, request);
      const pages = outcome.usage.num_pages;
      const credits = await this.outbox.credits(tx, product, feature, pages);
      const duration = (Date.now() - job.createdAt.getTime()) / 1000;
      const result = this.responseOf(request.__kind, jobId, outcome, Number(credits), duration);
      await this.jobs.markCompleted(tx, jobId, result, pages, outcome.document.totalPages);
      await this.outbox.insert(tx, this.usageEvent(job, product, feature, outcome, credits));
      await this.webhooks.scheduleForJob(tx, job, 'Completed');
      await this.queue.complete(task, tx);
    });
    this.afterFinish(jobId);
  }

  private async finishFailed(
    task: QueueTask<OperationPayload>,
    failure: ProcessingError,
    completeTask = true,
  ): Promise<void> {
    const jobId = task.payload.jobId;
    await this.db.transaction(async (tx) => {
      const job = await this.jobs.find(jobId, tx);
      if (job && (job.state === 'queued' || job.state === 'running')) {
        if (job.cancelRequested) await this.jobs.markCancelled(tx, jobId);
        else {
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
    product: OperationKind,
    feature: string,
    outcome: OperationOutcome,
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
        product,
        feature,
        fileType: outcome.document.fileType,
        pages: outcome.usage.num_pages,
        credits,
        jobId: job.jobId,
        async: job.isAsync,
        metadata,
      },
    };
  }
}
