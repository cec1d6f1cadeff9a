// The hourly clustering pass's cost as history grows: the pass as it is (every clustered
// table rewritten in org order) against a tail-run pass (only the rows appended since the
// last pass aggregated, sorted by org and written back as one sorted run; older rows left
// in place), on a synthetic store shaped like the export bench's (row counts per million
// events as measured there), then after a further million events of the late-event window.
// Also times an org's year read from each layout. Usage:
//   node bench/usage-cluster/tail-run.mjs [--base-events 2000000] [--more-events 1000000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { orgYearByDaySql, ROLLUP_TABLES, ROWS_PER_EVENT } from './synthetic-rollups.mjs';

const { values } = parseArgs({
  options: {
    'base-events': { type: 'string', default: '2000000' },
    'more-events': { type: 'string', default: '1000000' },
    'memory-limit': { type: 'string', default: '1GB' },
  },
});
const baseEvents = Number(values['base-events']);
const moreEvents = Number(values['more-events']);

// Each clustered table's definition, as its migration creates it.
const DDL = {
  usage_daily_dimension: `org_key UBIGINT NOT NULL, org_id VARCHAR NOT NULL, dimension VARCHAR NOT NULL,
          day DATE NOT NULL, value VARCHAR NOT NULL, credits DECIMAL(38, 6) NOT NULL,
          request_count BIGINT NOT NULL, PRIMARY KEY (org_id, dimension, day, value)`,
  usage_daily_metadata_value: `org_key UBIGINT NOT NULL, org_id VARCHAR NOT NULL, meta_key VARCHAR NOT NULL,
          day DATE NOT NULL, meta_value VARCHAR NOT NULL, credits DECIMAL(38, 6) NOT NULL,
          request_count BIGINT NOT NULL, PRIMARY KEY (org_id, meta_key, day, meta_value)`,
  usage_quarter_hour: `org_key UBIGINT NOT NULL, org_id VARCHAR NOT NULL, quarter INTEGER NOT NULL,
          product VARCHAR NOT NULL, feature VARCHAR NOT NULL, api_key_id VARCHAR NOT NULL,
          file_type VARCHAR NOT NULL, credits DECIMAL(38, 6) NOT NULL, request_count BIGINT NOT NULL`,
  usage_quarter_hour_metadata: `org_key UBIGINT NOT NULL, org_id VARCHAR NOT NULL, meta_key VARCHAR NOT NULL,
          quarter INTEGER NOT NULL, meta_value VARCHAR NOT NULL, product VARCHAR NOT NULL,
          feature VARCHAR NOT NULL, api_key_id VARCHAR NOT NULL, file_type VARCHAR NOT NULL,
          credits DECIMAL(38, 6) NOT NULL, request_count BIGINT NOT NULL`,
};
const TABLES = Object.entries(ROLLUP_TABLES).map(([table, t]) => ({
  table,
  ...t,
  ddl: DDL[table],
}));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-cluster-bench-'));
const instance = await DuckDBInstance.create(path.join(dir, 'store.duckdb'), {
  memory_limit: values['memory-limit'],
});
const db = await instance.connect();
const run = (sql) => db.run(sql);
const one = async (sql) => (await db.runAndReadAll(sql)).getRowObjectsJS()[0];

async function timed(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** The pass as UsageStoreRepository.clusterNarrowRollups runs it: every table rewritten. */
async function wholePass(steps = {}) {
  for (const { table, order, primaryKey, keys } of TABLES) {
    const start = performance.now();
    await run('BEGIN TRANSACTION');
    const rows =
      keys === undefined
        ? `SELECT * FROM ${table}`
        : `SELECT ${keys}, sum(credits) AS credits, CAST(sum(request_count) AS BIGINT) AS request_count
           FROM ${table} GROUP BY ${keys}`;
    await run(`CREATE TABLE ${table}_clustered AS ${rows} ORDER BY ${order}`);
    if (primaryKey !== undefined)
      await run(`ALTER TABLE ${table}_clustered ADD PRIMARY KEY (${primaryKey})`);
    for (const column of ['org_key', 'credits', 'request_count']) {
      await run(`ALTER TABLE ${table}_clustered ALTER COLUMN ${column} SET NOT NULL`);
    }
    await run(`DROP TABLE ${table}`);
    await run(`ALTER TABLE ${table}_clustered RENAME TO ${table}`);
    await run('COMMIT');
    steps[table] = Math.round(performance.now() - start);
  }
  steps.checkpoint = Math.round(await timed(() => run('CHECKPOINT')));
}

/**
 * The proposed pass: only the rows past each table's sorted part (`sortedRows`, the row
 * count the previous pass left) are aggregated, sorted and written back as one sorted run,
 * in one transaction per table.
 */
async function tailRunPass(sortedRows) {
  for (const { table, order, primaryKey, keys } of TABLES) {
    await run('BEGIN TRANSACTION');
    const tail = `FROM ${table} WHERE rowid >= ${sortedRows[table]}`;
    const rows =
      keys === undefined
        ? `SELECT * ${tail}`
        : `SELECT ${keys}, sum(credits) AS credits, CAST(sum(request_count) AS BIGINT) AS request_count
           ${tail} GROUP BY ${keys}`;
    const steps = {};
    steps.sort = await timed(() => run(`CREATE TEMP TABLE run AS ${rows} ORDER BY ${order}`));
    steps.delete = await timed(() => run(`DELETE ${tail}`));
    steps.insert = await timed(() => run(`INSERT INTO ${table} SELECT * FROM temp.run`));
    await run('DROP TABLE temp.run');
    steps.commit = await timed(() => run('COMMIT'));
    tailRunSteps[table] = Object.fromEntries(
      Object.entries(steps).map(([step, ms]) => [step, Math.round(ms)]),
    );
    void primaryKey;
  }
  tailRunSteps.checkpoint = Math.round(await timed(() => run('CHECKPOINT')));
}
const tailRunSteps = {};

async function counts() {
  const result = {};
  for (const { table } of TABLES) {
    result[table] = Number((await one(`SELECT count(*) AS n FROM ${table}`)).n);
  }
  return result;
}

async function totals() {
  const result = {};
  for (const { table } of TABLES) {
    const row = await one(
      `SELECT CAST(sum(credits) AS VARCHAR) AS c, CAST(sum(request_count) AS VARCHAR) AS r FROM ${table}`,
    );
    result[table] = `${row.c}/${row.r}`;
  }
  return result;
}

/** ms of a typical and the largest org's year, summed by quarter-hour table (10 runs, median). */
async function readYear() {
  const out = {};
  for (const [name, org] of [
    ['largest', 'org_000000'],
    ['typical', 'org_000500'],
  ]) {
    const samples = [];
    for (let i = 0; i < 11; i++) {
      samples.push(await timed(() => db.run(orgYearByDaySql(org))));
    }
    samples.sort((a, b) => a - b);
    out[name] = Number(samples[5].toFixed(1));
  }
  return out;
}

async function append(events, days, seed) {
  for (const t of TABLES) {
    await run(
      `INSERT INTO ${t.table} ${t.rows(Math.round(events * ROWS_PER_EVENT[t.table]), seed, days)}`,
    );
  }
  await run('CHECKPOINT');
}

await run('SELECT setseed(0.42)');
for (const t of TABLES) await run(`CREATE TABLE ${t.table} (${t.ddl})`);
const report = { baseEvents, moreEvents, load: os.loadavg().map((l) => l.toFixed(1)) };

await append(baseEvents, 365, 'a');
report.wholePassBaseSteps = {};
report.wholePassBase = await timed(() => wholePass(report.wholePassBaseSteps));
report.rowsBase = await counts();
report.readAfterWholeBase = await readYear();
const sorted = await counts();

await append(moreEvents, 35, 'b');
const before = await totals();
report.tailRunPass = await timed(() => tailRunPass(sorted));
report.tailRunSteps = tailRunSteps;
report.totalsUnchangedByTailRun = JSON.stringify(await totals()) === JSON.stringify(before);
report.readAfterTailRun = await readYear();
report.wholePassGrownSteps = {};
report.wholePassGrown = await timed(() => wholePass(report.wholePassGrownSteps));
report.totalsUnchangedByWhole = JSON.stringify(await totals()) === JSON.stringify(before);
report.rowsGrown = await counts();
report.readAfterWholeGrown = await readYear();
report.loadEnd = os.loadavg().map((l) => l.toFixed(1));

console.log(JSON.stringify(report, null, 2));
db.closeSync();
instance.closeSync();
fs.rmSync(dir, { recursive: true, force: true });
