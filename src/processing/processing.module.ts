import multipart from '@fastify/multipart';
import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/app-config.js';
import { ClassifyController } from './classify-jobs/classify.controller.js';
import { ClassifyJobsService } from './classify-jobs/classify-jobs.service.js';
import { OperationExecutors } from './operations/operation-executors.js';
import { InputDocuments } from './inputs/input-documents.js';
import { InputDownloads } from './inputs/input-downloads.js';
import { InputResolver } from './inputs/input-resolver.service.js';
import { ParsedInputs } from './inputs/parsed-inputs.js';
import { JOB_LOOKUP } from './core/job-lookup.js';
import { JobsAsRoutable } from './jobs/jobs-as-routable.js';
import { ROUTABLE_JOBS } from './queue/redis/routable-jobs.port.js';
import { StagedInputs } from './inputs/staged-inputs.js';
import { JobInputStage } from './jobs/job-input.stage.js';
import { SafeFetcher } from './inputs/safe-fetcher.js';
import { RunningJobs } from './jobs/running-jobs.js';
import { JobEvents } from './jobs/job-events.js';
import { JobReconciler } from './jobs/job-reconciler.js';
import { JobExecutor } from './jobs/job-executor.js';
import { JobOutcomeRecorder } from './jobs/job-outcome.recorder.js';
import { JobResults } from './jobs/job-results.js';
import { JobRunner } from './jobs/job-runner.service.js';
import { SubmissionGate } from './jobs/submission-gate.js';
import { SyncRequestDrain } from './jobs/sync-request-drain.js';
import { AdmissionService } from './admission/admission.service.js';
import { JobResultController, JobsController } from './jobs/jobs.controller.js';
import { JobsRepository } from './jobs/jobs.repository.js';
import { JobHistoryRepository } from './jobs/job-history.repository.js';
import { SyncJobRecoveryRepository } from './jobs/sync-job-recovery.repository.js';
import { JobsService } from './jobs/jobs.service.js';
import { UsageOutboxRelay } from './outbox/usage-outbox.relay.js';
import { UsageOutboxRepository } from './outbox/usage-outbox.repository.js';
import { DatabaseQueue } from './queue/db/database-queue.js';
import { QUEUE } from './queue/queue-port.js';
import { LegacyWorkers } from './queue/db/legacy-workers.service.js';
import { RolloutRoutingStrategy } from './queue/rollout-routing.strategy.js';
import { installJsonBodyParser } from './requests/json-body.parser.js';
import { presignedPutPlugin } from './upload/presigned-put.plugin.js';
import { ProcessingSecretsRepository } from './upload/processing-secrets.repository.js';
import { UploadController } from './upload/upload.controller.js';
import { UploadService } from './upload/upload.service.js';
import { StorageQuota } from './upload/storage-quota.js';
import { OrphanSweeper } from './storage/orphan-sweeper.js';
import { UploadsRepository } from './upload/uploads.repository.js';
import { UrlSigner } from './upload/url-signer.service.js';
import { ConfigureWebhookController } from './webhooks/configure-webhook.controller.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';
import { WebhooksRepository } from './webhooks/webhooks.repository.js';
import { WebhooksService } from './webhooks/webhooks.service.js';
import { UsageAlertWebhookRelay } from './webhooks/usage-alert-webhook.relay.js';
import { ProcessingMetrics } from './processing.metrics.js';
import { DocumentOperationsController } from './document-operations/document-operations.controller.js';
import { EditController } from './document-operations/edit.controller.js';
import { OperationJobsService } from './document-operations/operation-jobs.service.js';
import { PipelineJobsService } from './pipelines/pipeline-jobs.service.js';
import { PipelineRunController, PipelinesController } from './pipelines/pipelines.controller.js';
import { PipelinesRepository } from './pipelines/pipelines.repository.js';
import { PipelinesService } from './pipelines/pipelines.service.js';
import { AccountsModule } from '../accounts/accounts.module.js';
import { UsageModule } from '../usage/usage.module.js';
import { RedisQueueModule } from './queue/redis/redis-queue.module.js';
import { QueueStatus } from './queue/queue-status.js';
import { VersionsModule } from './versions/versions.module.js';

const PROCESSING_ROUTES =
  /^\/(classify|classify_async|parse|parse_async|extract|extract_async|split|split_async|job|jobs|cancel|upload|webhooks)(\/|\?|$)/;

/**
 * The processing plane: classify endpoints, the job store, the database queue and its
 * workers, uploads and input fetching, webhooks and the usage outbox.
 */
@Module({
  imports: [AccountsModule, UsageModule, RedisQueueModule, VersionsModule],
  controllers: [
    ClassifyController,
    JobsController,
    JobResultController,
    UploadController,
    WebhooksController,
    ConfigureWebhookController,
    DocumentOperationsController,
    EditController,
    PipelinesController,
    PipelineRunController,
  ],
  providers: [
    // Rollout routing between the database queue and the new (BullMQ) queue.
    { provide: QUEUE, useClass: RolloutRoutingStrategy },
    DatabaseQueue,
    JobReconciler,
    // The executors of every kind of job (classify, parse, extract, split, edit, pipelines).
    OperationExecutors,
    LegacyWorkers,
    QueueStatus,
    JobEvents,
    RunningJobs,
    JobsRepository,
    JobHistoryRepository,
    SyncJobRecoveryRepository,
    JobsService,
    JobRunner,
    SubmissionGate,
    SyncRequestDrain,
    AdmissionService,
    JobExecutor,
    JobOutcomeRecorder,
    JobResults,
    ClassifyJobsService,
    OperationJobsService,
    PipelinesRepository,
    PipelinesService,
    PipelineJobsService,
    InputResolver,
    InputDocuments,
    ParsedInputs,
    { provide: JOB_LOOKUP, useExisting: JobsRepository },
    JobsAsRoutable,
    { provide: ROUTABLE_JOBS, useExisting: JobsAsRoutable },
    InputDownloads,
    StagedInputs,
    JobInputStage,
    SafeFetcher,
    UploadsRepository,
    UploadService,
    StorageQuota,
    OrphanSweeper,
    ProcessingSecretsRepository,
    UrlSigner,
    WebhooksRepository,
    WebhooksService,
    UsageAlertWebhookRelay,
    UsageOutboxRepository,
    UsageOutboxRelay,
    ProcessingMetrics,
  ],
  exports: [
    RedisQueueModule,
    QueueStatus,
    VersionsModule,
    QUEUE,
    LegacyWorkers,
    JobsService,
    ClassifyJobsService,
    JobRunner,
    JobOutcomeRecorder,
    JobResults,
    JobsRepository,
    JobEvents,
    RunningJobs,
  ],
})
export class ProcessingModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly uploads: UploadService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Fastify-level pieces: 422 for bad JSON, multipart uploads, the presigned PUT route. */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    installJsonBodyParser(fastify, (url) => PROCESSING_ROUTES.test(url), {
      maxDepth: this.config.processing.jsonMaxDepth,
      metadataMaxDepth: this.config.processing.asyncMetadataMaxDepth,
      metadataMaxBytes: this.config.processing.asyncMetadataMaxBytes,
    });
    void fastify.register(multipart, {
      limits: { fileSize: this.config.processing.maxUploadBytes, files: 1 },
    });
    void fastify.register(presignedPutPlugin(this.uploads));
  }
}
