import path from 'node:path';
import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../../../common/api-error.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import type { AppConfig } from '../../../config/app-config.js';
import { DuckDbService, type Transaction } from '../../../database/duckdb.service.js';
import { CLASSIFY_TASK } from '../../classify-jobs/classify-jobs.service.js';
import { inputUrls, type ClassifyInputValue } from '../../inputs/input-resolver.service.js';
import type { JobRecord } from '../../jobs/job.types.js';
import { JobsRepository } from '../../jobs/jobs.repository.js';
import { OPERATION_TASK } from '../../document-operations/operation-jobs.service.js';
import type { StoredOperationRequest } from '../../../documents/executors/operation.task.js';
import { DatabaseQueueDriver } from '../database-queue.repository.js';
import type {
  ClaimFilter,
  EnqueueOptions,
  QueueDepth,
  QueueDriver,
  QueueName,
  QueueTask,
} from '../queue-driver.js';
import { FILE_SCHEME, UploadService } from '../../upload/upload.service.js';
import { legacyWorkersEnabled } from '../../../config/operations.config.js';
import { RolloutService } from '../rollout.service.js';
import { RedisDispatchRepository } from './redis-dispatch.repository.js';
import { withTimeout } from './redis-connection.js';
import { REDIS_QUEUE_CLIENT, type OptionalRedisQueueClient } from './redis-queue.token.js';
import { QueueDepthService } from '../queue-depth.service.js';
import {
  LANE_PRIORITY,
  revokedKey,
  REVOKED_TTL_SECONDS,
  type RemoteInput,
  type RemoteOperation,
  type RemoteTask,
} from './redis-queue.types.js';

/** Task ids of work handed to Redis; the job store's queue row for it is the dispatch row. */
export const REDIS_TASK_PREFIX = 'redis:';

export function bullJobIdOf(operation: RemoteOperation, jobId: string): string {
  return `${operation}-${jobId}`;
}

interface Unpublished {
  task: RemoteTask;
  bullJobId: string;
  kind: string;
  payload: unknown;
  options: EnqueueOptions;
}

/** The pipelines (task kinds) whose jobs the new queue system can run. */
const REMOTE_KINDS = new Set([CLASSIFY_TASK, OPERATION_TASK]);

/** The rollout operation of a job of a remote kind. */
function operationOf(kind: string, job: JobRecord): RemoteOperation {
  return kind === CLASSIFY_TASK ? 'classify' : (job.request as StoredOperationRequest).__kind;
}

/**
 * The QUEUE_DRIVER of the processing plane during the migration: a classify, parse, extract
 * or split task goes to the new queue system (BullMQ `cpu`) for the share of requests its
 * operation's rollout ratio says, everything else to the legacy database queue. docproc's
 * requests have no trainable variant, so the non-trainable ratio of each operation applies. The Redis add happens inside the job's
 * transaction, before it commits: if the commit fails, the worker's result finds no job
 * and is dropped; if the add fails (Redis down), the task falls back to the database queue
 * while legacy workers run, else the request fails with 503 and no job.
 */
@Injectable()
export class RoutingQueueDriver implements QueueDriver {
  private readonly logger = new Logger(RoutingQueueDriver.name);

  /** Dispatches committed (or about to be) and not yet handed to Redis, by task id. */
  private readonly unpublished = new Map<string, Unpublished>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DuckDbService,
    private readonly depths: QueueDepthService,
    private readonly database: DatabaseQueueDriver,
    private readonly rollout: RolloutService,
    @Inject(REDIS_QUEUE_CLIENT) private readonly redis: OptionalRedisQueueClient,
    private readonly dispatches: RedisDispatchRepository,
    private readonly jobs: JobsRepository,
    private readonly uploads: UploadService,
  ) {}

  /**
   * Inside the job's transaction: decides the route. A task for the new queue system gets
   * its dispatch row here (committed with the job) and is handed to Redis by `publish`,
   * after the commit and outside the write lock: a hung Redis then holds only this request,
   * never every write of the process.
   */
  async enqueue<P>(
    queue: QueueName,
    kind: string,
    payload: P,
    options: EnqueueOptions,
    tx?: Transaction,
  ): Promise<string> {
    if (this.redis && tx && queue === 'cpu' && REMOTE_KINDS.has(kind)) {
      const jobId = (payload as { jobId: string }).jobId;
      const task = await this.remoteTask(kind, jobId, tx);
      if (task && this.rollout.routeToNewQueue(task.operation, 'non_trainable')) {
        const bullJobId = bullJobIdOf(task.operation, jobId);
        await this.dispatches.insert(tx, {
          jobId,
          queue: 'cpu',
          bullJobId,
          lane: options.lane,
          payload: task,
        });
        const taskId = `${REDIS_TASK_PREFIX}${jobId}`;
        this.unpublished.set(taskId, { task, bullJobId, kind, payload, options });
        return taskId;
      }
    }
    return this.database.enqueue(queue, kind, payload, options, tx);
  }

  /**
   * Adds a committed dispatch to BullMQ within REDIS_ENQUEUE_TIMEOUT_MS. On time-out or
   * error the job must never run from Redis: the add is revoked (see revokedKey) and the
   * dispatch row dropped; the task goes to the database queue while legacy workers run,
   * else the job is removed and the request answered 503 QUEUE_UNAVAILABLE.
   */
  async publish(taskId: string): Promise<void> {
    const pending = this.unpublished.get(taskId);
    if (!pending || !this.redis) return;
    this.unpublished.delete(taskId);
    const { task, bullJobId, options } = pending;
    const redis = this.redis;
    try {
      await withTimeout(
        redis.get('cpu').add(task.operation, task, {
          jobId: bullJobId,
          priority: LANE_PRIORITY[options.lane],
          attempts: options.maxAttempts ?? 1,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: true,
          removeOnFail: { age: 7 * 24 * 3600 },
        }),
        redis.config.enqueueTimeoutMs,
        'Redis enqueue',
      );
      this.depths.noteDispatched('cpu', options.lane);
      return;
    } catch (error) {
      this.revoke(bullJobId);
      await this.fallBack(pending, error);
    }
  }

  /** Sent after the add on the same connection, so Redis applies it after a late add. */
  private revoke(bullJobId: string): void {
    const redis = this.redis!;
    redis.connection
      .set(revokedKey(redis.config.prefix, bullJobId), '1', 'EX', REVOKED_TTL_SECONDS)
      .catch((error: unknown) =>
        this.logger.warn({ err: error, bullJobId }, 'could not record a revoked enqueue'),
      );
  }

  private async fallBack(pending: Unpublished, error: unknown): Promise<void> {
    const { task, kind, payload, options } = pending;
    const jobId = task.jobId;
    if (!legacyWorkersEnabled(this.config.operations.legacyWorkers)) {
      this.logger.error({ err: error, jobId }, 'new queue unavailable; request refused');
      await this.db.transaction(async (tx) => {
        await this.dispatches.remove(tx, jobId);
        await this.jobs.delete(tx, jobId);
      });
      throw new ApiError(
        HttpStatus.SERVICE_UNAVAILABLE,
        'QUEUE_UNAVAILABLE',
        'The job queue is unavailable; retry later',
        {},
        { 'Retry-After': String(this.config.operations.admission.retryAfterSeconds) },
      );
    }
    this.logger.warn(
      { err: error, jobId },
      'new queue unavailable; task goes to the database queue',
    );
    await this.db.transaction(async (tx) => {
      await this.dispatches.remove(tx, jobId);
      await this.database.enqueue('cpu', kind, payload, options, tx);
    });
  }

  /** The job as a self-contained task: URLs, or upload blobs on the shared DATA_DIR. */
  private async remoteTask(
    kind: string,
    jobId: string,
    tx: Transaction,
  ): Promise<RemoteTask | null> {
    const job = await this.jobs.find(jobId, tx);
    if (!job) return null;
    const inputs: RemoteInput[] = [];
    for (const url of inputUrls(job.request.input as ClassifyInputValue)) {
      if (url.startsWith(FILE_SCHEME)) {
        const record = await this.uploads.ownedUpload(job.orgId, url);
        // Blob file names are the upload's file id (UploadService keeps them under blobs/).
        inputs.push({ blob: path.posix.basename(record.fileId), fileName: record.fileId });
      } else inputs.push({ url });
    }
    return {
      jobId,
      orgId: job.orgId,
      operation: operationOf(kind, job),
      kind,
      inputs,
      request: job.request,
    };
  }

  claim(queue: QueueName, filter?: ClaimFilter): Promise<QueueTask | null> {
    return this.database.claim(queue, filter);
  }

  async complete(task: QueueTask, tx?: Transaction): Promise<void> {
    if (task.taskId.startsWith(REDIS_TASK_PREFIX)) {
      if (tx) await this.dispatches.remove(tx, task.taskId.slice(REDIS_TASK_PREFIX.length));
      return;
    }
    return this.database.complete(task, tx);
  }

  fail(task: QueueTask, error: string, retryAt?: Date, tx?: Transaction): Promise<void> {
    return this.database.fail(task, error, retryAt, tx);
  }

  depth(queue: QueueName): Promise<QueueDepth> {
    return this.database.depth(queue);
  }

  drained(): Promise<boolean> {
    return this.database.drained();
  }

  recoverInterrupted(): Promise<QueueTask[]> {
    return this.database.recoverInterrupted();
  }

  nextAvailableAt(queue: QueueName, filter?: ClaimFilter): Promise<Date | null> {
    return this.database.nextAvailableAt(queue, filter);
  }
}
