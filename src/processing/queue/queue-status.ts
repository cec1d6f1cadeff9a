import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { RedisQueueConfig } from '../../config/operations.config.js';
import type { QueueName } from '../../config/queue.types.js';
import type { InFlightSource } from '../../common/health/in-flight.js';
import { LegacyQueueRepository } from './db/legacy-queue.repository.js';
import { LegacyWorkers } from './db/legacy-workers.service.js';
import { QueueDepthService, type CombinedDepth } from './queue-depth.service.js';
import { withTimeout } from './redis/redis-connection.js';
import { RedisQueueClient } from './redis/redis-queue.client.js';
import {
  LANE_PRIORITY,
  PING_JOB,
  type PingReply,
  type PingTask,
} from './redis/redis-queue.types.js';
import { RolloutService, type RolloutReport } from './rollout.service.js';

export type { CombinedDepth } from './queue-depth.service.js';
export type { RolloutReport } from './rollout.service.js';

/**
 * What the operations plane reads of the queues, and all it imports of them: depths of both
 * queue systems, whether the legacy workers' queue has drained, the rollout this process
 * routes by, and the legacy workers' liveness (their oldest task in flight, for the
 * watchdog).
 */
@Injectable()
export class QueueStatus {
  constructor(
    private readonly depths: QueueDepthService,
    private readonly legacy: LegacyQueueRepository,
    private readonly rollout: RolloutService,
    private readonly workers: LegacyWorkers,
  ) {}

  /** Queued plus running commands of one queue, both queue systems together, per lane. */
  depth(queue: QueueName): Promise<CombinedDepth> {
    return this.depths.read(queue);
  }

  /** Tasks queued or running for the legacy workers; 0 when their queue has drained. */
  legacyActiveTasks(): Promise<number> {
    return this.legacy.activeLegacyTasks();
  }

  /** The rollout ratios this process routes by, and its legacy worker roles. */
  rolloutReport(): RolloutReport {
    return this.rollout.report();
  }

  /** The legacy workers of this process as the watchdog reads them. */
  get legacyWorkers(): InFlightSource {
    return this.workers;
  }
}

/**
 * The Redis queue system probed from outside a running server (the upgrade preflight): its
 * store, the workers listening on a queue, and a ping task through a queue.
 */
export class RedisQueueProbe {
  private readonly client: RedisQueueClient;

  constructor(config: RedisQueueConfig) {
    this.client = new RedisQueueClient(config);
  }

  ping(timeoutMs: number): Promise<void> {
    return withTimeout(this.client.ping(), timeoutMs, 'Redis PING');
  }

  workerCount(queue: QueueName, timeoutMs: number): Promise<number> {
    return withTimeout(this.client.workerCount(queue), timeoutMs, 'worker list');
  }

  /** Sends a ping task through `queue`; the name of the worker that answered it. */
  async pingThrough(queue: QueueName, timeoutMs: number): Promise<string> {
    const events = this.client.queueEvents(queue);
    await events.waitUntilReady();
    const task: PingTask = { pingId: randomUUID(), queue };
    const job = await this.client.get(queue).add(PING_JOB, task, {
      priority: LANE_PRIORITY.priority,
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 3600 },
    });
    const reply = (await job.waitUntilFinished(events, timeoutMs)) as PingReply;
    if (!reply?.pong || reply.queue !== queue) throw new Error('unexpected reply');
    return reply.worker;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
