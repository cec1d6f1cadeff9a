/**
 * Recently verified key records by key id, so authenticating a busy key does not queue a
 * DuckDB read behind export queries on the shared reader connections. Only records are
 * cached, never verdicts: every request still compares its token with the stored hash.
 * Revocation in this process evicts at once; the TTL bounds staleness for anything else
 * (an admin CLI only writes the file directly when no server is running).
 */
export class KeyCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(keyId: string): T | undefined {
    const entry = this.entries.get(keyId);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(keyId);
      return undefined;
    }
    return entry.value;
  }

  set(keyId: string, value: T): void {
    this.entries.delete(keyId);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first entry is the oldest.
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(keyId, { value, expiresAt: this.now() + this.ttlMs });
  }

  delete(keyId: string): void {
    this.entries.delete(keyId);
  }
}
