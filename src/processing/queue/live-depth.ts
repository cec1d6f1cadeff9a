import { type LaneDepth, type QueueDepth } from './queue-task.js';
import { LANES, type Lane, type QueueName } from '../../config/queue.types.js';

type LaneCounts = Record<Lane, LaneDepth>;

export function emptyLanes(): LaneCounts {
  return Object.fromEntries(LANES.map((l) => [l, { queued: 0, running: 0 }])) as LaneCounts;
}

function copy(lanes: LaneCounts): LaneCounts {
  return Object.fromEntries(LANES.map((l) => [l, { ...lanes[l] }])) as LaneCounts;
}

/**
 * Queued and running counts of one queue system's queues, kept in memory in step with its
 * transitions (enqueue, claim, finish), so the admission cap reads a depth in microseconds
 * and never waits behind the store. `reconcile` replaces them with the store's counts
 * plus the increments made while the store was read, so drift (a crash between commit and
 * count, a task changed outside this process) lasts one interval.
 *
 * Only increments are carried over: the read may or may not have seen a transition made
 * during it, so counting an increment it saw twice errs high (the cap refuses one request
 * too many until the next reconcile), while subtracting a decrement it saw twice (a job
 * finishing during the read) would err low and let the cap admit past its limit.
 */
export class LiveDepth {
  private readonly counts: Record<QueueName, LaneCounts> = { cpu: emptyLanes(), io: emptyLanes() };
  /** When the counts were last known to match the store (ms epoch), 0 before the first read. */
  private verifiedAt = 0;

  /** Increments made since the store read under way began; null when none is. */
  private duringRead: Record<QueueName, LaneCounts> | null = null;

  add(queue: QueueName, lane: Lane, queued: number, running: number): void {
    const during = this.duringRead?.[queue][lane];
    if (during) {
      during.queued += Math.max(0, queued);
      during.running += Math.max(0, running);
    }
    const counts = this.counts[queue][lane];
    counts.queued = Math.max(0, counts.queued + queued);
    counts.running = Math.max(0, counts.running + running);
  }

  depth(queue: QueueName): QueueDepth {
    const lanes = copy(this.counts[queue]);
    const active = LANES.reduce((n, l) => n + lanes[l].queued + lanes[l].running, 0);
    return { queue, active, lanes };
  }

  /** Ms since the counts last matched the store; Infinity before the first reconcile. */
  age(now = Date.now()): number {
    return this.verifiedAt === 0 ? Infinity : now - this.verifiedAt;
  }

  private reconciling: Promise<void> | null = null;

  /**
   * Reads the store's counts of every queue and adopts them (increments meanwhile kept).
   * While a read is under way (a hung store), callers share it instead of piling up more.
   */
  reconcile(read: (queue: QueueName) => Promise<QueueDepth>): Promise<void> {
    this.reconciling ??= this.readAndAdopt(read).finally(() => {
      this.reconciling = null;
    });
    return this.reconciling;
  }

  private async readAndAdopt(read: (queue: QueueName) => Promise<QueueDepth>): Promise<void> {
    const queues = Object.keys(this.counts) as QueueName[];
    const during = { cpu: emptyLanes(), io: emptyLanes() };
    this.duringRead = during;
    const started = Date.now();
    try {
      const stored = await Promise.all(queues.map((q) => read(q)));
      stored.forEach((depth, i) => {
        const queue = queues[i];
        for (const lane of LANES) {
          this.counts[queue][lane] = {
            queued: depth.lanes[lane].queued + during[queue][lane].queued,
            running: depth.lanes[lane].running + during[queue][lane].running,
          };
        }
      });
    } finally {
      this.duringRead = null;
    }
    this.verifiedAt = started;
  }
}
