import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { ReadinessService } from '../../common/health/readiness.service.js';
import { ThrottledWarning } from '../../common/logging/throttled-warning.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { legacyWorkersEnabled } from '../../config/operations.config.js';
import type { AppConfig } from '../../config/app-config.js';
import type { Transaction } from '../../database/duckdb.service.js';
import { CLASSIFY_TASK } from '../core/task-kinds.js';
import { JobOutcomeRecorder } from './job-outcome.recorder.js';
import { JobRunner } from './job-runner.service.js';
import { ProcessingError } from '../core/processing-error.js';
import { JobsRepository } from './jobs.repository.js';
import { NewQueueHealth } from './new-queue-health.js';
import type { QueuePort } from '../queue/queue-port.js';
import {
  RedisDispatchRepository,
  type Dispatch,
} from '../queue/redis/redis-dispatch.repository.js';
import { redisConnection, withTimeout } from '../queue/redis/redis-connection.js';
import { bullmq } from '../queue/redis/redis-packages.js';
import {
  REDIS_QUEUE,
  REDIS_QUEUE_CLIENT,
  type OptionalRedisQueue,
  type OptionalRedisQueueClient,
} from '../queue/redis/redis-queue.token.js';
import {
  RESULTS_QUEUE,
  type RedisJobReport,
  type RedisJobResult,
} from '../queue/redis/redis-queue.types.js';

/**
 * The API process's half of the new queue system. Redis workers have no DuckDB, so their
 * reports come back on the BullMQ `results` queue and are written here: a start report
 * moves the job to running (as a legacy worker's claim does); an outcome is written in the same
 * transaction shape as a legacy worker's (job row, usage outbox, webhooks, dispatch row
 * removed). BullMQ keeps a result until this consumer has processed it, and the write is
 * idempotent (a finished job ignores a second result). A reconciler puts dispatches Redis
 * lost back on the queue and fails the ones BullMQ gave up on: nothing accepted is lost.
 */
@Injectable()
export class RedisResultsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RedisResultsConsumer.name);
  private worker: Worker<RedisJobReport> | null = null;
  private reconciler: NodeJS.Timeout | null = null;
  private connection: Redis | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS_QUEUE_CLIENT) private readonly redis: OptionalRedisQueueClient,
    @Inject(REDIS_QUEUE) private readonly queue: OptionalRedisQueue,
    private readonly jobs: JobsRepository,
    private readonly runner: JobRunner,
    private readonly outcomes: JobOutcomeRecorder,
    private readonly dispatches: RedisDispatchRepository,
    @Optional() private readonly readiness?: ReadinessService,
  ) {}

  onApplicationBootstrap(): void {
    const redis = this.config.operations.redis;
    if (!redis || !this.redis) return;
    this.connection = redisConnection(redis.url, true);
    this.readiness?.register(
      new NewQueueHealth(
        this.connection,
        legacyWorkersEnabled(this.config.operations.legacyWorkers),
      ),
    );
    this.worker = new (bullmq().Worker)<RedisJobReport>(
      RESULTS_QUEUE,
      (job) => this.consume(job.data),
      {
        connection: this.connection,
        prefix: redis.prefix,
        concurrency: 4,
        removeOnComplete: { count: 0 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    );
    const errors = new ThrottledWarning(this.logger, 'results consumer error');
    this.worker.on('error', (error) => errors.warn(error));
    this.reconciler = setInterval(() => void this.reconcile(), redis.reconcileIntervalMs);
    this.reconciler.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.reconciler) clearInterval(this.reconciler);
    if (this.worker && this.connection) {
      // BullMQ's graceful close waits for its blocking connection to end, which never
      // happens once Redis is gone or hung; the close then never reaches its lock-extender
      // and stalled-check timers, which keep the process alive. So the close is graceful
      // only while Redis answers, else forced: a result being applied then stays in Redis
      // and is consumed again at the next start (applying it is idempotent).
      const connection = this.connection;
      const answers = await withTimeout(connection.ping(), 1000, 'Redis ping').then(
        () => true,
        () => false,
      );
      await withTimeout(this.worker.close(!answers), 3000, 'results consumer close').catch(
        (error: unknown) => this.logger.warn({ err: error }, 'results consumer did not close'),
      );
    }
    this.connection?.disconnect();
  }

  /** One report of a worker: the job started (shown as running), or its outcome. */
  async consume(report: RedisJobReport): Promise<void> {
    // Identity check: only a job still dispatched to Redis takes a Redis worker's report.
    // One whose enqueue timed out was failed or moved to the database queue (its dispatch
    // row dropped); a late add that ran anyway must not touch it.
    if (!(await this.dispatches.has(report.jobId))) {
      this.logger.warn({ jobId: report.jobId }, 'report for a job not dispatched to Redis ignored');
      return;
    }
    if ('started' in report) {
      // Only a queued job moves: a late start report never reopens a finished job.
      await this.jobs.markStarted(report.jobId);
      return;
    }
    await this.apply(report);
  }

  /**
   * Records one worker outcome with the job's pipeline and the same finishing code as a
   * legacy worker (job row, usage outbox, webhooks, dispatch row removed in one
   * transaction); safe to run twice for the same job.
   */
  async apply(result: RedisJobResult): Promise<void> {
    const { jobId } = result;
    // Workers of the classify-only release send no kind.
    const kind = result.kind ?? CLASSIFY_TASK;
    const pipeline = this.runner.pipeline(kind);
    if (!pipeline) throw new Error(`no pipeline for task kind ${kind}`);
    // The dispatch row goes in the outcome's own transaction: recorded once.
    const removeDispatch = (tx: Transaction) => this.dispatches.remove(tx, jobId);
    if (!(await this.jobs.markRunning(jobId))) {
      // Cancelled, deleted or already finished (maybe by a legacy worker after a fallback).
      await this.outcomes.discarded(jobId, removeDispatch);
      return;
    }
    if ('outcome' in result) {
      const job = (await this.jobs.find(jobId))!;
      await this.outcomes.completed(pipeline, job, result.outcome, removeDispatch);
    } else {
      const { code, message, status } = result.failure;
      const failure = new ProcessingError(code, message, status);
      await this.outcomes.failed(jobId, failure, removeDispatch);
    }
  }

  /** Dispatches older than a minute whose BullMQ job is gone, running, or failed for good. */
  async reconcile(olderThanMs = 60_000): Promise<void> {
    if (!this.redis || !this.queue) return;
    try {
      for (const dispatch of await this.dispatches.older(olderThanMs, 100)) {
        const { state, failedReason } = await this.redis.jobState(
          dispatch.queue,
          dispatch.bullJobId,
        );
        if (state === 'unknown') await this.redispatch(this.queue, dispatch);
        // A start report that never arrived (best effort on the worker's side).
        else if (state === 'active') await this.jobs.markStarted(dispatch.jobId);
        else if (state === 'failed') {
          await this.apply({
            jobId: dispatch.jobId,
            kind: dispatch.payload.kind,
            failure: {
              code: 'PROCESSING_FAILED',
              message: failedReason ?? 'Processing failed on the new queue',
              status: 500,
            },
          });
        }
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'new-queue reconcile failed; retrying later');
    }
  }

  /**
   * Gone from Redis with no result recorded (e.g. Redis restarted without persistence):
   * the stored task goes back through the queue port under its own BullMQ id, as the
   * first dispatch did (bounded add, lane priority, retries with back-off).
   */
  private async redispatch(queue: QueuePort, dispatch: Dispatch): Promise<void> {
    this.logger.warn({ jobId: dispatch.jobId }, 'job lost by Redis; queued again');
    await queue.add(
      { kind: dispatch.payload.operation, payload: dispatch.payload },
      {
        queue: dispatch.queue,
        lane: dispatch.lane,
        maxAttempts: this.config.processing.jobMaxAttempts,
        id: dispatch.bullJobId,
      },
    );
  }
}
