import { Injectable } from '@nestjs/common';
import type { Counter, Histogram } from 'prom-client';
import { MetricsService } from '../common/metrics/metrics.service.js';

/** Seconds from a job's submission to its end: a sync classify (~1 s) to a long batch job. */
const JOB_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600];
/** Seconds of one webhook POST, up to WEBHOOK_TIMEOUT_MS's default (10 s) and past it. */
const DELIVERY_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

type JobOutcome = 'completed' | 'failed' | 'cancelled';
/** `delivered`; `retrying` (a failed attempt that will be retried); `failed` (given up). */
type DeliveryOutcome = 'delivered' | 'retrying' | 'failed';

/** Job and webhook-delivery metrics of the processing plane, under the `docproc_` prefix. */
@Injectable()
export class ProcessingMetrics {
  private readonly jobsFinished: Counter<'type' | 'outcome'>;
  private readonly jobDuration: Histogram<'type' | 'outcome'>;
  private readonly deliveries: Counter<'outcome'>;
  private readonly deliveryDuration: Histogram<'outcome'>;

  constructor(metrics: MetricsService) {
    this.jobsFinished = metrics.counter({
      name: 'docproc_jobs_finished_total',
      help: 'Jobs that reached an end state, by type (Classify, Parse, Extract, Split) and outcome',
      labelNames: ['type', 'outcome'],
    });
    this.jobDuration = metrics.histogram({
      name: 'docproc_job_duration_seconds',
      help: 'Seconds from submission to the end state, by type and outcome',
      labelNames: ['type', 'outcome'],
      buckets: JOB_BUCKETS,
    });
    this.deliveries = metrics.counter({
      name: 'docproc_webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts, by outcome (delivered, retrying, failed = given up)',
      labelNames: ['outcome'],
    });
    this.deliveryDuration = metrics.histogram({
      name: 'docproc_webhook_delivery_seconds',
      help: 'Seconds of one webhook delivery attempt, by outcome',
      labelNames: ['outcome'],
      buckets: DELIVERY_BUCKETS,
    });
  }

  jobFinished(type: string, outcome: JobOutcome, createdAt: Date): void {
    this.jobsFinished.inc({ type, outcome });
    this.jobDuration.observe(
      { type, outcome },
      Math.max(0, Date.now() - createdAt.getTime()) / 1000,
    );
  }

  deliveryAttempted(outcome: DeliveryOutcome, durationMs: number): void {
    this.deliveries.inc({ outcome });
    this.deliveryDuration.observe({ outcome }, durationMs / 1000);
  }
}
