import { Logger } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { type CommandType, type QueueCommand, validateCommand } from '../queue-command.js';
import { InvalidCommandError } from '../../core/processing-error.js';
import type {
  AddOptions,
  QueuePort,
  Unsubscribe,
  WorkHandler,
  WorkOptions,
} from '../queue-port.js';
import type { QueueName } from '../../../config/queue.types.js';
import { withTimeout } from './redis-connection.js';
import { bullmq } from './redis-packages.js';
import { LANE_PRIORITY, laneOfJob, revokedKey, REVOKED_TTL_SECONDS } from './redis-queue.types.js';

/** What the driver needs of a BullMQ producer (RedisQueueClient). */
export interface BullQueues {
  readonly config: { prefix: string; enqueueTimeoutMs: number };
  /** Plain commands (revocations), apart from BullMQ's blocking connections. */
  readonly connection: Redis;
  get(queue: QueueName): Queue;
}

type Take = (queue: QueueName, job: Job) => Promise<void>;

/**
 * The BullMQ queue behind the QueuePort. `add` is bounded by REDIS_ENQUEUE_TIMEOUT_MS; an
 * add that times out or fails is revoked (see revokedKey) before the error is thrown, so a
 * late add that lands anyway never runs (until the same id is added again). `work` registers a handler by job name; a worker
 * process's BullMQ Workers hand their jobs to `take`, which drops revoked jobs, validates
 * the payload and runs the handler. A handler asking for a retry, or throwing, fails the
 * attempt: BullMQ retries it with back-off while attempts remain.
 */
export class BullQueueDriver implements QueuePort {
  private readonly logger = new Logger(BullQueueDriver.name);
  private readonly handlers = new Map<string, Take>();

  constructor(private readonly queues: BullQueues) {}

  async add<P extends object>(command: QueueCommand<P>, options: AddOptions): Promise<void> {
    if (options.id) this.unrevoke(options.id);
    try {
      await withTimeout(
        this.queues.get(options.queue).add(command.kind, command.payload, {
          jobId: options.id,
          priority: LANE_PRIORITY[options.lane],
          attempts: options.maxAttempts ?? 1,
          backoff: { type: 'exponential', delay: 1000 },
          delay: options.availableAt
            ? Math.max(0, options.availableAt.getTime() - Date.now())
            : undefined,
          removeOnComplete: true,
          removeOnFail: { age: 7 * 24 * 3600 },
        }),
        this.queues.config.enqueueTimeoutMs,
        'Redis enqueue',
      );
    } catch (error) {
      if (options.id) this.revoke(options.id);
      throw error;
    }
  }

  /**
   * Sent before the add on the same connection (pipelined, no round trip of its own): an
   * add of an id supersedes an earlier add of it that was given up on. An id is added again
   * only when nothing else runs the work (the results consumer's re-dispatch of a job Redis
   * lost, a start-up re-add), so it is meant to run; without this a re-dispatch that once
   * timed out would leave every later one dropped for REVOKED_TTL_SECONDS.
   */
  private unrevoke(jobId: string): void {
    this.queues.connection
      .del(revokedKey(this.queues.config.prefix, jobId))
      .catch((error: unknown) =>
        this.logger.warn({ err: error, bullJobId: jobId }, 'could not clear a revoked enqueue'),
      );
  }

  /** Sent after the add on the same connection, so Redis applies it after a late add. */
  private revoke(jobId: string): void {
    this.queues.connection
      .set(revokedKey(this.queues.config.prefix, jobId), '1', 'EX', REVOKED_TTL_SECONDS)
      .catch((error: unknown) =>
        this.logger.warn({ err: error, bullJobId: jobId }, 'could not record a revoked enqueue'),
      );
  }

  work<P extends object>(
    type: CommandType<P>,
    handler: WorkHandler<P>,
    options: WorkOptions<P> = {},
  ): Unsubscribe {
    const take: Take = async (queue, job) => {
      if (await this.revoked(job)) {
        // The producer gave up on this add (time-out) and failed the job or queued it
        // elsewhere: running it here would run it twice, or run a refused request.
        this.logger.warn({ bullJobId: job.id }, 'revoked enqueue dropped without running');
        return;
      }
      const work = {
        id: String(job.id),
        kind: job.name,
        payload: validateCommand(type, job.data),
        queue,
        lane: laneOfJob(job),
        attempts: job.attemptsMade + 1,
        maxAttempts: job.opts.attempts ?? 1,
        enqueuedAt: new Date(job.timestamp),
      };
      try {
        const result = await handler(work);
        if (result) throw new Error(result.error);
      } catch (error) {
        if (work.attempts >= work.maxAttempts) await options.exhausted?.(work, String(error));
        throw error;
      }
    };
    this.handlers.set(type.kind, take);
    return () => {
      if (this.handlers.get(type.kind) === take) this.handlers.delete(type.kind);
    };
  }

  /** Whether a handler takes jobs of this name. */
  handles(name: string): boolean {
    return this.handlers.has(name);
  }

  /**
   * Runs one BullMQ job with its name's handler (a worker process's Worker callback). A
   * payload that does not validate fails for good: retrying cannot change it.
   */
  async take(queue: QueueName, job: Job): Promise<void> {
    const take = this.handlers.get(job.name);
    if (!take) throw new Error(`no handler for ${job.name} jobs`);
    try {
      await take(queue, job);
    } catch (error) {
      if (error instanceof InvalidCommandError)
        throw new (bullmq().UnrecoverableError)(error.message);
      throw error;
    }
  }

  /** Whether the producer revoked this job's add (an error reading it counts as not revoked). */
  private async revoked(job: Job): Promise<boolean> {
    try {
      const key = revokedKey(this.queues.config.prefix, String(job.id));
      return (await this.queues.connection.exists(key)) > 0;
    } catch {
      return false;
    }
  }
}
