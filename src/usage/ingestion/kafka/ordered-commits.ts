/**
 * The batches a consumer has handed to the writer but not yet committed, chained per
 * partition so each batch's follow-up (dead letters, offset commit) runs only after its own
 * write AND every earlier batch of its partition finished: offsets move in order, and never
 * past a batch whose write or dead letters failed.
 *
 * The first failure poisons the partition's chain (later batches' follow-ups never run) and
 * is reported once through `onFailure`, whose job is to make the consumer fetch again from
 * the committed offsets; an instance is then spent, the next consumer gets a fresh one.
 * `maxPendingEvents` bounds the events held between fetch and commit (memory, redelivery
 * after a crash).
 */
export class OrderedCommits {
  private readonly tails = new Map<number, Promise<void>>();
  private pendingEvents = 0;
  private waiters: (() => void)[] = [];
  private failed = false;

  constructor(
    private readonly maxPendingEvents: number,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  get pending(): number {
    return this.pendingEvents;
  }

  /** Runs `afterWrite` once `written` settled and the partition's earlier batches are done. */
  add(
    partition: number,
    events: number,
    written: Promise<unknown>,
    afterWrite: () => Promise<void>,
  ): void {
    this.pendingEvents += events;
    const previous = this.tails.get(partition) ?? Promise.resolve();
    const tail = Promise.all([previous, written]).then(() => {
      if (!this.failed) return afterWrite();
    });
    this.tails.set(partition, tail);
    void tail
      .catch((error: unknown) => this.fail(error))
      .finally(() => {
        this.pendingEvents -= events;
        if (this.pendingEvents <= this.maxPendingEvents) this.wake();
      });
  }

  /** Resolves once the pending events fit the bound again (or the chain failed). */
  async room(): Promise<void> {
    while (!this.failed && this.pendingEvents > this.maxPendingEvents) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Resolves once every batch added so far settled. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.tails.values()]);
  }

  private fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.wake();
    this.onFailure(error);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
