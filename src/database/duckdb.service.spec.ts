import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../config/app-config.js';
import { DuckDbService } from './duckdb.service.js';

/**
 * Reads whose statement was prepared before a write widened the table's statistics (a
 * longer string, a larger number, the first non-NULL value). Each read runs once before the
 * write, so the reader keeps its statement prepared, and once after it.
 */
describe(DuckDbService.name, () => {
  let dir: string;
  let db: DuckDbService;

  const reads: [string, string, unknown[]][] = [
    [
      'ORDER BY on a string longer than any before (crashed with SIGSEGV)',
      'SELECT name FROM orgs ORDER BY id',
      [{ name: 'Acme' }, { name: 'Other' }, { name: 'Made while serving' }],
    ],
    [
      'GROUP BY on that string (was cut to the old maximum length)',
      'SELECT name, count(*) AS c FROM orgs GROUP BY name ORDER BY name',
      [
        { name: 'Acme', c: 1n },
        { name: 'Made while serving', c: 1n },
        { name: 'Other', c: 1n },
      ],
    ],
    [
      'a filter on a column that was all NULL (was folded to false)',
      'SELECT count(*) AS c FROM orgs WHERE closed_at IS NOT NULL',
      [{ c: 1n }],
    ],
    [
      'a filter above the old maximum (was folded to false)',
      'SELECT count(*) AS c FROM orgs WHERE seats > 10',
      [{ c: 1n }],
    ],
  ];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-duckdb-'));
    db = new DuckDbService(loadConfig({ DATA_DIR: dir }));
    await db.open();
    await db.run(
      'CREATE TABLE orgs (id VARCHAR PRIMARY KEY, name VARCHAR, seats INTEGER, closed_at TIMESTAMP)',
    );
    await db.run(
      "INSERT INTO orgs VALUES ('org_0000000000000001', 'Acme', 1, NULL), ('org_0000000000000002', 'Other', 2, NULL)",
    );
    for (const [, sql] of reads) await db.all(sql);
    await db.run('INSERT INTO orgs VALUES ($1, $2, $3, $4)', [
      'org_0000000000000003',
      'Made while serving',
      2_000_000,
      '2026-11-22 07:30:00',
    ]);
  });

  afterAll(() => {
    db.onApplicationShutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(reads)(
    'reads rows written after the statement was prepared: %s',
    async (_, sql, rows) => {
      expect(await db.all(sql)).toEqual(rows);
    },
  );
});
