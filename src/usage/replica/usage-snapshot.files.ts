import fs from 'node:fs';
import path from 'node:path';

/**
 * The published snapshots of one writer: `usage-<ms>-<seq>.duckdb` files in one directory
 * and a `CURRENT` file naming the newest complete one. A snapshot is written under a
 * temporary name and renamed once closed, and `CURRENT` is replaced by rename too, so a
 * reader never sees a half-written file.
 */
export class UsageSnapshotFiles {
  constructor(private readonly dir: string) {}

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
      .filter((f) => SNAPSHOT_FILE.test(f))
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
    if (!SNAPSHOT_FILE.test(name)) return null;
    return { name, file: path.join(this.dir, name) };
  }

  /** Leftovers of a publication interrupted by a crash. */
  removeTemporaryFiles(): void {
    if (!fs.existsSync(this.dir)) return;
    for (const f of fs.readdirSync(this.dir)) {
      if (f.endsWith('.tmp') || f.endsWith('.tmp.wal')) fs.rmSync(path.join(this.dir, f));
    }
  }
}

/** Names sort in publication order: the time, then a sequence within the millisecond. */
export function snapshotName(publishedAt: number, seq: number): string {
  return `usage-${String(publishedAt).padStart(15, '0')}-${String(seq).padStart(6, '0')}.duckdb`;
}

const SNAPSHOT_FILE = /^usage-\d{15}-\d{6}\.duckdb$/;
