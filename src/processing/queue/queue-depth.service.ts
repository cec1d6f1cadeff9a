import { Inject, Injectable } from '@nestjs/common';
import { DatabaseQueueRepository } from './db/database-queue.repository.js';
import { emptyLanes, LiveDepth } from './live-depth.js';
import { type QueueDepth } from './queue-task.js';
import { LANES, type Lane, type QueueName } from '../../config/queue.types.js';
import { withTimeout } from './redis/redis-connection.js';
import { REDIS_QUEUE_CLIENT, type OptionalRedisQueueClient } from './redis/redis-queue.token.js';

/** One queue across both queue systems: the legacy database queue and, when configured, BullMQ. */
export interface CombinedDepth extends QueueDepth {
  legacy: QueueDepth;
  new_queue: QueueDepth | null;
}

/** Active jobs of a lane set (queued plus running). */
export function laneTotal(depth: QueueDepth, lanes: readonly Lane[]): number {
  return lanes.reduce((n, l) => n + depth.lanes[l].queued + depth.lanes[l].running, 0);
}

/** Sums the legacy and new-queue parts of one queue. */
function combine(queue: QueueName, legacy: QueueDepth, newQueue: QueueDepth | null): CombinedDepth {
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

/** Which part of the depth a reconcile could not read. */
type DepthPart = 'database' | 'redis';

/**
 * Queue depth as the admission cap and `/queue_metrics` see it. During the migration a
 * queue (`cpu`, `io`) is the sum of its legacy and new parts: both feed the same workers'
 * capacity question ("how much is waiting?"), and the cap must hold whichever way the
 * rollout ratios split the traffic.
 *
 * `live` is what the cap reads: in-memory counts, no I/O. The database part follows every
 * enqueue, claim and finish of DatabaseQueueRepository; the new-queue part is the last Redis
 * count plus the dispatches since (finished ones drop out at the next reconcile, so it errs
 * high). `reconcile` re-reads both stores off the request path.
 */
@Injectable()
export class QueueDepthService {
  private readonly newQueue = new LiveDepth();

  constructor(
    private readonly database: DatabaseQueueRepository,
    @Inject(REDIS_QUEUE_CLIENT) private readonly redis: OptionalRedisQueueClient,
  ) {}

  /** The store read (for `/queue_metrics`). */
  async read(queue: QueueName): Promise<CombinedDepth> {
    const [legacy, newQueue] = await Promise.all([
      this.database.depth(queue),
      this.redis ? this.redis.depth(queue) : Promise.resolve(null),
    ]);
    return combine(queue, legacy, newQueue);
  }

  /**
   * The in-memory depth, or null when it cannot be trusted: never read from the stores yet
   * (start-up), or the Redis part not reconciled within `maxAgeMs`. The database part does
   * not go stale: this process alone writes the database queue (DuckDB is single-process)
   * and its counts are those writes; a reconcile that waits behind a burst of reads only
   * corrects drift later.
   */
  live(queue: QueueName, maxAgeMs: number): CombinedDepth | null {
    const now = Date.now();
    if (this.database.live.age(now) === Infinity) return null;
    if (this.redis && this.newQueue.age(now) > maxAgeMs) return null;
    return combine(
      queue,
      this.database.live.depth(queue),
      this.redis ? this.newQueue.depth(queue) : null,
    );
  }

  /** A job handed to the new queue system (counted until the next Redis count includes it). */
  noteDispatched(queue: QueueName, lane: Lane): void {
    this.newQueue.add(queue, lane, 1, 0);
  }

  /**
   * Re-reads each part from its store, each bounded by `timeoutMs`. Resolves with the parts
   * that failed or timed out (their live counts keep following transitions meanwhile).
   */
  async reconcile(timeoutMs: number): Promise<{ part: DepthPart; error: string }[]> {
    const parts: [DepthPart, Promise<void>][] = [
      ['database', this.database.live.reconcile((q) => this.database.depth(q))],
    ];
    const redis = this.redis;
    if (redis) parts.push(['redis', this.newQueue.reconcile((q) => redis.depth(q))]);
    const failures: { part: DepthPart; error: string }[] = [];
    await Promise.all(
      parts.map(([part, work]) =>
        withTimeout(work, timeoutMs, `${part} queue depth read`).catch((error: unknown) => {
          failures.push({ part, error: error instanceof Error ? error.message : String(error) });
        }),
      ),
    );
    return failures;
  }
}
