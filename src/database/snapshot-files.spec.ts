import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { SnapshotFiles } from './snapshot-files.js';

const HOUR = 3_600_000;

function publishAt(files: SnapshotFiles, name: string, keep: number): void {
  fs.writeFileSync(files.temporaryPath(name), 'snapshot');
  files.publish(name, keep);
}

describe(SnapshotFiles.name, () => {
  it('names a snapshot after the newest one when the wall clock stepped back, so it is kept and current', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-snapshots-'));
    try {
      const files = new SnapshotFiles(dir, 'usage');
      const before = Date.now();
      for (let seq = 0; seq < 3; seq++) publishAt(files, files.nextName(before, seq), 3);
      // The clock steps an hour back (NTP, a restored VM): the next publication.
      const name = files.nextName(before - HOUR, 0);
      publishAt(files, name, 3);
      expect(files.current()?.name).toBe(name);
      expect(fs.existsSync(path.join(dir, name))).toBe(true);
      expect(fs.readdirSync(dir).filter((f) => f.endsWith('.duckdb'))).toHaveLength(3);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stamps a snapshot with the clock while it runs forward', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-snapshots-'));
    try {
      const files = new SnapshotFiles(dir, 'usage');
      const now = Date.now();
      expect(files.nextName(now, 0)).toBe(files.nameOf(now, 0));
      publishAt(files, files.nextName(now, 0), 3);
      expect(files.nextName(now + 1_000, 1)).toBe(files.nameOf(now + 1_000, 1));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
