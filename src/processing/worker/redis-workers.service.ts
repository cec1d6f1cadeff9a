import os from 'node:os';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { ProcessingError, toProcessingError } from '../core/processing-error.js';
import type { QueuedWork } from '../queue/queue-port.js';
import type { QueueName } from '../../config/queue.types.js';
import { BullQueueDriver } from '../queue/redis/bull-queue.driver.js';
import { BullPriorityReserve } from '../queue/redis/bull-priority-reserve.js';
import { PriorityReserve } from '../queue/priority-reserve.js';
import { redisConnection, withTimeout } from '../queue/redis/redis-connection.js';
import { bullmq } from '../queue/redis/redis-packages.js';
import { RedisQueueClient } from '../queue/redis/redis-queue.client.js';
import {
  PING_JOB,
  RESULT_REPORT,
  RESULTS_QUEUE,
  STARTED_REPORT,
  type PingReply,
  type PingTask,
  type RedisJobReport,
  type RedisJobResult,
  type RedisJobStarted,
} from '../queue/redis/redis-queue.types.js';
import { REDIS_JOB_COMMANDS, type RedisJobCommand } from '../queue/redis/redis-job.command.js';
import { InFlightTracker } from '../../common/health/in-flight.js';
import { ThrottledWarning } from '../../common/logging/throttled-warning.js';
import { WorkerWatchdog } from '../../common/health/worker-watchdog.js';
import { RedisTaskRunner } from './redis-task.runner.js';

/** How long shutdown waits for Redis to answer a ping before it takes Redis for gone. */
const REDIS_PING_MS = 1_000;
/** Bound of each BullMQ close at shutdown (they wait for Redis). */
const CLOSE_BOUND_MS = 3_000;

/**
 * A worker process of the new queue system (`npm run start:worker`): a small fixed pool of
 * BullMQ consumers on `cpu` and `io`, no HTTP server and no DuckDB. Outcomes go to the
 * `results` queue for the API process. The jobs are taken through BullQueueDriver's `work`
 * (revoked adds dropped, payloads validated as RedisJobCommand). SIGTERM: stop taking work, let tasks in flight finish
 * within TERMINATION_GRACE_PERIOD_SECONDS; the rest lose their lock and BullMQ puts them
 * back on the queue (stalled-job recovery), so another worker runs them. While priority work
 * arrives, the `cpu` Worker keeps slots for it as the database queue's loops do
 * (PriorityReserve, docs/decisions/0487-worker-kept-for-priority-work-while-it-arrives.md).
 */
@Injectable()
export class RedisWorkersService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RedisWorkersService.name);
  private readonly workers: Worker[] = [];
  private results: Queue<RedisJobReport> | null = null;
  /** The producer side: plain commands (revocations, results), apart from the Workers'. */
  private client: RedisQueueClient | null = null;
  private bull: BullQueueDriver | null = null;
  readonly inFlight = new InFlightTracker();
  private watchdog: WorkerWatchdog | null = null;
  private readonly name = `${os.hostname()}:${process.pid}`;
  private readonly connections: Redis[] = [];
  private cpuReserve: BullPriorityReserve | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runner: RedisTaskRunner,
  ) {}

  onApplicationBootstrap(): void {
    const redis = this.config.operations.redis;
    if (!redis) throw new Error('REDIS_URL is required for the worker process');
    this.client = new RedisQueueClient(redis);
    this.bull = new BullQueueDriver(this.client);
    for (const type of Object.values(REDIS_JOB_COMMANDS)) {
      this.bull.work(type, (work) => this.runTask(work));
    }
    this.results = new (bullmq().Queue)<RedisJobReport>(RESULTS_QUEUE, {
      connection: this.client.connection,
      prefix: redis.prefix,
    });
    this.results.on('error', () => undefined);
    const legacy = this.config.operations.legacyWorkers;
    this.cpuReserve = new BullPriorityReserve(
      new PriorityReserve(
        redis.cpuConcurrency,
        legacy.priorityReserve,
        legacy.priorityReserveHoldMs,
      ),
      this.client.get('cpu'),
    );
    const pools: [QueueName, number][] = [
      ['cpu', redis.cpuConcurrency],
      ['io', redis.ioConcurrency],
    ];
    for (const [queue, concurrency] of pools) {
      const worker = new (bullmq().Worker)(queue, (job, token) => this.process(queue, job, token), {
        connection: this.connect(redis.url, true),
        prefix: redis.prefix,
        concurrency,
        name: this.name,
        maxStalledCount: 3,
        // A killed worker's jobs lose their lock after lockDuration; any live worker's
        // stalled check (every stalledInterval) puts them back: resumed within seconds,
        // not the minute of BullMQ's defaults (30 s + 30 s).
        lockDuration: redis.lockMs,
        stalledInterval: Math.max(500, Math.floor(redis.lockMs / 2)),
      });
      const errors = new ThrottledWarning(this.logger, 'worker error');
      worker.on('error', (error) => errors.warn(error, { queue }));
      if (queue === 'cpu') this.cpuReserve.attach(worker);
      this.workers.push(worker);
    }
    this.watchdog = new WorkerWatchdog(
      this.config.operations.liveness,
      [this.inFlight],
      'redis-worker',
    );
    this.watchdog.start();
    this.logger.log(
      { cpu: redis.cpuConcurrency, io: redis.ioConcurrency, worker: this.name },
      'new-queue worker serving cpu and io',
    );
  }

  /**
   * Tasks in flight get the grace period to finish. BullMQ's closes wait for Redis, so with
   * Redis gone (not answering a ping) the workers are closed at once, and every close is
   * bounded: a close that never returns would leave BullMQ's timers holding the process
   * for ever. What was in flight goes back to the queue as stalled jobs once Redis is back.
   */
  async onApplicationShutdown(): Promise<void> {
    const graceMs = this.config.operations.terminationGraceSeconds * 1000;
    this.cpuReserve?.stop();
    const answers = await this.redisAnswers();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), answers ? graceMs : 0);
    });
    // A BullMQ worker closes once: a later close(true) returns the close under way, which
    // waits for its jobs, so whether to force is decided by the first (forced, its lock
    // extender stops at once instead of renewing the locks of jobs that cannot finish).
    if (!answers) {
      this.logger.warn(
        { inFlight: this.inFlight.size },
        'Redis does not answer; stopping without waiting for tasks in flight (they go back to the queue as stalled jobs)',
      );
    }
    const closing = Promise.allSettled(this.workers.map((w) => w.close(!answers)));
    const outcome = await Promise.race([closing, grace]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      if (answers) {
        this.logger.warn(
          { inFlight: this.inFlight.size },
          'grace period over; tasks in flight go back to the queue as stalled jobs',
        );
      }
      await this.bounded(closing, 'worker close');
    }
    this.watchdog?.stop();
    await this.bounded(this.results?.close(), 'results queue close');
    await this.bounded(this.client?.close(), 'queue client close');
    for (const connection of this.connections) connection.disconnect();
  }

  private async redisAnswers(): Promise<boolean> {
    const connection = this.client?.connection;
    if (!connection) return false;
    return withTimeout(connection.ping(), REDIS_PING_MS, 'Redis ping').then(
      () => true,
      () => false,
    );
  }

  private async bounded(work: Promise<unknown> | undefined, what: string): Promise<void> {
    await withTimeout(Promise.resolve(work), CLOSE_BOUND_MS, what).catch((error: unknown) =>
      this.logger.warn({ err: error }, `${what} did not finish; stopping anyway`),
    );
  }

  private connect(url: string, blocking: boolean): Redis {
    const connection = redisConnection(url, blocking);
    this.connections.push(connection);
    return connection;
  }

  private async process(queue: QueueName, job: Job, token?: string): Promise<unknown> {
    const id = `${queue}:${job.id}`;
    this.inFlight.begin(id);
    try {
      if (job.name === PING_JOB) {
        const reply: PingReply = {
          pong: true,
          queue: (job.data as PingTask).queue,
          worker: this.name,
        };
        return reply;
      }
      // Every other job is an operation (its name), taken through the queue contract.
      const take = () => this.bull!.take(queue, job);
      if (queue === 'cpu') await this.cpuReserve!.admit(job, token, take);
      else await take();
      return null;
    } finally {
      this.inFlight.end(id);
    }
  }

  private async runTask(work: QueuedWork<RedisJobCommand>): Promise<void> {
    const task = work.payload;
    const { jobId, kind, operation } = task;
    await this.reportStarted(jobId);
    let result: RedisJobResult;
    try {
      result = { jobId, kind, outcome: await this.runner.run(task) };
    } catch (error) {
      // Document errors map to client errors exactly as on a legacy worker.
      const mapped = toProcessingError(error);
      if (mapped instanceof ProcessingError) {
        result = {
          jobId,
          kind,
          failure: { code: mapped.code, message: mapped.message, status: mapped.status },
        };
      } else {
        // BullMQ retries while attempts remain; the last one reports the failure.
        if (work.attempts < work.maxAttempts) throw error;
        this.logger.error({ err: error, jobId, operation }, 'operation failed');
        result = {
          jobId,
          kind,
          failure: {
            code: 'PROCESSING_FAILED',
            message: 'Internal error while processing the document',
            status: 500,
          },
        };
      }
    }
    // Deduplicated by id while the API has not consumed it yet.
    await this.results!.add(RESULT_REPORT, result, {
      jobId: `result-${jobId}`,
      removeOnComplete: true,
    });
  }

  /**
   * Tells the API process (which alone writes the job store) that the job is running. Best
   * effort: without it the job shows Pending until its result is written, as before.
   */
  private async reportStarted(jobId: string): Promise<void> {
    const started: RedisJobStarted = { jobId, started: true };
    try {
      await this.results!.add(STARTED_REPORT, started, {
        jobId: `started-${jobId}`,
        removeOnComplete: true,
      });
    } catch (error) {
      this.logger.warn({ err: error, jobId }, 'could not report the job started');
    }
  }
}
