/**
 * The `cpu` loops kept for priority-lane work (sync requests, by default), one rule for the
 * database queue's `worker` loops (LegacyWorkers) and a Redis worker process's cpu slots
 * (BullPriorityReserve). A running task is never interrupted, and each loop runs its task on
 * one of the process's executors, so once every loop held another organization's long async
 * task, a sync request waited for the first of them to end (seconds per multi-page
 * document) however high its lane. While priority work was seen within the hold, standard and
 * batch work may hold at most `loops - reserved` loops; the others take priority work only, so
 * it starts at once. Out of the hold every loop takes any lane again: a burst alone keeps
 * every executor, and the executors (the memory budget) stay as many as the loops.
 *
 * Loops ask before each claim (`admitLower`), on the event loop's one thread, so two loops
 * claiming at once never both take the last lower-lane loop.
 */
export class PriorityReserve {
  private readonly reserved: number;
  /** Loops holding (or claiming for) standard or batch work. */
  private lowerLane = 0;
  private heldUntil = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly loops: number,
    reserved: number,
    private readonly holdMs: number,
    private readonly now: () => number = Date.now,
  ) {
    // A reserve of every loop would leave standard work nothing.
    this.reserved = Math.max(0, Math.min(reserved, loops - 1));
  }

  /** Priority-lane work was queued or claimed: the reserve holds for the next holdMs. */
  sawPriorityWork(): void {
    if (this.reserved > 0) this.heldUntil = this.now() + this.holdMs;
  }

  /** Milliseconds until the reserve lapses, null when it does not hold. */
  holdsFor(): number | null {
    const left = this.heldUntil - this.now();
    return this.reserved > 0 && left > 0 ? left : null;
  }

  /**
   * Whether the next claim may take standard or batch work; when true, a lower-lane loop is
   * taken, to give back with `releaseLowerLane` (the claim found priority work or nothing,
   * or its lower-lane task ended).
   */
  admitLower(): boolean {
    const limit = this.holdsFor() === null ? this.loops : this.loops - this.reserved;
    if (this.lowerLane >= limit) return false;
    this.lowerLane++;
    return true;
  }

  releaseLowerLane(): void {
    this.lowerLane = Math.max(0, this.lowerLane - 1);
  }
}
