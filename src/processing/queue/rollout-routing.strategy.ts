import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { legacyWorkersEnabled } from '../../config/operations.config.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import { CLASSIFY_TASK, OPERATION_TASK, PIPELINE_TASK } from '../core/task-kinds.js';
import { DatabaseQueue } from './db/database-queue.js';
import {
  type CommandType,
  type QueueCommand,
  RunJobCommand,
  commandType,
  validateCommand,
} from './queue-command.js';
import type { AddOptions, QueuePort, Unsubscribe, WorkHandler, WorkOptions } from './queue-port.js';
import { QueueDepthService } from './queue-depth.service.js';
import { RedisDispatchRepository } from './redis/redis-dispatch.repository.js';
import { REDIS_QUEUE, type OptionalRedisQueue } from './redis/redis-queue.token.js';
import { bullJobIdOf, type RedisJobTask } from './redis/redis-queue.types.js';
import { ROUTABLE_JOBS, type RoutableJobs } from './redis/routable-jobs.port.js';
import { RolloutService } from './rollout.service.js';

/** The job commands (pipeline kinds) whose jobs the new queue system can run. */
const REDIS_KINDS: ReadonlyMap<string, CommandType<RunJobCommand>> = new Map([
  [CLASSIFY_TASK, commandType(CLASSIFY_TASK, RunJobCommand)],
  [OPERATION_TASK, commandType(OPERATION_TASK, RunJobCommand)],
  [PIPELINE_TASK, commandType(PIPELINE_TASK, RunJobCommand)],
]);

/**
 * The processing plane's QueuePort during the migration: one strategy choosing, per
 * command, the database queue or the BullMQ queue. A classify, parse, extract or split job
 * goes to BullMQ `cpu` for the share of requests its operation's rollout ratio says
 * (docproc's requests have no trainable variant: the non-trainable ratio applies);
 * everything else, and every command while Redis is not configured, to the database queue.
 *
 * A job routed to Redis gets its dispatch row (the record that it waits in Redis, which
 * the results consumer and its reconciler read) before the add. An add that fails or times
 * out is revoked by the driver, its dispatch row dropped, and the job goes to the database
 * queue while legacy workers run; else `add` throws 503 QUEUE_UNAVAILABLE and the caller
 * removes the job. Workers of this process take the database queue only (`work`); Redis
 * workers are their own processes.
 */
@Injectable()
export class RolloutRoutingStrategy implements QueuePort {
  private readonly logger = new Logger(RolloutRoutingStrategy.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DuckDbService,
    private readonly depths: QueueDepthService,
    private readonly database: DatabaseQueue,
    private readonly rollout: RolloutService,
    @Inject(REDIS_QUEUE) private readonly bull: OptionalRedisQueue,
    private readonly dispatches: RedisDispatchRepository,
    @Inject(ROUTABLE_JOBS) private readonly jobs: RoutableJobs,
  ) {}

  /** The queue a command goes to: `redis` with the job's task, or the database queue. */
  async route(
    command: QueueCommand,
    options: AddOptions,
  ): Promise<{ to: 'database' } | { to: 'redis'; task: RedisJobTask }> {
    const type = REDIS_KINDS.get(command.kind);
    if (!this.bull || options.queue !== 'cpu' || !type) return { to: 'database' };
    const { jobId, operation } = validateCommand(type, command.payload);
    const job = await this.jobs.find(jobId, operation);
    if (!job) return { to: 'database' };
    if (!this.rollout.routeToRedis(job.operation, 'non_trainable')) return { to: 'database' };
    const task: RedisJobTask = {
      jobId,
      orgId: job.orgId,
      operation: job.operation,
      kind: command.kind,
      inputs: await job.sources(),
      request: job.request,
      versions: job.versions,
    };
    return { to: 'redis', task };
  }

  async add<P extends object>(command: QueueCommand<P>, options: AddOptions): Promise<void> {
    const route = await this.route(command, options);
    if (route.to === 'database' || !this.bull) return this.database.add(command, options);
    const { task } = route;
    const bullJobId = bullJobIdOf(task.operation, task.jobId);
    await this.db.transaction((tx) =>
      this.dispatches.insert(tx, {
        jobId: task.jobId,
        queue: 'cpu',
        bullJobId,
        lane: options.lane,
        payload: task,
      }),
    );
    try {
      await this.bull.add({ kind: task.operation, payload: task }, { ...options, id: bullJobId });
      this.depths.noteDispatched('cpu', options.lane);
    } catch (error) {
      await this.db.transaction((tx) => this.dispatches.remove(tx, task.jobId));
      await this.fallBack(command, options, task.jobId, error);
    }
  }

  private async fallBack(
    command: QueueCommand,
    options: AddOptions,
    jobId: string,
    error: unknown,
  ): Promise<void> {
    if (!legacyWorkersEnabled(this.config.operations.legacyWorkers)) {
      this.logger.error({ err: error, jobId }, 'new queue unavailable; request refused');
      throw ApiError.unavailable(
        'QUEUE_UNAVAILABLE',
        'The job queue is unavailable; retry later',
        this.config.operations.admission.retryAfterSeconds,
      );
    }
    this.logger.warn(
      { err: error, jobId },
      'new queue unavailable; task goes to the database queue',
    );
    await this.database.add(command, options);
  }

  work<P extends object>(
    type: CommandType<P>,
    handler: WorkHandler<P>,
    options?: WorkOptions<P>,
  ): Unsubscribe {
    return this.database.work(type, handler, options);
  }
}
