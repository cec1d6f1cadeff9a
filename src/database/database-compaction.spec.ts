import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../config/app-config.js';
import type { AppConfig } from '../config/app-config.js';
import { compactDatabase } from './database-compaction.js';
import { DuckDbService } from './duckdb.service.js';
import { applyMigrations } from './migrations.js';

/** About 1 KB of text that does not compress, different in each row `i`. */
const PAD = Array.from({ length: 30 }, (_, j) => `md5(i || '-${j}')`).join(' || ');

/** Every table's row count, every index and the queue sequence's next value. */
async function contents(db: DuckDbService) {
  const tables = await db.all<{ name: string }>(
    `SELECT table_name AS name FROM duckdb_tables() WHERE database_name = current_database()
     ORDER BY table_name`,
  );
  const rows: Record<string, number> = {};
  for (const { name } of tables) {
    rows[name] = Number((await db.all<{ n: bigint }>(`SELECT count(*) AS n FROM "${name}"`))[0].n);
  }
  const indexes = await db.all<{ index_name: string; sql: string }>(
    `SELECT index_name, sql FROM duckdb_indexes() WHERE database_name = current_database()
     ORDER BY index_name`,
  );
  const constraints = await db.all<{ table_name: string; constraint_type: string }>(
    `SELECT table_name, constraint_type FROM duckdb_constraints()
     WHERE database_name = current_database() ORDER BY ALL`,
  );
  return { rows, indexes, constraints };
}

describe(compactDatabase.name, () => {
  let dir: string;
  let config: AppConfig;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-compact-'));
    config = loadConfig({ DATA_DIR: dir });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives back the space of deleted jobs and keeps every row, index, constraint and sequence', async () => {
    const db = new DuckDbService(config);
    await db.open();
    await applyMigrations(db);
    await db.run(
      `INSERT INTO processing_jobs (job_id, org_id, api_key_id, type, status, is_async, request, created_at)
       SELECT 'job-' || i, 'org', 'key', 'classify', 'completed', true,
         json_object('pad', ${PAD}), now()
       FROM range(60000) t(i)`,
    );
    await db.run(`DELETE FROM processing_jobs WHERE CAST(substr(job_id, 5) AS INTEGER) < 50000`);
    // Rows with foreign keys, whose tables must be filled after those they refer to.
    await db.run(`INSERT INTO organizations (id, name) VALUES ('org_a', 'A')`);
    await db.run(`INSERT INTO users (id, email) VALUES ('usr_a', 'a@example.com')`);
    await db.run(
      `INSERT INTO memberships (org_id, user_id, role) VALUES ('org_a', 'usr_a', 'owner')`,
    );
    const [{ last }] = await db.all<{ last: bigint }>(
      `SELECT max(nextval('queue_tasks_seq')) AS last FROM range(5)`,
    );
    await db.run('CHECKPOINT');
    const before = await contents(db);
    db.onApplicationShutdown();

    const report = await compactDatabase(config);

    expect(report.bytesAfter).toBeLessThan(report.bytesBefore / 2);
    expect(fs.statSync(config.databaseFile).size).toBe(report.bytesAfter);
    expect(fs.statSync(report.previousFile).size).toBe(report.bytesBefore);
    const reopened = new DuckDbService(config);
    await reopened.open();
    try {
      expect(await contents(reopened)).toEqual(before);
      expect(before.rows.processing_jobs).toBe(10000);
      const [{ next }] = await reopened.all<{ next: bigint }>(
        `SELECT nextval('queue_tasks_seq') AS next`,
      );
      expect(Number(next)).toBe(Number(last) + 1);
      await expect(
        reopened.run(
          `INSERT INTO processing_jobs (job_id, org_id, api_key_id, type, status, is_async, request, created_at)
           VALUES ('job-59999', 'org', 'key', 'classify', 'completed', true, '{}', now())`,
        ),
      ).rejects.toThrow(/[Dd]uplicate key/);
      // Nothing more to apply: the copy carries schema_migrations.
      expect(await applyMigrations(reopened)).toEqual([]);
    } finally {
      reopened.onApplicationShutdown();
    }
  });

  it('refuses to run while the file a former compaction kept is still there', async () => {
    const db = new DuckDbService(config);
    await db.open();
    await applyMigrations(db);
    db.onApplicationShutdown();
    const { previousFile } = await compactDatabase(config);
    await expect(compactDatabase(config)).rejects.toThrow(/left from an earlier compaction/);
    fs.rmSync(previousFile);
    await expect(compactDatabase(config)).resolves.toMatchObject({ file: config.databaseFile });
  });
});
