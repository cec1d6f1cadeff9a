import type { JobState, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { type LaneDepth, type QueueDepth } from '../queue-task.js';
import { LANES, type Lane, type QueueName, QUEUES } from '../../../config/queue.types.js';
import type { RedisQueueConfig } from '../../../config/operations.config.js';
import { redisConnection, withTimeout } from './redis-connection.js';
import { bullmq } from './redis-packages.js';
import { LANE_PRIORITY, laneOfJob, PRIORITY_LANE } from './redis-queue.types.js';

/**
 * The producer side of the new queue system (BullMQ queues `cpu` and `io`): adds jobs and
 * reads depths. Used by the API process and by `docproc-admin preflight`; it needs no
 * DuckDB. Depth reads share one non-blocking connection, so a hung Redis shows up as a
 * slow read the caller times out.
 */
export class RedisQueueClient {
  readonly connection: Redis;
  private readonly queues: Record<QueueName, Queue>;
  private events: Partial<Record<QueueName, QueueEvents>> = {};
  /** Connections this client opened; BullMQ never closes a connection it was given. */
  private readonly owned: Redis[] = [];

  constructor(readonly config: RedisQueueConfig) {
    this.connection = redisConnection(config.url, false);
    this.owned.push(this.connection);
    this.queues = {
      cpu: this.queue('cpu'),
      io: this.queue('io'),
    };
  }

  private queue(name: string): Queue {
    const queue = new (bullmq().Queue)(name, {
      connection: this.connection,
      prefix: this.config.prefix,
    });
    queue.on('error', () => undefined);
    return queue;
  }

  get(name: QueueName): Queue {
    return this.queues[name];
  }

  /** Completion events of a queue (opened on first use: it holds a blocking connection). */
  queueEvents(name: QueueName): QueueEvents {
    let events = this.events[name];
    if (!events) {
      const connection = redisConnection(this.config.url, true);
      this.owned.push(connection);
      events = new (bullmq().QueueEvents)(name, {
        connection,
        prefix: this.config.prefix,
      });
      events.on('error', () => undefined);
      this.events[name] = events;
    }
    return events;
  }

  async ping(): Promise<void> {
    const reply = await this.connection.ping();
    if (reply !== 'PONG') throw new Error(`unexpected PING reply ${reply}`);
  }

  /** Queued (waiting, prioritized, delayed) plus running jobs of a queue, per lane. */
  async depth(name: QueueName): Promise<QueueDepth> {
    const queue = this.queues[name];
    const lanes = Object.fromEntries(
      LANES.map((l): [Lane, LaneDepth] => [l, { queued: 0, running: 0 }]),
    ) as Record<Lane, LaneDepth>;
    const priorities = LANES.map((l) => LANE_PRIORITY[l]);
    const [perPriority, active, delayed] = await Promise.all([
      queue.getCountsPerPriority(priorities),
      queue.getActive(),
      queue.getDelayed(),
    ]);
    for (const [priority, count] of Object.entries(perPriority)) {
      const lane = PRIORITY_LANE[Number(priority)];
      if (lane) lanes[lane].queued += count;
    }
    for (const job of delayed) lanes[laneOfJob(job)].queued++;
    for (const job of active) lanes[laneOfJob(job)].running++;
    const active_ = LANES.reduce((n, l) => n + lanes[l].queued + lanes[l].running, 0);
    return { queue: name, active: active_, lanes };
  }

  /** A job's state (`unknown` once gone) and, when it failed for good, BullMQ's reason. */
  async jobState(
    name: QueueName,
    jobId: string,
  ): Promise<{ state: JobState | 'unknown'; failedReason?: string }> {
    const queue = this.queues[name];
    const state = await queue.getJobState(jobId);
    if (state !== 'failed') return { state };
    const job = await queue.getJob(jobId);
    return { state, failedReason: job?.failedReason || undefined };
  }

  /** Workers connected to a queue (BullMQ names their connections; CLIENT LIST). */
  async workerCount(name: QueueName): Promise<number> {
    return this.queues[name].getWorkersCount();
  }

  /** Bounded: with Redis gone the queues would wait for a reconnect forever. */
  async close(): Promise<void> {
    await withTimeout(
      Promise.allSettled([
        ...QUEUES.map((q) => this.queues[q].close()),
        ...Object.values(this.events).map((e) => e.close()),
      ]),
      3000,
      'queue close',
    ).catch(() => undefined);
    for (const connection of this.owned) connection.disconnect();
  }
}
