import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { QUEUE, type QueuePort } from '../queue/queue-port.js';
import { LegacyWorkers } from '../queue/db/legacy-workers.service.js';
import type { JobPipeline } from './job-pipeline.js';
import { jobAddOptions, jobCommand } from './job-queueing.js';
import type { JobRecord, JobType } from '../core/job.types.js';
import { JobsRepository } from './jobs.repository.js';
import { SyncJobRecoveryRepository } from './sync-job-recovery.repository.js';

/**
 * What a restart owes the job store, before any worker claims. Sync jobs whose caller died
 * with the previous process are failed (not retried: nobody waits for them). A sync job
 * whose client a shutdown told to poll it (kept for polling) is not: it is finished like an
 * async one, its interrupted task retried and its lost one re-added. Async jobs
 * queued or running with no live task (committed, then the process died before their
 * command was added) are queued again: the job row is the durable record, the queue only
 * its reminder, so nothing accepted is lost. Re-running a job is safe: one no longer
 * queued or running is never started again, and its outcome commits once.
 */
@Injectable()
export class JobReconciler {
  private readonly logger = new Logger(JobReconciler.name);
  /** Job command kind by job type (JobPipeline.jobTypes). */
  private readonly kinds = new Map<JobType, string>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: JobsRepository,
    private readonly syncJobs: SyncJobRecoveryRepository,
    @Inject(QUEUE) private readonly queue: QueuePort,
    workers: LegacyWorkers,
  ) {
    workers.onStartup({
      beforeRecovery: () => this.failOrphanedSyncJobs(),
      afterRecovery: async () => {
        await this.requeueOrphans();
      },
    });
  }

  /** Looks after the jobs of a pipeline (called where the pipeline registers with JobRunner). */
  watch(pipeline: Pick<JobPipeline<unknown>, 'taskKind' | 'jobTypes'>): void {
    for (const type of pipeline.jobTypes) this.kinds.set(type, pipeline.taskKind);
  }

  async failOrphanedSyncJobs(): Promise<void> {
    const orphaned = await this.syncJobs.failOrphanedSyncJobs();
    if (orphaned.length)
      this.logger.warn(`failed ${orphaned.length} sync job(s) interrupted by a restart`);
    const retried = await this.syncJobs.allowRetriesOfKeptSyncJobs(
      [...new Set(this.kinds.values())],
      this.config.processing.jobMaxAttempts,
    );
    if (retried) this.logger.log(`${retried} sync job(s) kept for polling resume`);
  }

  async requeueOrphans(): Promise<number> {
    if (this.kinds.size === 0) return 0;
    const orphans = await this.jobs.withoutTask([...new Set(this.kinds.values())]);
    for (const job of orphans) {
      this.logger.warn({ jobId: job.jobId }, 'job left without a queued task; queued again');
      await this.requeue(job);
    }
    return orphans.length;
  }

  private async requeue(job: JobRecord): Promise<void> {
    const kind = this.kinds.get(job.type);
    if (!kind) return;
    await this.queue.add(
      jobCommand(kind, job),
      jobAddOptions(job, this.config.processing.jobMaxAttempts),
    );
  }
}
