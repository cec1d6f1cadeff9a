import { Logger } from '@nestjs/common';
import type { Consumer } from 'kafkajs';
import type { Gauge } from 'prom-client';
import type { StorageReserve } from '../../../database/storage-reserve.js';

/** `requested`: shutdown, operations, specs; `storage`: the data volume below its reserve. */
export type PauseReason = 'requested' | 'storage';

/**
 * Why the usage consumer is not fetching. Each reason is held and released on its own;
 * fetching resumes only when none is left, so space coming back does not undo a shutdown's
 * pause. Offsets stay where they are: what was fetched and not written is fetched again
 * after the pause.
 */
export class ConsumerPause {
  private readonly reasons = new Set<PauseReason>();

  constructor(
    private readonly topic: () => string,
    private readonly onDeferred: (error: unknown) => void,
  ) {}

  get active(): boolean {
    return this.reasons.size > 0;
  }

  /** The reasons held, in a stable order (readiness, metrics). */
  get held(): PauseReason[] {
    return [...this.reasons].sort();
  }

  has(reason: PauseReason): boolean {
    return this.reasons.has(reason);
  }

  /** Holds `reason`; true when it was not held yet. */
  hold(reason: PauseReason, consumer: Consumer | null): boolean {
    if (this.reasons.has(reason)) return false;
    this.reasons.add(reason);
    if (consumer) this.apply(consumer);
    return true;
  }

  /** Releases `reason`; fetching resumes when it was the last. True when it was held. */
  release(reason: PauseReason, consumer: Consumer | null): boolean {
    if (!this.reasons.delete(reason)) return false;
    if (!this.active) consumer?.resume([{ topic: this.topic() }]);
    return true;
  }

  /**
   * Pauses `consumer` when a reason is held. Called again at each group join: kafkajs
   * restarts a crashed consumer with a new group state, which forgets a pause, and before
   * its first join it cannot pause at all (it throws; the join pauses it).
   */
  apply(consumer: Consumer): void {
    if (!this.active) return;
    try {
      consumer.pause([{ topic: this.topic() }]);
    } catch (error) {
      this.onDeferred(error);
    }
  }
}

const logger = new Logger('UsageKafkaConsumer');

/**
 * Ingestion writes to the DuckDB file like any job, and DuckDB that runs out of space
 * mid-write aborts the process: while the data volume is below `DATA_DIR_MIN_FREE_MB` the
 * consumer holds `storage` (the batches in hand finish and commit; the rest waits in Kafka,
 * uncommitted) and releases it when space is back, logging each change once and showing
 * it on `gauge`.
 */
export function pauseWhileStorageLow(
  pauses: ConsumerPause,
  storage: StorageReserve,
  consumer: () => Consumer | null,
  gauge: Gauge<'reason'>,
): void {
  const follow = (low: boolean): void => {
    const changed = low
      ? pauses.hold('storage', consumer())
      : pauses.release('storage', consumer());
    if (!changed) return;
    gauge.set({ reason: 'storage' }, low ? 1 : 0);
    if (low) {
      logger.error(
        'usage ingestion paused: free disk space below DATA_DIR_MIN_FREE_MB; events wait in Kafka',
      );
    } else logger.log('usage ingestion resumed: free disk space back above DATA_DIR_MIN_FREE_MB');
  };
  gauge.set({ reason: 'storage' }, 0);
  storage.onLowChange(follow);
  if (storage.isLow()) follow(true);
}
