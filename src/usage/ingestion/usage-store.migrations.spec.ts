import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../config/app-config.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import { applyMigrations, findSqlDirectory } from '../../database/migrations.js';

/** A store written by an earlier version keeps every event through later migrations. */
describe('usage store migrations on an existing store', () => {
  let dir: string;
  let db: DuckDbService;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-usage-migrations-'));
    db = new DuckDbService(loadConfig({ DATA_DIR: dir }));
    await db.open();
  });
  afterEach(() => {
    db.onApplicationShutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The migrations up to and including `version`, as an earlier release shipped them. */
  function migrationsUpTo(version: string): string {
    const current = findSqlDirectory();
    const earlier = fs.mkdtempSync(path.join(dir, 'sql-'));
    for (const file of fs.readdirSync(current)) {
      if (file.endsWith('.sql') && file.slice(0, 3) <= version) {
        fs.copyFileSync(path.join(current, file), path.join(earlier, file));
      }
    }
    return earlier;
  }

  it('023 drops the per-event metadata map and keeps each event with its metadata as received', async () => {
    await applyMigrations(db, undefined, migrationsUpTo('022'));
    const metadataJson = '{"team":"blue","batch":7}';
    await db.run(
      `INSERT INTO usage_events VALUES (md5_number('s' || chr(0) || 'e1'), 's', 'e1', 'org_1',
         TIMESTAMPTZ '2026-11-01 10:00:00+00', DATE '2026-11-01', 'parse', 'parse', 'key_1',
         'pdf', 2, 2.000000, 'job_1', true, $1, MAP {'team': 'blue', 'batch': '7'}, 1, now())`,
      [metadataJson],
    );

    expect(await applyMigrations(db)).toContain('023_usage_events_without_metadata_map.sql');

    const columns = await db.all<{ column_name: string }>(
      "SELECT column_name FROM duckdb_columns() WHERE table_name = 'usage_events'",
    );
    expect(columns.map((c) => c.column_name)).not.toContain('metadata');
    expect(
      await db.all(
        'SELECT event_id, org_id, CAST(credits AS VARCHAR) AS credits, metadata_json FROM usage_events',
      ),
    ).toEqual([
      { event_id: 'e1', org_id: 'org_1', credits: '2.000000', metadata_json: metadataJson },
    ]);
  });
});
