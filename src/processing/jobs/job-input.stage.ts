import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { InputDownloads, urlInputs } from '../inputs/input-downloads.js';
import type { ClassifyInputValue } from '../inputs/input-resolver.service.js';
import { StagedInputs } from '../inputs/staged-inputs.js';
import { QUEUE, type QueuePort } from '../queue/queue-port.js';
import { LegacyWorkers } from '../queue/db/legacy-workers.service.js';
import { JobEvents } from './job-events.js';
import { JobOutcomeRecorder } from './job-outcome.recorder.js';
import { jobAddOptions, jobCommand } from './job-queueing.js';
import { type JobRecord } from '../core/job.types.js';
import { ProcessingError, toProcessingError } from '../core/processing-error.js';
import { JobsRepository } from './jobs.repository.js';
import { SyncRequestDrain } from './sync-request-drain.js';

/** What the stage needs of a job: the stored request's input, lane and kind fields. */
type StagedJob = Pick<JobRecord, 'jobId' | 'orgId' | 'type' | 'request' | 'isAsync'>;

/**
 * The io stage before a job's cpu stage: a job with URL inputs downloads them first
 * (InputDownloads: per organization, within a deadline, streamed to files) and only then is
 * its command added to the cpu queue, so a slow server never holds a cpu worker and one
 * organization's slow inputs never stand in another's way. A job whose downloads were lost
 * (a restart) is sent back here by the JobExecutor when a cpu worker takes it. Downloads
 * are removed when their job finishes, and at start for jobs that are no longer waiting.
 */
@Injectable()
export class JobInputStage implements OnModuleDestroy {
  private readonly logger = new Logger(JobInputStage.name);
  private readonly downloading = new Map<string, AbortController>();
  private stopping = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly downloads: InputDownloads,
    private readonly staged: StagedInputs,
    @Inject(QUEUE) private readonly queue: QueuePort,
    private readonly outcomes: JobOutcomeRecorder,
    private readonly jobs: JobsRepository,
    private readonly drain: SyncRequestDrain,
    events: JobEvents,
    workers: LegacyWorkers,
  ) {
    // Finished, cancelled or deleted: its downloads stop and their files go.
    events.onFinished((jobId) => {
      this.downloading
        .get(jobId)
        ?.abort(new ProcessingError('JOB_CANCELLED', 'The job ended', 409));
      void this.staged.remove(jobId).catch(() => undefined);
    });
    workers.onStartup({ afterRecovery: () => this.sweep() });
  }

  /** Whether the job has URL inputs that are not downloaded (yet, or any more). */
  async pending(job: Pick<JobRecord, 'jobId' | 'request'>): Promise<boolean> {
    if (!this.needsDownloads(job.request)) return false;
    return (await this.staged.names(job.jobId)) === null;
  }

  /** Whether the stored request has URL inputs this stage downloads (INPUT_DOWNLOADS). */
  needsDownloads(request: Record<string, unknown>): boolean {
    if (this.config.processing.inputDownloads !== 'before_queue') return false;
    return urlInputs(request.input as ClassifyInputValue).length > 0;
  }

  /**
   * Downloads the job's URL inputs in the background, then adds its command (`kind`) to the
   * cpu queue; a failed download fails the job. `release` is called once the command is
   * counted in the queue, or the job has failed (the admission slot it held).
   */
  start(job: StagedJob, kind: string, release?: () => void): void {
    if (this.downloading.has(job.jobId)) {
      release?.();
      return;
    }
    const controller = new AbortController();
    this.downloading.set(job.jobId, controller);
    void this.run(job, kind, controller.signal).finally(() => {
      this.downloading.delete(job.jobId);
      release?.();
    });
  }

  private async run(job: StagedJob, kind: string, signal: AbortSignal): Promise<void> {
    const input = job.request.input as ClassifyInputValue;
    try {
      await this.downloads.download(job.jobId, job.orgId, input, signal);
      await this.queue.add(
        jobCommand(kind, job),
        jobAddOptions(job, this.config.processing.jobMaxAttempts),
      );
    } catch (error) {
      // Shutdown: the job keeps waiting and is queued again at the next start.
      if (this.stopping) return;
      await this.outcomes.failed(job.jobId, failureOf(error)).catch((e: unknown) => {
        this.logger.error({ err: e, jobId: job.jobId }, 'could not record a failed download');
      });
    }
  }

  /** Downloads of jobs no longer queued (finished while this process was down) are removed. */
  private async sweep(): Promise<void> {
    for (const jobId of await this.staged.jobIds()) {
      const job = await this.jobs.find(jobId).catch(() => null);
      if (job?.state !== 'queued' && job?.state !== 'running') {
        await this.staged.remove(jobId).catch(() => undefined);
      }
    }
  }

  /** Downloads of the sync requests in flight may finish during the drain; the rest stop. */
  async onModuleDestroy(): Promise<void> {
    await this.drain.drain();
    this.stopping = true;
    for (const controller of this.downloading.values()) controller.abort();
  }
}

function failureOf(error: unknown): ProcessingError {
  if (error instanceof ApiError) {
    return new ProcessingError(error.code, error.message, error.getStatus());
  }
  const mapped = toProcessingError(error);
  if (mapped instanceof ProcessingError) return mapped;
  const reason = error instanceof Error ? error.message : String(error);
  return new ProcessingError('INPUT_FETCH_FAILED', `Downloading the inputs failed: ${reason}`, 400);
}
