import { Inject, Injectable, Logger } from '@nestjs/common';
import { STORAGE_FULL } from '../../common/http/storage-full.js';
import { isStoreFailure } from '../../database/store-failure.js';
import { InputResolver } from '../inputs/input-resolver.service.js';
import { LegacyWorkers } from '../queue/db/legacy-workers.service.js';
import { commandOfJob } from '../operations/job-command.js';
import { JobInputStage } from './job-input.stage.js';
import { JobOutcomeRecorder } from './job-outcome.recorder.js';
import type { JobPipeline } from './job-pipeline.js';
import { ProcessingError, toProcessingError } from '../core/processing-error.js';
import { JobsRepository } from './jobs.repository.js';
import { RunningJobs } from './running-jobs.js';

/** What the executor asks of this process's workers: whether shutdown began. */
export interface WorkerShutdown {
  /** True once shutdown began: a failure it causes is not the job's (LegacyWorkers). */
  readonly stopping: boolean;
}

/**
 * Runs one job command on a worker of this process: a job whose URL inputs are not
 * downloaded goes back to the JobInputStage (a restart lost them) without holding the
 * worker; otherwise starts the job (a job no longer queued or running is never started
 * again), reads its inputs (downloads and uploads, from files), runs its pipeline
 * (cancellable through RunningJobs) and records the outcome. An error is mapped to the
 * job's failure; one caused by shutdown is rethrown so the queue keeps the task for the
 * next start.
 */
@Injectable()
export class JobExecutor {
  private readonly logger = new Logger(JobExecutor.name);

  constructor(
    private readonly jobs: JobsRepository,
    private readonly inputs: InputResolver,
    private readonly running: RunningJobs,
    private readonly outcomes: JobOutcomeRecorder,
    private readonly inputStage: JobInputStage,
    @Inject(LegacyWorkers) private readonly shutdown: WorkerShutdown,
  ) {}

  async execute<Outcome>(pipeline: JobPipeline<Outcome>, jobId: string): Promise<void> {
    const queued = await this.jobs.find(jobId);
    // Downloads lost to a restart (or never made): made again without holding this worker.
    if (queued?.state === 'queued' && (await this.inputStage.pending(queued))) {
      this.inputStage.start(queued, pipeline.taskKind);
      return;
    }
    if (!(await this.jobs.markRunning(jobId))) {
      await this.outcomes.discarded(jobId);
      return;
    }
    const job = (await this.jobs.find(jobId))!;
    let outcome: Outcome;
    const signal = this.running.start(jobId);
    try {
      const { request } = commandOfJob(job);
      const documents = await this.inputs.resolve(job.orgId, request.input, jobId);
      // Cancelled while its inputs were fetched: the work does not start.
      signal.throwIfAborted();
      outcome = await pipeline.run(job, documents, signal);
    } catch (error) {
      // Cut by shutdown or by a failed store: not the job's failure; it runs again after
      // the restart (its task stays claimed and is re-queued at the next start).
      if (this.shutdown.stopping || isStoreFailure(error)) throw error;
      await this.outcomes.failed(jobId, this.failureOf(error, signal, jobId, pipeline.taskKind));
      return;
    } finally {
      this.running.finish(jobId);
    }
    await this.outcomes.completed(pipeline, job, outcome);
  }

  private failureOf(
    error: unknown,
    signal: AbortSignal,
    jobId: string,
    kind: string,
  ): ProcessingError {
    // POST /cancel ended the task: recorded as cancelled (cancel_requested is set).
    if (signal.aborted) return new ProcessingError('JOB_CANCELLED', 'The job was cancelled', 409);
    const mapped = toProcessingError(error);
    if (mapped instanceof ProcessingError) {
      // The operator's to mend, as an upload meeting a full volume is logged.
      if (mapped.code === STORAGE_FULL) {
        this.logger.error(
          { err: error, jobId, kind },
          'out of disk space: job failed STORAGE_FULL',
        );
      }
      return mapped;
    }
    this.logger.error({ err: error, jobId, kind }, 'job failed');
    return new ProcessingError(
      'PROCESSING_FAILED',
      'Internal error while processing the document',
      500,
    );
  }
}
