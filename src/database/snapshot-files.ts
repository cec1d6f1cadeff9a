import fs from 'node:fs';
import path from 'node:path';

/**
 * The published read snapshots of one writer's DuckDB tables: `<prefix>-<ms>-<seq>.duckdb`
 * files in one directory
 * and a `CURRENT` file naming the newest complete one. A snapshot is written under a
 * temporary name and renamed once closed, and `CURRENT` is replaced by rename too, so a
 * reader never sees a half-written file.
 */
export class SnapshotFiles {
  private readonly pattern: RegExp;

  constructor(
    private readonly dir: string,
    private readonly prefix: string,
  ) {
    this.pattern = new RegExp(`^${prefix}-\\d{15}-\\d{6}\\.duckdb$`);
  }

  /** Names sort in publication order: the time, then a sequence within the millisecond. */
  nameOf(publishedAt: number, seq: number): string {
    return `${this.prefix}-${String(publishedAt).padStart(15, '0')}-${String(seq).padStart(6, '0')}.duckdb`;
  }

  /**
   * The next snapshot's name: stamped `now`, or just after the newest one in the directory
   * when the wall clock stepped back since (NTP, a restored VM). Older names are deleted by
   * their order at each publication, so a new snapshot named before them was deleted as soon
   * as it was published, while `CURRENT` named it, until the clock caught up again.
   */
  nextName(now: number, seq: number): string {
    const newest = this.newestPublishedAt();
    return this.nameOf(newest === null || now > newest ? now : newest + 1, seq);
  }

  private newestPublishedAt(): number | null {
    let newest: number | null = null;
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return null;
    }
    for (const name of names) {
      if (!this.pattern.test(name)) continue;
      const at = Number(name.slice(this.prefix.length + 1, this.prefix.length + 16));
      if (newest === null || at > newest) newest = at;
    }
    return newest;
  }

  /** Path to write the next snapshot to (not yet visible to readers). */
  temporaryPath(name: string): string {
    fs.mkdirSync(this.dir, { recursive: true });
    return path.join(this.dir, `${name}.tmp`);
  }

  /** Makes a finished snapshot the current one and deletes all but the newest `keep`. */
  publish(name: string, keep: number): void {
    fs.renameSync(path.join(this.dir, `${name}.tmp`), path.join(this.dir, name));
    const pointer = path.join(this.dir, 'CURRENT.tmp');
    fs.writeFileSync(pointer, `${name}\n`);
    fs.renameSync(pointer, path.join(this.dir, 'CURRENT'));
    // Replicas that still read an older file keep it open (unlinking does not close it).
    const snapshots = fs
      .readdirSync(this.dir)
      .filter((f) => this.pattern.test(f))
      .sort();
    for (const old of snapshots.slice(0, Math.max(0, snapshots.length - keep))) {
      fs.rmSync(path.join(this.dir, old), { force: true });
      fs.rmSync(path.join(this.dir, `${old}.wal`), { force: true });
    }
  }

  /** The current snapshot's path and name, or null before the first one. */
  current(): { name: string; file: string } | null {
    let name: string;
    try {
      name = fs.readFileSync(path.join(this.dir, 'CURRENT'), 'utf8').trim();
    } catch {
      return null;
    }
    if (!this.pattern.test(name)) return null;
    return { name, file: path.join(this.dir, name) };
  }

  /**
   * Why the directory can never show a snapshot (a file in its place, not readable), as the
   * system's error code; null when it can, including when the writer has not made it yet.
   */
  unusableDir(): string | null {
    try {
      fs.readdirSync(this.dir);
      return null;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      return code === 'ENOENT' ? null : code;
    }
  }

  /** Leftovers of a publication interrupted by a crash. */
  removeTemporaryFiles(): void {
    if (!fs.existsSync(this.dir)) return;
    for (const f of fs.readdirSync(this.dir)) {
      if (f.endsWith('.tmp') || f.endsWith('.tmp.wal')) fs.rmSync(path.join(this.dir, f));
    }
  }
}
