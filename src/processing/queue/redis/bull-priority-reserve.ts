import { Logger } from '@nestjs/common';
import type { Job, Queue, Worker } from 'bullmq';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PriorityReserve } from '../priority-reserve.js';
import { bullmq } from './redis-packages.js';
import { LANE_PRIORITY, laneOfJob } from './redis-queue.types.js';

/**
 * How often a Worker held back by the reserve asks Redis whether priority work waits: the
 * most a priority job that arrives meanwhile waits beyond its own run.
 */
const RESERVE_LOOK_MS = 100;

/**
 * PriorityReserve applied to a BullMQ Worker of the `cpu` queue. A free BullMQ slot takes the
 * highest-priority job waiting and cannot be told to take priority jobs only, so the rule is
 * applied to the job taken: a standard or batch job the reserve does not admit goes back to
 * the queue, in front of its own priority (Job.moveToWait, one Redis script: before it the
 * job is still active under this Worker's lock, so a crash leaves it to BullMQ's stalled
 * check, never lost), and the Worker stops taking jobs (paused; its running jobs go on) until
 * a priority job waits, one of its standard or batch jobs ends, or the hold lapses.
 */
export class BullPriorityReserve {
  private readonly logger = new Logger(BullPriorityReserve.name);
  private worker: Worker | null = null;
  /** The look-out of a paused Worker, one at a time. */
  private watching: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly reserve: PriorityReserve,
    /** The producer side of the Worker's queue, for its count of waiting priority jobs. */
    private readonly queue: Queue,
  ) {}

  attach(worker: Worker): void {
    this.worker = worker;
  }

  /**
   * Before the Worker closes: no look-out resumes it any more. Not awaited: a look-out may
   * be waiting on a Redis that is gone, and shutdown must not wait for it.
   */
  stop(): void {
    this.stopped = true;
  }

  /**
   * Runs `run` when the reserve admits the job; otherwise gives the job back and throws
   * BullMQ's WaitingError (so the Worker neither completes nor fails it).
   */
  async admit<T>(job: Job, token: string | undefined, run: () => Promise<T>): Promise<T> {
    if (laneOfJob(job) === 'priority') {
      this.reserve.sawPriorityWork();
      return run();
    }
    if (!this.reserve.admitLower()) {
      if (await this.giveBack(job, token)) throw new (bullmq().WaitingError)();
      // Redis refused the move: the job is still this Worker's, so it runs rather than
      // waiting for its lock to lapse (the reserve is short by one meanwhile).
      return run();
    }
    try {
      return await run();
    } finally {
      this.reserve.releaseLowerLane();
      // A lower-lane slot is free again: a held-back Worker may fill it.
      if (!this.stopped) void this.worker?.resume();
    }
  }

  /** Pauses the Worker first, so the slot the job leaves takes no other job at once. */
  private async giveBack(job: Job, token: string | undefined): Promise<boolean> {
    if (!this.worker || token === undefined) return false;
    await this.worker.pause(true);
    try {
      await job.moveToWait(token);
    } catch (error) {
      this.logger.warn({ err: error, bullJobId: job.id }, 'could not give a job back to the queue');
      void this.worker.resume();
      return false;
    }
    this.lookOut();
    return true;
  }

  /**
   * Starts the look-out unless one runs. One that is ending (it saw the Worker resumed) may
   * miss a pause that came meanwhile, so it hands over to a new one.
   */
  private lookOut(): void {
    if (this.watching || this.stopped) return;
    this.watching = this.watch().finally(() => {
      this.watching = null;
      if (this.worker?.isPaused()) this.lookOut();
    });
  }

  /** Resumes the paused Worker once priority work waits or the hold lapses. */
  private async watch(): Promise<void> {
    const worker = this.worker!;
    while (!this.stopped && worker.isPaused()) {
      const lapse = this.reserve.holdsFor();
      if (lapse === null || (await this.priorityWaiting())) break;
      await sleep(Math.min(RESERVE_LOOK_MS, lapse));
    }
    if (!this.stopped) await worker.resume();
  }

  private async priorityWaiting(): Promise<boolean> {
    try {
      const counts = await this.queue.getCountsPerPriority([LANE_PRIORITY.priority]);
      return (counts[LANE_PRIORITY.priority] ?? 0) > 0;
    } catch {
      // Redis unreachable: the Worker takes jobs again (and fails as any Worker would).
      return true;
    }
  }
}
