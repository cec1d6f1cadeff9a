import { Inject, Injectable } from '@nestjs/common';
import { DatabaseQueueDriver } from './database-queue.repository.js';
import {
  LANES,
  type Lane,
  type LaneDepth,
  type QueueDepth,
  type QueueName,
} from './queue-driver.js';
import { REDIS_QUEUE_CLIENT, type OptionalRedisQueueClient } from './redis/redis-queue.token.js';

/** One queue across both queue systems: the legacy database queue and, when configured, BullMQ. */
export interface CombinedDepth extends QueueDepth {
  legacy: QueueDepth;
  new_queue: QueueDepth | null;
}

function emptyLanes(): Record<Lane, LaneDepth> {
  return Object.fromEntries(LANES.map((l) => [l, { queued: 0, running: 0 }])) as Record<
    Lane,
    LaneDepth
  >;
}

/** Active jobs of a lane set (queued plus running). */
export function laneTotal(depth: QueueDepth, lanes: readonly Lane[]): number {
  return lanes.reduce((n, l) => n + depth.lanes[l].queued + depth.lanes[l].running, 0);
}

/**
 * Queue depth as the admission cap and `/queue_metrics` see it. During the migration a
 * queue (`cpu`, `io`) is the sum of its legacy and new parts: both feed the same workers'
 * capacity question ("how much is waiting?"), and the cap must hold whichever way the
 * rollout ratios split the traffic.
 */
@Injectable()
export class QueueDepthService {
  constructor(
    private readonly database: DatabaseQueueDriver,
    @Inject(REDIS_QUEUE_CLIENT) private readonly redis: OptionalRedisQueueClient,
  ) {}

  async read(queue: QueueName): Promise<CombinedDepth> {
    const [legacy, newQueue] = await Promise.all([
      this.database.depth(queue),
      this.redis ? this.redis.depth(queue) : Promise.resolve(null),
    ]);
    const lanes = emptyLanes();
    for (const part of [legacy, newQueue]) {
      if (!part) continue;
      for (const lane of LANES) {
        lanes[lane].queued += part.lanes[lane].queued;
        lanes[lane].running += part.lanes[lane].running;
      }
    }
    return {
      queue,
      active: legacy.active + (newQueue?.active ?? 0),
      lanes,
      legacy,
      new_queue: newQueue,
    };
  }
}
