import type { Admin } from 'kafkajs';
import type { ReadinessReport } from '../../../common/health/readiness.service.js';

export type ConsumerState = 'starting' | 'running' | 'restarting' | 'crashed' | 'stopped';

export interface PartitionLag {
  partition: number;
  /** Broker high watermark: the offset the next produced message gets. */
  highWatermark: number;
  /** Next offset this group will process (processed here, or committed by the group). */
  position: number;
  lag: number;
}

/**
 * What the usage consumer has been doing, fed by kafkajs instrumentation events, batch
 * outcomes and periodic lag measurements, and the readiness rule built on it.
 *
 * Readiness fails when the consumer crashed for good or stopped on its own, or when its
 * partitions have lag and nothing was written for `stallTimeoutMs` (the consumer that
 * stops fetching after a rebalance while staying connected), or when lag could not be
 * measured for that long. An idle consumer with no lag is making progress by definition.
 * A rebalance (or a replacement) gives the new assignment a fresh window, but such windows
 * stretch the time without progress to at most twice the stall timeout: a group that keeps
 * rebalancing while its lag stays is not making progress either (docs/decisions/0413-*).
 */
export class ConsumerProgress {
  state: ConsumerState = 'starting';
  readonly startedAt: number;
  lastBatchAt: number | null = null;
  lastFetchAt: number | null = null;
  /** Start of the current window: the last progress, or a later rebalance or replacement. */
  lastProgressAt: number;
  /** The last batch written or lag measured at zero: what no rebalance stands in for. */
  lastRealProgressAt: number;
  lastLagAt: number | null = null;
  /** Since when every lag measurement succeeded (null while the broker is unreachable). */
  lagMeasurableSince: number | null = null;
  lastError: string | null = null;
  /** Partitions assigned to this member at the last group join (null before any join). */
  assigned: Set<number> | null = null;
  private readonly processed = new Map<number, number>();
  private lagByPartition: PartitionLag[] = [];

  constructor(
    private readonly stallTimeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
    this.lastProgressAt = this.startedAt;
    this.lastRealProgressAt = this.startedAt;
  }

  onGroupJoin(partitions: number[]): void {
    this.state = 'running';
    this.assigned = new Set(partitions);
    // A rebalance is not a stall: give the new assignment a full window to show progress.
    this.lastProgressAt = Math.max(this.lastProgressAt, this.now());
  }

  /** A rejoin began (no fetches until it ends): it gets a full window, as a join does. */
  onRebalancing(): void {
    this.lastProgressAt = Math.max(this.lastProgressAt, this.now());
  }

  onFetch(): void {
    this.lastFetchAt = this.now();
  }

  onBatchWritten(partition: number, nextOffset: number): void {
    const at = this.now();
    this.lastBatchAt = at;
    this.lastProgressAt = at;
    this.lastRealProgressAt = at;
    this.lastError = null;
    this.processed.set(partition, Math.max(this.processed.get(partition) ?? 0, nextOffset));
  }

  /** A lag measurement failed: the broker (or the group coordinator) is unreachable. */
  onLagUnmeasurable(): void {
    this.lagMeasurableSince = null;
  }

  /** The consumer was replaced: the new one gets a full window to show progress. */
  onReplaced(): void {
    this.state = 'restarting';
    this.lastProgressAt = Math.max(this.lastProgressAt, this.now());
  }

  /**
   * Whether the consumer is stuck while its broker answers: it joined its group, its
   * partitions have lag, and for the whole stall timeout nothing was written, nothing was
   * fetched and lag was measurable (so not a broker outage, which kafkajs rides out by
   * itself). This is the consumer that stops fetching after a rebalance while staying
   * connected; only a new consumer gets it going again.
   */
  stalled(): boolean {
    const at = this.now();
    const since = (t: number | null) => at - (t ?? this.startedAt);
    return (
      this.state === 'running' &&
      this.ownLag() > 0 &&
      this.lagMeasurableSince !== null &&
      at - this.lagMeasurableSince > this.stallTimeoutMs &&
      at - this.lastProgressAt > this.stallTimeoutMs &&
      since(this.lastFetchAt) > this.stallTimeoutMs
    );
  }

  onBatchFailed(error: unknown): void {
    this.lastError = error instanceof Error ? error.message : String(error);
  }

  onCrash(error: unknown, restart: boolean): void {
    this.state = restart ? 'restarting' : 'crashed';
    this.lastError = error instanceof Error ? error.message : String(error);
  }

  onStop(): void {
    this.state = 'stopped';
  }

  /** Combines broker high watermarks with committed offsets and what this process wrote. */
  onLagMeasured(
    highWatermarks: Map<number, { high: number; low: number }>,
    committed: Map<number, number>,
  ): PartitionLag[] {
    const at = this.now();
    this.lastLagAt = at;
    this.lagMeasurableSince ??= at;
    this.lagByPartition = [...highWatermarks.entries()]
      .sort(([a], [b]) => a - b)
      .map(([partition, { high, low }]) => {
        const groupOffset = committed.get(partition);
        const position = Math.max(
          this.processed.get(partition) ?? 0,
          groupOffset !== undefined && groupOffset >= 0 ? groupOffset : low,
        );
        return { partition, highWatermark: high, position, lag: Math.max(0, high - position) };
      });
    if (this.state !== 'crashed' && this.state !== 'stopped' && this.ownLag() === 0) {
      this.lastProgressAt = at;
      this.lastRealProgressAt = at;
    }
    return this.lagByPartition;
  }

  /** Lag of the partitions this member owns (all partitions before the first join). */
  ownLag(): number {
    return this.lagByPartition
      .filter((p) => this.assigned === null || this.assigned.has(p.partition))
      .reduce((sum, p) => sum + p.lag, 0);
  }

  secondsSinceLastBatch(): number {
    return (this.now() - (this.lastBatchAt ?? this.startedAt)) / 1000;
  }

  readiness(): ReadinessReport {
    const at = this.now();
    const lag = this.ownLag();
    const stalledForMs = at - this.lastProgressAt;
    const noProgressForMs = at - this.lastRealProgressAt;
    const lagAgeMs = at - (this.lastLagAt ?? this.startedAt);
    const detail: Record<string, unknown> = {
      state: this.state,
      lag,
      // The lag is a measurement, not a live figure: how old it is says whether it still
      // describes the topic (during a broker outage it stops being refreshed).
      lagMeasuredSecondsAgo: this.lastLagAt === null ? null : Math.round(lagAgeMs / 1000),
      assignedPartitions: this.assigned ? [...this.assigned].sort((a, b) => a - b) : null,
      secondsSinceLastBatch: Math.round(this.secondsSinceLastBatch()),
      secondsSinceProgress: Math.round(stalledForMs / 1000),
      ...(this.lastError ? { lastError: this.lastError } : {}),
    };
    if (this.state === 'crashed') {
      return {
        ready: false,
        detail: { ...detail, reason: 'consumer crashed and will not restart' },
      };
    }
    if (this.state === 'stopped') {
      return { ready: false, detail: { ...detail, reason: 'consumer stopped' } };
    }
    if (lagAgeMs > this.stallTimeoutMs) {
      return {
        ready: false,
        detail: { ...detail, reason: `lag not measurable for ${Math.round(lagAgeMs / 1000)}s` },
      };
    }
    if (
      lag > 0 &&
      (stalledForMs > this.stallTimeoutMs || noProgressForMs > 2 * this.stallTimeoutMs)
    ) {
      const rebalanced = stalledForMs <= this.stallTimeoutMs ? ' (rebalancing meanwhile)' : '';
      return {
        ready: false,
        detail: {
          ...detail,
          reason: `no progress for ${Math.round(noProgressForMs / 1000)}s with ${lag} events of lag${rebalanced}`,
        },
      };
    }
    return { ready: true, detail };
  }
}

/** What a lag measurement reads from the broker: each partition's watermarks and the group's offsets. */
export async function topicAndGroupOffsets(
  admin: Admin,
  topic: string,
  group: string,
): Promise<{
  high: Map<number, { high: number; low: number }>;
  committed: Map<number, number>;
}> {
  const [watermarks, groupOffsets] = await Promise.all([
    admin.fetchTopicOffsets(topic),
    admin.fetchOffsets({ groupId: group, topics: [topic] }),
  ]);
  return {
    high: new Map(
      watermarks.map((w) => [w.partition, { high: Number(w.high), low: Number(w.low) }]),
    ),
    committed: new Map(
      (groupOffsets.find((t) => t.topic === topic)?.partitions ?? []).map((p) => [
        p.partition,
        Number(p.offset),
      ]),
    ),
  };
}
