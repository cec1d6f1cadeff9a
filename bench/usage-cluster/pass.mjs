// The clustering pass's cost as history grows: the server's pass (the steps of
// UsageStoreRepository.clusterNarrowRollups, from dist/, timed per table) against the whole
// rewrite it replaced, on a store migrated by the project's own migrations and filled in SQL
// with rows shaped like the export bench's
// (row counts per event as in tail-run.mjs): 2 M events over a year, then 1 M more in the
// late-event window, then an hour's worth. Totals of every table checked after each pass;
// an org's year read from the quarter-hour table after each layout. Usage (after
// `npm run build`):
//   node bench/usage-cluster/pass.mjs [--base-events 2000000] [--more-events 1000000]
//                                     [--hour-events 10000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { orgYearByDaySql, ROLLUP_TABLES, ROWS_PER_EVENT } from './synthetic-rollups.mjs';

const { values } = parseArgs({
  options: {
    'base-events': { type: 'string', default: '2000000' },
    'more-events': { type: 'string', default: '1000000' },
    'hour-events': { type: 'string', default: '10000' },
  },
});
const dist = (file) => import(pathToFileURL(path.resolve('dist', file)).href);
const { loadConfig } = await dist('src/config/app-config.js');
const { DuckDbService } = await dist('src/database/duckdb.service.js');
const { applyMigrations } = await dist('src/database/migrations.js');

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-cluster-pass-'));
const db = new DuckDbService(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }));
await db.open();
await applyMigrations(db);
const clustering = await dist('src/usage/ingestion/rollup-clustering.js');

/**
 * The server's pass (UsageStoreRepository.clusterNarrowRollups: its steps, one transaction
 * each, in its order), timed per table; `ms` the whole, `rows` the rows rewritten.
 */
async function serverPass() {
  const start = performance.now();
  const steps = {};
  let rows = 0;
  const each = [
    ...clustering.KEYED_TABLES.map((t) => [t.table, (c) => clustering.rewriteKeyedIfGrown(c, t)]),
    ...clustering.SORTED_RUN_TABLES.map((t) => [t.table, (c) => clustering.sortUnsortedRows(c, t)]),
  ];
  for (const [table, step] of each) {
    const started = performance.now();
    rows += await db.exclusive(async (connection) => {
      await connection.run('BEGIN TRANSACTION');
      const n = await step(connection);
      await connection.run('COMMIT');
      return n;
    });
    steps[table] = Math.round(performance.now() - started);
  }
  return { ms: Math.round(performance.now() - start), rows, steps };
}
const one = async (sql) => (await db.all(sql))[0];

async function timed(fn) {
  const start = performance.now();
  const result = await fn();
  return { ms: Math.round(performance.now() - start), result };
}

/**
 * The pass as it was: every clustered table rewritten whole in org order (quarter-hour rows
 * left marked unsorted, so the server's next pass starts from the same state as after
 * an old store's migration).
 */
async function wholePass() {
  await db.exclusive(async (connection) => {
    for (const [table, { order, primaryKey, keys }] of Object.entries(ROLLUP_TABLES)) {
      await connection.run('BEGIN TRANSACTION');
      const rows =
        keys === undefined
          ? `SELECT * FROM ${table}`
          : `SELECT ${keys}, sum(credits) AS credits, CAST(sum(request_count) AS BIGINT) AS request_count,
                    2147483647 AS sorted_run
             FROM ${table} GROUP BY ${keys}`;
      await connection.run(`CREATE TABLE ${table}_clustered AS ${rows} ORDER BY ${order}`);
      if (primaryKey)
        await connection.run(`ALTER TABLE ${table}_clustered ADD PRIMARY KEY (${primaryKey})`);
      else {
        // The copy keeps no column default: rows appended later must still come unsorted.
        await connection.run(
          `ALTER TABLE ${table}_clustered ALTER COLUMN sorted_run SET DEFAULT 2147483647`,
        );
        await connection.run(`ALTER TABLE ${table}_clustered ALTER COLUMN sorted_run SET NOT NULL`);
      }
      await connection.run(`DROP TABLE ${table}`);
      await connection.run(`ALTER TABLE ${table}_clustered RENAME TO ${table}`);
      await connection.run('COMMIT');
    }
  });
}

async function append(events, days, seed) {
  for (const [table, { rows }] of Object.entries(ROLLUP_TABLES)) {
    const n = Math.round(events * ROWS_PER_EVENT[table]);
    await db.run(
      table.startsWith('usage_quarter_hour')
        ? `INSERT INTO ${table} (${ROLLUP_TABLES[table].keys}, credits, request_count) ${rows(n, seed, days)}`
        : `INSERT INTO ${table} ${rows(n, seed, days)}`,
    );
  }
  await db.run('CHECKPOINT');
}

async function totals() {
  const result = {};
  for (const table of Object.keys(ROLLUP_TABLES)) {
    const row = await one(
      `SELECT CAST(sum(credits) AS VARCHAR) AS c, CAST(sum(request_count) AS VARCHAR) AS r,
              count(*) AS n FROM ${table}`,
    );
    result[table] = `${row.c}/${row.r}`;
  }
  return result;
}

async function runs() {
  return db.all(
    `SELECT table_name, run, row_count FROM usage_rollup_runs ORDER BY table_name, run`,
  );
}

/** Median ms of 11 reads of an org's year by day and product from the quarter-hour table. */
async function readYear(org) {
  const samples = [];
  for (let i = 0; i < 11; i++) {
    const { ms } = await timed(() => db.all(orgYearByDaySql(org)));
    samples.push(ms);
  }
  return samples.sort((a, b) => a - b)[5];
}

const report = {
  load: os.loadavg().map((l) => l.toFixed(1)),
  baseEvents: Number(values['base-events']),
  moreEvents: Number(values['more-events']),
  hourEvents: Number(values['hour-events']),
};
await db.run('SELECT setseed(0.42)');
await append(report.baseEvents, 365, 'a');
const base = await totals();
report.wholePassAtBase = (await timed(wholePass)).ms;
report.firstPassAtBase = await serverPass();
report.totalsKeptAtBase = JSON.stringify(await totals()) === JSON.stringify(base);
report.readAtBase = {
  largest: await readYear('org_000000'),
  typical: await readYear('org_000500'),
};

await append(report.moreEvents, 35, 'b');
const grown = await totals();
report.passAfterMore = await serverPass();
report.totalsKeptAfterMore = JSON.stringify(await totals()) === JSON.stringify(grown);
report.runsAfterMore = await runs();
report.readAfterMore = {
  largest: await readYear('org_000000'),
  typical: await readYear('org_000500'),
};

await append(report.hourEvents, 1, 'c');
const hour = await totals();
report.passAfterHour = await serverPass();
report.totalsKeptAfterHour = JSON.stringify(await totals()) === JSON.stringify(hour);

report.wholePassGrown = (await timed(wholePass)).ms;
report.totalsKeptByWholeGrown = JSON.stringify(await totals()) === JSON.stringify(hour);
report.readAfterWholeGrown = {
  largest: await readYear('org_000000'),
  typical: await readYear('org_000500'),
};
report.loadEnd = os.loadavg().map((l) => l.toFixed(1));
console.log(JSON.stringify(report, (_, v) => (typeof v === 'bigint' ? Number(v) : v), 2));
db.onApplicationShutdown();
fs.rmSync(dataDir, { recursive: true, force: true });
