import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../config/app-config.js';
import { DuckDbService } from './duckdb.service.js';

/** What a compaction did: the sizes before and after, and where the former file was kept. */
export interface CompactionReport {
  file: string;
  bytesBefore: number;
  bytesAfter: number;
  seconds: number;
  /** The former file, kept until the operator has seen the server start on the new one. */
  previousFile: string;
}

/** The suffix of the copy being written, beside the database file. */
const COMPACTING = '.compacting';
/** The suffix of the former file once the copy replaced it. */
const BEFORE_COMPACT = '.before-compact';

/**
 * Rewrites the database file without the space deleted rows left behind. DuckDB reuses
 * little of it: a table with indexes (every job table) keeps the storage of its deleted
 * rows, so a file whose jobs leave at retention still grows with every job ever written
 * (docs/benchmarks.md, "Job history retention"). A copy into a fresh file holds the live
 * rows alone. Runs with no server on the file (DuckDB allows one writer; the caller's open
 * fails on the lock otherwise): the copy is written beside the file, then takes its name,
 * and the former file stays as `<file>.before-compact` until the operator deletes it.
 */
export async function compactDatabase(config: AppConfig): Promise<CompactionReport> {
  const file = config.databaseFile;
  if (file === ':memory:')
    throw new Error('DATABASE_FILE is :memory:; there is no file to compact');
  if (!fs.existsSync(file)) throw new Error(`${file} does not exist; there is nothing to compact`);
  const started = Date.now();
  const copy = `${file}${COMPACTING}`;
  const previousFile = `${file}${BEFORE_COMPACT}`;
  if (fs.existsSync(previousFile)) {
    throw new Error(
      `${previousFile} is left from an earlier compaction: delete it (once the server started on ${path.basename(file)}) and run again`,
    );
  }
  // A copy an interrupted run left: written again from the start.
  for (const stale of [copy, `${copy}.wal`]) fs.rmSync(stale, { force: true });

  const db = new DuckDbService(config);
  await db.open();
  let bytesBefore: number;
  try {
    await db.run('CHECKPOINT');
    bytesBefore = fs.statSync(file).size;
    await db.run(`ATTACH '${copy.replaceAll("'", "''")}' AS compacted`);
    await copyInto(db, 'compacted');
    await db.run('DETACH compacted');
  } finally {
    db.onApplicationShutdown();
  }
  // Closing checkpoints: a log left beside the file would hold writes the copy may lack.
  if (fs.existsSync(`${file}.wal`)) {
    fs.rmSync(copy, { force: true });
    throw new Error(`${file}.wal is left after closing the file; nothing was changed`);
  }
  fs.renameSync(file, previousFile);
  fs.renameSync(copy, file);
  syncDirectory(path.dirname(file));
  return {
    file,
    bytesBefore,
    bytesAfter: fs.statSync(file).size,
    seconds: (Date.now() - started) / 1000,
    previousFile,
  };
}

/**
 * The database's schema (tables, indexes, constraints, sequences at their current values)
 * into the attached `target`, then each table's rows, every table after the tables its
 * foreign keys refer to: `COPY FROM DATABASE` copies rows in its own order and fails on
 * a membership copied before its user.
 */
async function copyInto(db: DuckDbService, target: string): Promise<void> {
  const [{ source }] = await db.all<{ source: string }>('SELECT current_database() AS source');
  await db.run(`COPY FROM DATABASE ${quoted(source)} TO ${quoted(target)} (SCHEMA)`);
  const tables = await db.all<{ schema_name: string; table_name: string }>(
    `SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = $1`,
    [source],
  );
  const references = await db.all<{ table_name: string; referenced_table: string }>(
    `SELECT table_name, referenced_table FROM duckdb_constraints()
     WHERE database_name = $1 AND constraint_type = 'FOREIGN KEY'`,
    [source],
  );
  const copied = new Set<string>();
  while (copied.size < tables.length) {
    const ready = tables.filter(
      ({ table_name }) =>
        !copied.has(table_name) &&
        references.every(
          (r) =>
            r.table_name !== table_name ||
            r.referenced_table === table_name ||
            copied.has(r.referenced_table),
        ),
    );
    if (ready.length === 0) throw new Error('the foreign keys of the database refer in a circle');
    for (const { schema_name, table_name } of ready) {
      const name = `${quoted(schema_name)}.${quoted(table_name)}`;
      await db.run(`INSERT INTO ${quoted(target)}.${name} SELECT * FROM ${quoted(source)}.${name}`);
      copied.add(table_name);
    }
  }
}

function quoted(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/** The renames survive a power cut once the folder holding them is flushed. */
function syncDirectory(directory: string): void {
  const fd = fs.openSync(directory, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
