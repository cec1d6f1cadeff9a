import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../config/app-config.js';
import { duckdb } from './duckdb-api.js';
import { DuckDbService } from './duckdb.service.js';

/**
 * A start that replays a log left by a process that never checkpointed (kill -9, a crash):
 * the rows it replays must reach the secondary indexes before anything is checkpointed, or a
 * later delete of such a row fails fatally and the store is lost until the next start, at
 * every start again. Real DuckDB files, each step its own instance, as separate processes.
 */
describe('DuckDbService opening a file with a log to replay', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-log-replay-'));
    file = path.join(dir, 'docproc.duckdb');
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `statements` on a bare instance of the file, closed without its checkpoint. */
  async function withoutShutdownCheckpoint(statements: string[]): Promise<void> {
    const instance = await duckdb.DuckDBInstance.create(file);
    const connection = await instance.connect();
    await connection.run('PRAGMA disable_checkpoint_on_shutdown');
    for (const sql of statements) await connection.run(sql);
    connection.closeSync();
    instance.closeSync();
  }

  it('writes the replayed rows into the secondary indexes, so deleting them later works', async () => {
    await withoutShutdownCheckpoint([
      'CREATE TABLE pipelines (pipeline_id VARCHAR PRIMARY KEY, org_id VARCHAR NOT NULL, created_at TIMESTAMPTZ NOT NULL)',
      'CREATE INDEX pipelines_by_org ON pipelines (org_id, created_at)',
      'CHECKPOINT',
      "INSERT INTO pipelines VALUES ('pl_1', 'org_1', now())",
    ]);
    expect(fs.existsSync(`${file}.wal`)).toBe(true);

    // The next start replays the log and stops cleanly before anything uses the index.
    const service = new DuckDbService(loadConfig({ DATA_DIR: dir }));
    await service.open();
    expect(await service.all('SELECT pipeline_id FROM pipelines')).toEqual([
      { pipeline_id: 'pl_1' },
    ]);
    service.onApplicationShutdown();
    expect(fs.existsSync(`${file}.wal`)).toBe(false);

    // A start after it deletes the row (DELETE /pipelines/{id}); DuckDB's stale index made
    // this "FATAL Error: Failed to delete all rows from index".
    const after = new DuckDbService(loadConfig({ DATA_DIR: dir }));
    await after.open();
    try {
      await after.run("DELETE FROM pipelines WHERE pipeline_id = 'pl_1'");
      expect(await after.all('SELECT count(*) AS n FROM pipelines')).toEqual([{ n: 0n }]);
    } finally {
      after.onApplicationShutdown();
    }
  });
});
