import { Injectable } from '@nestjs/common';
import { DuckDbService, type Transaction } from '../../database/duckdb.service.js';
import { UsageOutboxRelay } from '../outbox/usage-outbox.relay.js';
import { UsageOutboxRepository } from '../outbox/usage-outbox.repository.js';
import { ProcessingMetrics } from '../processing.metrics.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import { JobEvents } from './job-events.js';
import { JobResults } from './job-results.js';
import type { JobPipeline } from './job-pipeline.js';
import { usageEvent } from './job-usage-event.js';
import type { JobRecord } from '../core/job.types.js';
import type { ProcessingError } from '../core/processing-error.js';
import { JobsRepository } from './jobs.repository.js';

/** Writes that commit in the same transaction as a job's outcome (e.g. a dispatch row's removal). */
type AlsoInTransaction = (tx: Transaction) => Promise<void>;

/**
 * How a job ends, wherever it ran (a database-queue worker of this process, or a Redis
 * worker whose report the results consumer applies). Completion, the usage event (outbox)
 * and the webhook delivery rows commit in one transaction: exactly one usage event per
 * completed job, none for failed or cancelled ones. Only a job still queued or running
 * changes, so recording the same outcome twice is harmless. After the commit, a sync
 * caller is woken, the outbox relay kicked and the deliveries queued.
 */
@Injectable()
export class JobOutcomeRecorder {
  constructor(
    private readonly db: DuckDbService,
    private readonly jobs: JobsRepository,
    private readonly results: JobResults,
    private readonly outbox: UsageOutboxRepository,
    private readonly relay: UsageOutboxRelay,
    private readonly webhooks: WebhooksService,
    private readonly events: JobEvents,
    private readonly metrics: ProcessingMetrics,
  ) {}

  async completed<Outcome>(
    pipeline: JobPipeline<Outcome>,
    started: JobRecord,
    outcome: Outcome,
    also?: AlsoInTransaction,
  ): Promise<void> {
    const jobId = started.jobId;
    const written = pipeline.written?.(outcome) ?? [];
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
      const charged = billing.charges
        ? await this.outbox.creditsOfCharges(tx, billing.product, billing.charges)
        : undefined;
      const credits =
        charged?.total ??
        (await this.outbox.credits(tx, billing.product, billing.feature, billing.pages));
      const duration = (Date.now() - job.createdAt.getTime()) / 1000;
      const result = pipeline.result(job, outcome, credits, duration, charged?.each);
      const stored = await this.results.save(jobId, result, written);
      const document = pipeline.document?.(job, outcome);
      const documentKey = document ? (await this.results.saveDocument(jobId, document)).key : null;
      await this.jobs.markCompleted(
        tx,
        jobId,
        stored,
        billing.pages,
        billing.totalPages,
        documentKey,
      );
      await this.outbox.insert(tx, usageEvent(job, billing, credits));
      const scheduled = await this.webhooks.scheduleForJob(tx, job, 'Completed');
      this.metrics.jobFinished(job.type, 'completed', job.createdAt);
      return scheduled;
    });
    // Taken into the stored result, or not needed (cancelled, finished already): the files
    // the executor wrote go. After a failed commit they stay for a second try (the Redis
    // results queue retries), or until the start-up sweep finds the job finished.
    await this.results.discardWritten(written);
    this.afterFinish(jobId, deliveries);
  }

  async failed(jobId: string, failure: ProcessingError, also?: AlsoInTransaction): Promise<void> {
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

  /**
   * A job that cannot start (cancelled, deleted or finished while its command waited): a
   * cancellation requested meanwhile is recorded.
   */
  async discarded(jobId: string, also?: AlsoInTransaction): Promise<void> {
    await this.db.transaction(async (tx) => {
      const job = await this.jobs.find(jobId, tx);
      if (job && job.cancelRequested && (job.state === 'queued' || job.state === 'running')) {
        await this.jobs.markCancelled(tx, jobId);
      }
      await also?.(tx);
    });
    this.events.finished(jobId);
  }

  /**
   * A sync job whose client disconnected before it started is cancelled: it never runs and
   * is not billed. One already running completes and is billed once, as its work was done.
   * Whether it was cancelled here.
   */
  async cancelledUnstarted(jobId: string): Promise<boolean> {
    const cancelled = await this.db.transaction(async (tx) => {
      const job = await this.jobs.find(jobId, tx);
      if (job?.state !== 'queued') return false;
      await this.jobs.markCancelled(tx, jobId);
      return true;
    });
    if (cancelled) this.events.finished(jobId);
    return cancelled;
  }

  /** A job whose command no queue took: removed, as if never submitted. */
  async withdrawn(jobId: string): Promise<void> {
    const files = await this.db.transaction((tx) => this.jobs.delete(tx, jobId));
    await this.results.remove(files);
    this.events.finished(jobId);
  }

  /** `deliveries`: webhook deliveries the finish committed, queued now (after the commit). */
  private afterFinish(jobId: string, deliveries: string[]): void {
    this.events.finished(jobId);
    this.relay.kick();
    if (deliveries.length > 0) void this.webhooks.dispatch(deliveries);
  }
}
