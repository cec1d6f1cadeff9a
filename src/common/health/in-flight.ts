/** Something that runs tasks and can tell the age of its oldest one (ms, -1 when idle). */
export interface InFlightSource {
  oldestInFlightMs(now?: number): number;
}

/** Tasks this process runs right now, by id, with their start times. */
export class InFlightTracker implements InFlightSource {
  private readonly started = new Map<string, number>();

  begin(id: string): void {
    this.started.set(id, Date.now());
  }

  end(id: string): void {
    this.started.delete(id);
  }

  get size(): number {
    return this.started.size;
  }

  oldestInFlightMs(now = Date.now()): number {
    let oldest = -1;
    for (const at of this.started.values()) oldest = Math.max(oldest, now - at);
    return oldest;
  }
}
