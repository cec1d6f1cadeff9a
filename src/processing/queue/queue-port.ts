import type { Lane, QueueName } from '../../config/queue.types.js';
import type { CommandType, QueueCommand } from './queue-command.js';

/** Where and how a command waits. */
export interface AddOptions {
  queue: QueueName;
  lane: Lane;
  /** Attempts allowed before the command is given up (a worker died running it each time). */
  maxAttempts?: number;
  /** Not taken before this time. */
  availableAt?: Date;
  /**
   * Deep work (Deep Classify `model: accurate`, deep extract, deep split; see isDeepWork):
   * the gpu worker kind takes it, and only it, when a gpu worker is configured.
   */
  deep?: boolean;
  /** A driver-level identity that makes a repeated add of the same work a no-op (BullMQ job id). */
  id?: string;
  /**
   * Whose work it is (a job's organization). The database queue shares its workers fairly
   * between tenants: see DatabaseQueueRepository.claim.
   */
  tenant?: string;
}

/** A command as its handler receives it: the payload validated, plus where it waited. */
export interface QueuedWork<P extends object = object> {
  id: string;
  kind: string;
  payload: P;
  queue: QueueName;
  lane: Lane;
  /** Takes so far, this one included. */
  attempts: number;
  maxAttempts: number;
  enqueuedAt: Date;
}

/** What a handler asks of its queue when it returns: done (nothing) or try again later. */
export type WorkResult = void | { retryAt: Date; error: string };

export type WorkHandler<P extends object = object> = (work: QueuedWork<P>) => Promise<WorkResult>;

export interface WorkOptions<P extends object = object> {
  /**
   * A command whose attempts ran out without an answer (its worker died each time): the
   * handler's owner records the failure on its durable record.
   */
  exhausted?(work: QueuedWork<P>, reason: string): Promise<void>;
}

/** Stops the handler from taking more work. */
export type Unsubscribe = () => void;

/**
 * The queue contract (Twenty's `add` / `work` shape). The durable record of any work is
 * its own row (a job, a webhook delivery), committed before `add` runs: no database
 * transaction crosses this port, and a start-up reconciler re-adds what a crash between the
 * commit and the add left without a task. Implemented by the database queue, the BullMQ
 * queue and the in-process inline queue of the unit specs; RolloutRoutingStrategy chooses
 * between the first two per command.
 *
 * A handler that resolves has finished the work (the driver drops the task); one that
 * throws leaves the task failed (marked dead, `exhausted` told). Every payload is
 * validated against its kind's command class before the handler sees it.
 */
export interface QueuePort {
  add<P extends object>(command: QueueCommand<P>, options: AddOptions): Promise<void>;
  work<P extends object>(
    type: CommandType<P>,
    handler: WorkHandler<P>,
    options?: WorkOptions<P>,
  ): Unsubscribe;
}

/** The processing plane's queue (RolloutRoutingStrategy). */
export const QUEUE = Symbol('QUEUE');
