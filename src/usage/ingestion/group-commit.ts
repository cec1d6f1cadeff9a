interface Pending<G, R> {
  group: G;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Group commit: writes submitted while a write is running are merged into the next one.
 * DuckDB has one writer, and a transaction's fixed cost (a dozen statements, the commit)
 * is the same for 5 k events as for 50 k; so the partitions of a busy consumer share
 * transactions, while a quiet one still writes each batch at once. When a merged write
 * fails, its groups are retried one by one, so one bad group cannot fail the others.
 */
export class GroupCommit<G extends { readonly length: number }, R> {
  private readonly queue: Pending<G, R>[] = [];
  private writing = false;

  constructor(
    /** Writes the groups in one transaction; returns one result per group, in order. */
    private readonly write: (groups: G[]) => Promise<R[]>,
    /** A merged write takes groups until their lengths add up to this (always at least one group). */
    private readonly maxItems: number,
  ) {}

  submit(group: G): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ group, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) await this.writeNext(this.takeGroup());
    } finally {
      this.writing = false;
    }
  }

  private takeGroup(): Pending<G, R>[] {
    const taken = [this.queue.shift()!];
    let size = taken[0].group.length;
    while (this.queue.length > 0 && size + this.queue[0].group.length <= this.maxItems) {
      const next = this.queue.shift()!;
      size += next.group.length;
      taken.push(next);
    }
    return taken;
  }

  private async writeNext(taken: Pending<G, R>[]): Promise<void> {
    try {
      const results = await this.write(taken.map((p) => p.group));
      taken.forEach((p, i) => p.resolve(results[i]));
    } catch (error) {
      if (taken.length === 1) {
        taken[0].reject(error);
        return;
      }
      for (const pending of taken) await this.writeNext([pending]);
    }
  }
}
