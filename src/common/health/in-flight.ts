/**
 * Something that runs tasks and can tell the age of its oldest one (ms, -1 when idle). Ages
 * are read on the monotonic clock (`performance.now()`): a step of the wall clock (NTP, a
 * resumed VM) must not make a task look stuck for the liveness probe, which restarts the
 * worker, nor hide one that is.
 */
export interface InFlightSource {
  oldestInFlightMs(): number;
}

/** Tasks this process runs right now, by id, with their start times. */
export class InFlightTracker implements InFlightSource {
  private readonly started = new Map<string, number>();

  begin(id: string): void {
    this.started.set(id, performance.now());
  }

  end(id: string): void {
    this.started.delete(id);
  }

  get size(): number {
    return this.started.size;
  }

  ids(): string[] {
    return [...this.started.keys()];
  }

  oldestInFlightMs(): number {
    const now = performance.now();
    let oldest = -1;
    for (const at of this.started.values()) oldest = Math.max(oldest, now - at);
    return oldest;
  }
}
