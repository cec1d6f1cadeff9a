import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../config/app-config.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import { applyMigrations, findSqlDirectory } from '../../database/migrations.js';
import { rollUpStep } from '../core/quarter-hour-rollups.js';

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

  it('100 backfills the quarter-hour rollups from the events, metadata by the normalizer rule', async () => {
    await applyMigrations(db, undefined, migrationsUpTo('099'));
    const metadata = { team: 'blue', n: 7, ratio: 1.5, round: 100.0, flag: true, none: null };
    const events: [string, string, boolean, string | null][] = [
      ['e1', '2026-11-01 10:07:00+00', true, JSON.stringify({ ...metadata, doc: 'd1' })],
      ['e2', '2026-11-01 10:14:59+00', true, JSON.stringify({ team: 'blue', nested: { a: 1 } })],
      ['e3', '2026-11-01 10:15:00+00', false, JSON.stringify({ team: 'sync' })],
      ['e4', '2026-11-01 10:20:00+00', true, JSON.stringify({ team: 'é'.repeat(300) })],
    ];
    for (const [id, time, isAsync, json] of events) {
      await db.run(
        `INSERT INTO usage_events VALUES (md5_number('s' || chr(0) || $1), 's', $1, 'org_1',
           CAST($2 AS TIMESTAMPTZ), DATE '2026-11-01', 'parse', 'parse', 'key_1', 'pdf', 1,
           1.250000, NULL, $3, $4, 1, now())`,
        [id, time, isAsync, json],
      );
    }
    await db.run(
      `INSERT INTO metadata_key_stats VALUES ('org_1', 'doc', 300, 300, now(), 'identifier-like')`,
    );

    expect(await applyMigrations(db)).toContain('100_usage_quarter_hour.sql');

    const quarter = Math.floor(Date.parse('2026-11-01T10:00:00Z') / 900_000);
    expect(
      await db.all(
        `SELECT quarter, CAST(credits AS VARCHAR) AS credits, CAST(request_count AS INTEGER) AS n
         FROM usage_quarter_hour ORDER BY quarter`,
      ),
    ).toEqual([
      { quarter, credits: '2.500000', n: 2 },
      { quarter: quarter + 1, credits: '2.500000', n: 2 },
    ]);
    const rows = await db.all<{ meta_key: string; meta_value: string; n: number }>(
      `SELECT meta_key, meta_value, CAST(sum(request_count) AS INTEGER) AS n
       FROM usage_quarter_hour_metadata GROUP BY ALL ORDER BY meta_key, meta_value`,
    );
    expect(rows).toEqual([
      { meta_key: 'flag', meta_value: 'true', n: 1 },
      { meta_key: 'n', meta_value: '7', n: 1 },
      { meta_key: 'ratio', meta_value: '1.5', n: 1 },
      { meta_key: 'round', meta_value: '100', n: 1 },
      { meta_key: 'team', meta_value: 'blue', n: 2 },
      { meta_key: 'team', meta_value: 'é'.repeat(256), n: 1 },
    ]);
  });

  it('122 keeps reading the metadata of events stored before from their JSON, and of later ones from the combinations their write stored', async () => {
    await applyMigrations(db, undefined, migrationsUpTo('121'));
    await db.run(
      `INSERT INTO usage_events VALUES (md5_number('s' || chr(0) || 'e1'), 's', 'e1', 'org_1',
         TIMESTAMPTZ '2026-11-01 10:07:00+00', DATE '2026-11-01', 'parse', 'parse', 'key_1',
         'pdf', 1, 1.250000, NULL, true, $1, 1, now(), 1)`,
      [JSON.stringify({ team: 'blue', n: 1e21, flag: true, doc: 'd1', nested: { a: 1 } })],
    );

    expect(await applyMigrations(db)).toContain('122_usage_metadata_combinations.sql');

    // A later event's stored combination is what counts; its JSON (here deliberately
    // different) is not parsed again.
    await db.run(
      `INSERT INTO usage_events (event_key, source, event_id, org_id, event_time, day, product,
         feature, api_key_id, file_type, pages, credits, job_id, is_async, metadata_json,
         batch_id, ingested_at, version, metadata_combo)
       VALUES (md5_number('s' || chr(0) || 'e2'), 's', 'e2', 'org_1',
         TIMESTAMPTZ '2026-11-01 10:08:00+00', DATE '2026-11-01', 'parse', 'parse', 'key_1',
         'pdf', 1, 2.000000, NULL, true, '{"team":"red"}', 2, now(), 1, 3)`,
    );
    await db.run(
      `INSERT INTO usage_metadata_combinations VALUES
         (2, 3, 'team', 'blue'), (2, 3, 'doc', 'd2'), (2, 1, 'team', 'green'), (1, 3, 'team', 'grey')`,
    );
    await db.run(
      `INSERT INTO metadata_key_stats
         (org_id, meta_key, event_count, distinct_values, rejected_at, rejected_reason) VALUES
         ('org_1', 'team', 2, 1, NULL, NULL), ('org_1', 'n', 1, 1, NULL, NULL),
         ('org_1', 'flag', 1, 1, NULL, NULL), ('org_1', 'doc', 300, 300, now(), 'identifier-like')`,
    );
    await db.run('UPDATE usage_quarter_hour_watermark SET rolled_batch_id = 0');

    expect(await db.exclusive((connection) => rollUpStep(connection))).toBe(2);

    const rows = await db.all<{ meta_key: string; meta_value: string; credits: string; n: number }>(
      `SELECT meta_key, meta_value, CAST(sum(credits) AS VARCHAR) AS credits,
              CAST(sum(request_count) AS INTEGER) AS n
       FROM usage_quarter_hour_metadata GROUP BY ALL ORDER BY meta_key, meta_value`,
    );
    expect(rows).toEqual([
      { meta_key: 'flag', meta_value: 'true', credits: '1.250000', n: 1 },
      { meta_key: 'n', meta_value: '1e+21', credits: '1.250000', n: 1 },
      { meta_key: 'team', meta_value: 'blue', credits: '3.250000', n: 2 },
    ]);
  });

  it('133 keeps counting every event of the keys tracked before; a key tracked later counts from its write on', async () => {
    await applyMigrations(db, undefined, migrationsUpTo('132'));
    const insertEvent = (id: string, batch: number, json: string, combo: number | null) =>
      db.run(
        `INSERT INTO usage_events (event_key, source, event_id, org_id, event_time, day, product,
           feature, api_key_id, file_type, pages, credits, job_id, is_async, metadata_json,
           batch_id, ingested_at, version, metadata_combo)
         VALUES (md5_number('s' || chr(0) || $1), 's', $1, 'org_1',
           TIMESTAMPTZ '2026-11-01 10:07:00+00', DATE '2026-11-01', 'parse', 'parse', 'key_1',
           'pdf', 1, 1.000000, NULL, true, $2, $3, now(), 1, $4)`,
        [id, json, batch, combo],
      );
    // Written while `later` was past the cap (no statistics row): one read from its JSON,
    // one from its write's combinations.
    await insertEvent('e1', 1, '{"team":"blue","later":"a"}', null);
    await insertEvent('e2', 2, '{"team":"blue","later":"a"}', 1);
    await db.run(
      `INSERT INTO usage_metadata_combinations VALUES (2, 1, 'team', 'blue'), (2, 1, 'later', 'a')`,
    );
    await db.run(`INSERT INTO metadata_key_stats VALUES ('org_1', 'team', 2, 1, NULL, NULL)`);

    expect(await applyMigrations(db)).toContain('133_metadata_key_tracked_from.sql');

    // The cap raised, the write of batch 3 gave `later` its place.
    await insertEvent('e3', 3, '{"team":"blue","later":"a"}', null);
    await insertEvent('e4', 4, '{"team":"blue","later":"a"}', 1);
    await db.run(
      `INSERT INTO usage_metadata_combinations VALUES (4, 1, 'team', 'blue'), (4, 1, 'later', 'a')`,
    );
    await db.run(
      `INSERT INTO metadata_key_stats
         (org_id, meta_key, event_count, distinct_values, rejected_at, rejected_reason, tracked_from_batch)
       VALUES ('org_1', 'later', 2, 1, NULL, NULL, 3)`,
    );
    await db.run('UPDATE usage_quarter_hour_watermark SET rolled_batch_id = 0');

    expect(await db.exclusive((connection) => rollUpStep(connection))).toBe(4);

    expect(
      await db.all(
        `SELECT meta_key, CAST(sum(request_count) AS INTEGER) AS n
         FROM usage_quarter_hour_metadata GROUP BY ALL ORDER BY meta_key`,
      ),
    ).toEqual([
      { meta_key: 'later', n: 2 },
      { meta_key: 'team', n: 4 },
    ]);
  });
});
