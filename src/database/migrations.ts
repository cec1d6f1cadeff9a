import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BlobStore, FileBlobStore, blobRootOf } from './blob-store.js';
import type { DuckDbService } from './duckdb.service.js';
import { DATA_MIGRATIONS } from './data-migrations.js';

/** `sql/` at the repository root, found from both `src/` (tests) and `dist/src/` (build). */
export function findSqlDirectory(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'sql');
    if (fs.existsSync(path.join(candidate, '001_schema_migrations.sql'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('sql/ migrations directory not found');
}

const MIGRATION_FILE = /^(\d{3})_[a-z0-9_]+\.sql$/;

/**
 * Applies the numbered files of `sql/` that this database has not seen yet, each in its
 * own transaction together with its row in `schema_migrations`, so a restart on an
 * existing file applies nothing twice and a failed migration leaves no half-state.
 * A file with a data step (DATA_MIGRATIONS: rows moved to files) commits its SQL first,
 * then runs the step, then records its row: a step interrupted by a crash runs again at
 * the next start and carries on where it stopped (its SQL is written to run twice).
 * Plain code (no Nest): the server runs it through `MigrationRunner`, docproc-admin's
 * direct path calls it as is. `onApplied` hears each file applied.
 */
export async function applyMigrations(
  db: DuckDbService,
  onApplied: (file: string) => void = () => undefined,
  directory = findSqlDirectory(),
  blobs: BlobStore = new FileBlobStore(blobRootOf(db.dataDir)),
): Promise<string[]> {
  const files = fs
    .readdirSync(directory)
    .filter((name) => MIGRATION_FILE.test(name))
    .sort();
  await db.run(fs.readFileSync(path.join(directory, files[0]), 'utf8'));
  const applied = new Set(
    (await db.all<{ version: string }>('SELECT version FROM schema_migrations')).map(
      (r) => r.version,
    ),
  );
  const newlyApplied: string[] = [];
  for (const file of files) {
    const version = file.slice(0, 3);
    if (applied.has(version)) continue;
    const sql = fs.readFileSync(path.join(directory, file), 'utf8');
    const record = (tx: { run: DuckDbService['run'] }) =>
      tx.run('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [version, file]);
    const dataStep = DATA_MIGRATIONS[version];
    if (dataStep) {
      await db.transaction((tx) => tx.run(sql));
      await dataStep(db, blobs);
      await record(db);
    } else {
      await db.transaction(async (tx) => {
        await tx.run(sql);
        await record(tx);
      });
    }
    newlyApplied.push(file);
    onApplied(file);
  }
  return newlyApplied;
}
