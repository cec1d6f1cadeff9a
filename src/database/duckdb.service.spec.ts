import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../config/app-config.js';
import { duckdb } from './duckdb-api.js';
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

describe('DUCKDB_THREADS', () => {
  it("gives every statement one thread by default, the threads it names, and DuckDB's own count at 0", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-duckdb-threads-'));
    const threadsOf = async (env: Record<string, string>) => {
      const db = new DuckDbService(loadConfig({ DATA_DIR: dir, ...env }));
      await db.open();
      try {
        const [{ threads }] = await db.all<{ threads: string }>(
          "SELECT CAST(current_setting('threads') AS VARCHAR) AS threads",
        );
        return Number(threads);
      } finally {
        db.onApplicationShutdown();
      }
    };
    try {
      expect(loadConfig({}).duckdbThreads).toBe(1);
      expect(await threadsOf({})).toBe(1);
      expect(await threadsOf({ DUCKDB_THREADS: '3' })).toBe(3);
      const bare = await duckdb.DuckDBInstance.create(':memory:');
      const connection = await bare.connect();
      const own = (
        await connection.runAndReadAll("SELECT CAST(current_setting('threads') AS VARCHAR) AS t")
      ).getRowObjectsJS()[0].t;
      connection.closeSync();
      bare.closeSync();
      expect(await threadsOf({ DUCKDB_THREADS: '0' })).toBe(Number(own));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('memory a bulk write freed', () => {
  it('is handed back to the system when the writer is released, with the memory limit unchanged', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-duckdb-release-'));
    const db = new DuckDbService(loadConfig({ DATA_DIR: dir }));
    const residentMb = () =>
      Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
    await db.open();
    try {
      let withTable = 0;
      const rows = await db.exclusive(async (connection) => {
        // ~100 MB of table data in DuckDB's allocator, freed by the DROP; DuckDB's allocator
        // keeps such pages for seconds unless they are handed back.
        await connection.run(
          `CREATE TEMP TABLE bulk AS SELECT range AS i, md5(CAST(range AS VARCHAR)) AS s
           FROM range(2000000)`,
        );
        withTable = residentMb();
        const reader = await connection.runAndReadAll('SELECT count(*) AS n FROM bulk');
        await connection.run('DROP TABLE bulk');
        return Number(reader.getRowObjectsJS()[0].n);
      });
      expect(rows).toBe(2_000_000);
      expect(withTable - residentMb()).toBeGreaterThan(50);
      const [{ limit }] = await db.all<{ limit: string }>(
        "SELECT current_setting('memory_limit') AS limit",
      );
      // DUCKDB_MEMORY_LIMIT's default, 256MB (DuckDB's MB are 1000^2 bytes).
      expect(limit).toBe('244.1 MiB');
    } finally {
      db.onApplicationShutdown();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
