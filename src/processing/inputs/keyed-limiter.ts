/**
 * At most `limit` holders per key at once; the others wait in their key's own line, first
 * come first served. One key's waiting never delays another key's turn.
 */
export class KeyedLimiter {
  private readonly lines = new Map<string, { active: number; waiting: (() => void)[] }>();

  constructor(private readonly limit: number) {}

  /** Resolves with the release of a slot of `key`; rejects when `signal` aborts first. */
  acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    const line = this.lines.get(key) ?? { active: 0, waiting: [] };
    this.lines.set(key, line);
    const release = this.releaser(key, line);
    if (line.active < this.limit) {
      line.active++;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const turn = () => {
        signal?.removeEventListener('abort', onAbort);
        line.active++;
        resolve(release);
      };
      const onAbort = () => {
        const index = line.waiting.indexOf(turn);
        if (index >= 0) line.waiting.splice(index, 1);
        this.forgetIdle(key, line);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      line.waiting.push(turn);
    });
  }

  /** Holders and waiters of `key` (metrics, tests). */
  load(key: string): { active: number; waiting: number } {
    const line = this.lines.get(key);
    return { active: line?.active ?? 0, waiting: line?.waiting.length ?? 0 };
  }

  private releaser(key: string, line: { active: number; waiting: (() => void)[] }): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      line.active--;
      line.waiting.shift()?.();
      this.forgetIdle(key, line);
    };
  }

  private forgetIdle(key: string, line: { active: number; waiting: (() => void)[] }): void {
    if (line.active === 0 && line.waiting.length === 0 && this.lines.get(key) === line) {
      this.lines.delete(key);
    }
  }
}
