import type { Transaction } from '../../database/duckdb.service.js';
import type { ClaimFilter, Lane, QueueName } from '../../config/queue.types.js';

export { LANES, QUEUES } from '../../config/queue.types.js';
export type { ClaimFilter, Lane, QueueName } from '../../config/queue.types.js';

export interface QueueTask<P = unknown> {
  taskId: string;
  queue: QueueName;
  lane: Lane;
  kind: string;
  payload: P;
  /** Claims so far, this one included. */
  attempts: number;
  maxAttempts: number;
  enqueuedAt: Date;
}

export interface EnqueueOptions {
  lane: Lane;
  /** Claims allowed before an interrupted task is given up (see recoverInterrupted). */
  maxAttempts?: number;
  /** Not claimable before this time (retry back-off). */
  availableAt?: Date;
  /**
   * Deep work (Deep Classify `model: accurate`, deep extract, deep split; see isDeepWork):
   * the gpu worker kind takes it, and only it, when a gpu worker is configured.
   */
  deep?: boolean;
}

/**
 * What one worker loop may claim: issue 6's worker kinds are the same loop with different
 * filters (see databaseQueueWorkers). An empty filter takes everything, lanes in LANES order.
 */

export interface LaneDepth {
  queued: number;
  running: number;
}

export interface QueueDepth {
  queue: QueueName;
  /** Queued plus running: the figure the admission cap and queue metrics use. */
  active: number;
  lanes: Record<Lane, LaneDepth>;
}

/**
 * The queue behind the workers. The database driver keeps tasks as DuckDB rows; a BullMQ
 * driver (issue 6) can implement the same contract. `tx`: the DuckDB transaction the
 * enqueue/complete belongs to, so a job's completion and its follow-up tasks commit
 * together; a driver that cannot join it must enqueue after commit.
 */
export interface QueueDriver {
  enqueue<P>(
    queue: QueueName,
    kind: string,
    payload: P,
    options: EnqueueOptions,
    tx?: Transaction,
  ): Promise<string>;
  /** Claims the next available task the filter allows, lanes in LANES order; null when none. */
  claim(queue: QueueName, filter?: ClaimFilter): Promise<QueueTask | null>;
  /** Removes a finished task. */
  complete(task: QueueTask, tx?: Transaction): Promise<void>;
  /** Puts a task back for another attempt at `retryAt`, or marks it dead without one. */
  fail(task: QueueTask, error: string, retryAt?: Date, tx?: Transaction): Promise<void>;
  depth(queue: QueueName): Promise<QueueDepth>;
  /**
   * Hands a task enqueued in a transaction to an outside system once that transaction has
   * committed (a network call never runs inside a database transaction or its lock).
   * Drivers without one resolve at once. Throws an ApiError when the task could not be
   * queued anywhere (its job has then been removed).
   */
  publish?(taskId: string): Promise<void>;
  /** True when no task is queued or running on any queue. */
  drained(): Promise<boolean>;
  /**
   * At start-up: tasks left running by a dead process go back to the queue while they have
   * attempts left; the exhausted ones are returned (and marked dead) for their handlers.
   */
  recoverInterrupted(): Promise<QueueTask[]>;
  /**
   * Earliest time a queued task the filter allows becomes available, so idle workers can
   * sleep until then (work for other worker kinds must not wake them).
   */
  nextAvailableAt(queue: QueueName, filter?: ClaimFilter): Promise<Date | null>;
}

export const QUEUE_DRIVER = Symbol('QUEUE_DRIVER');
