import fs from 'node:fs';
import path from 'node:path';

/** Bits that let other users (group, others) read, write or enter. */
const SHARED_BITS = 0o077;

/** What making a data directory private changed: the paths whose modes were tightened. */
interface PrivateDataDirReport {
  dir: string;
  /** The directory itself was open to other users (reported as a warning at start). */
  wasShared: boolean;
  tightened: string[];
}

/**
 * Makes everything this process writes private to its user (umask 0077: folders 0700, files
 * 0600, DuckDB's database, log and temporary files included) and tightens what an earlier
 * version or an operator left open: the directory itself, its entries, and every folder
 * below an open one. Tenants' documents, results and the secrets in the database file
 * (session and signing keys) must not be readable by other local users.
 */
export function makeDataDirPrivate(
  dir: string,
  extraFiles: readonly string[] = [],
): PrivateDataDirReport {
  process.umask(0o077);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tightened: string[] = [];
  const wasShared = (fs.statSync(dir).mode & SHARED_BITS) !== 0;
  const tighten = (entry: string, stat: fs.Stats): void => {
    if ((stat.mode & SHARED_BITS) === 0) return;
    fs.chmodSync(entry, stat.mode & 0o700);
    tightened.push(entry);
  };
  const visit = (folder: string, deep: boolean): void => {
    for (const name of fs.readdirSync(folder)) {
      const entry = path.join(folder, name);
      const stat = fs.lstatSync(entry, { throwIfNoEntry: false });
      if (!stat || stat.isSymbolicLink()) continue;
      const wasOpen = (stat.mode & SHARED_BITS) !== 0;
      tighten(entry, stat);
      // Below a private folder nobody else can reach an entry: walk only open ones, or
      // everything once the data dir itself was open.
      if (stat.isDirectory() && (deep || wasOpen)) visit(entry, deep);
    }
  };
  tighten(dir, fs.statSync(dir));
  visit(dir, wasShared);
  for (const file of extraFiles) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat) tighten(file, stat);
  }
  return { dir, wasShared, tightened };
}
