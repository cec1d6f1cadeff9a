/**
 * A small bounded map whose entries expire, for facts the request path would otherwise
 * read from DuckDB on every request (key records, memberships, metadata-key status):
 * each such read queues behind export queries on the shared reader connections. Owners
 * evict on the changes they make; the TTL bounds staleness for anything else (the admin
 * CLI only writes the file directly when no server is running).
 *
 * An owner that passes `reload` to `get` has a used entry read again ahead of its expiry:
 * past half its TTL, a hit still answers at once and starts one background reload, whose
 * value replaces the entry (undefined drops it). A busy key, membership or metadata key
 * then never expires on a request's path, which otherwise paid a DuckDB read once a TTL
 * (docs/decisions/0439-request-path-facts-read-again-ahead-of-expiry.md). Staleness is
 * bounded as before: an entry is served at most the TTL after the read it holds.
 */
export class TtlCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The live value of `key`. With `reload`, an entry past half its TTL is read again in the
   * background (once per entry); the result is dropped when the entry was set or deleted
   * meanwhile (a change made in this process wins over an older read), and a failed reload
   * leaves the entry to expire.
   */
  get(key: string, reload?: () => Promise<T | undefined>): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    if (reload && !entry.reloading && entry.expiresAt - now <= this.ttlMs / 2) {
      entry.reloading = true;
      void reload().then(
        (value) => {
          if (this.entries.get(key) !== entry) return;
          if (value === undefined) this.entries.delete(key);
          else this.set(key, value);
        },
        () => undefined,
      );
    }
    return entry.value;
  }

  set(key: string, value: T): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first entry is the oldest.
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs, reloading: false });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

interface Entry<T> {
  value: T;
  expiresAt: number;
  /** A background reload of this entry was started (at most one per entry). */
  reloading: boolean;
}
