import type { Lane, QueueName } from '../../config/queue.types.js';

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

/** A task as the database queue stores it (AddOptions without the queue). */
export interface EnqueueOptions {
  lane: Lane;
  /** Claims allowed before an interrupted task is given up (see DatabaseQueueRepository). */
  maxAttempts?: number;
  /** Not claimable before this time (retry back-off). */
  availableAt?: Date;
  /**
   * Deep work (Deep Classify `model: accurate`, deep extract, deep split; see isDeepWork):
   * the gpu worker kind takes it, and only it, when a gpu worker is configured.
   */
  deep?: boolean;
  /** Whose work it is (AddOptions.tenant). */
  tenant?: string;
}

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
