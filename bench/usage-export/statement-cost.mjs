#!/usr/bin/env node
// CPU per uncached export over the quarter-hour rollups, the statement adding the events not
// rolled up yet against the rolled-only one with its EXISTS condition (record 0407), both
// through UsageExportRepository's path on a pooled reader connection, interleaved in one
// process, on the export bench's cached store (build it with `npm run bench:export --
// --events N --prepare-only`; no server may have the file open). Prints a Markdown table.
//   npm run build && node bench/usage-export/statement-cost.mjs --events 2000000
// (BENCH_RUNS: runs per half, default 10). BENCH_BEFORE=full-tables compares instead the
// rolled-only statement over the full quarter-hour tables with the shipped one, which reads
// the narrow tables where they answer the question (record 0408).
import path from 'node:path';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { importDist, markerFile } from './options.mjs';
import { exportQueryOf, scenarios } from './scenarios.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const dataset = JSON.parse(fs.readFileSync(markerFile, 'utf8'));
const { UsageExportRepository, jsonDataSql } = await importDist(
  'src/usage/export/usage-export.repository.js',
);
const { buildExportSql, readsQuarterHours } = await importDist(
  'src/usage/export/usage-export.sql.js',
);
const { READ_ROLLED_BATCH_ID } = await importDist('src/usage/core/quarter-hour-rollups.js');
const { STATS_DEPENDENT_OPTIMIZERS } = await importDist('src/database/duckdb.service.js');
const { ReaderConnection } = await importDist('src/database/reader-connection.js');

// BENCH_STORE_FILE: a copy of the store, to measure while a server has the file open.
const instance = await DuckDBInstance.create(process.env.BENCH_STORE_FILE ?? dataset.databaseFile, {
  access_mode: 'READ_ONLY',
  disabled_optimizers: STATS_DEPENDENT_OPTIMIZERS,
});
const reader = new ReaderConnection(await instance.connect());
const db = { all: (sql, params) => reader.all(sql, params) };
const repository = new UsageExportRepository(db, { usage: { snapshots: { mode: 'server' } } });

/** Record 0407's "before": one statement with the events' branch, planned on every request. */
async function withUnrolled(query, orgId) {
  const [{ rolled }] = await db.all(READ_ROLLED_BATCH_ID);
  const built = buildExportSql(query, orgId, rolled, true, 'with-unrolled');
  const [row] = await db.all(jsonDataSql(built), built.params);
  return row?.data ?? '';
}

/** Record 0408's "before": the rolled-only statement over the full quarter-hour tables. */
async function fullTables(query, orgId) {
  const [{ rolled }] = await db.all(READ_ROLLED_BATCH_ID);
  const built = buildExportSql(query, orgId, rolled, true, 'rolled-only', 'full-only');
  const [row] = await db.all(
    `SELECT (${jsonDataSql(built)}) AS data, ${built.unrolled} AS unrolled`,
    built.params,
  );
  if (row.unrolled) throw new Error('the store has events not rolled up: roll them up first');
  return row.data ?? '';
}
const BEFORE = process.env.BENCH_BEFORE === 'full-tables' ? fullTables : withUnrolled;

async function cost(run) {
  const started = process.cpuUsage();
  const wall = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    wall.push(performance.now() - t);
  }
  const used = process.cpuUsage(started);
  wall.sort((a, b) => a - b);
  return { cpu: (used.user + used.system) / 1000 / RUNS, p50: wall[RUNS >> 1] };
}

const f = (n) => n.toFixed(1);
console.log(
  `| org | question | window | CPU ms ${BEFORE === fullTables ? 'full tables -> narrow where they answer' : 'with the branch -> rolled-only'} | wall p50 ms | same data |`,
);
console.log('|---|---|---|---|---|---|');
for (const s of scenarios(dataset)) {
  const query = exportQueryOf(s);
  if (!readsQuarterHours(query)) continue;
  const before = () => BEFORE(query, s.orgId);
  const after = () => repository.jsonData(query, s.orgId);
  const same = (await before()) === (await after());
  // Interleaved halves, so both see the same machine.
  const [b1, a1, b2, a2] = [
    await cost(before),
    await cost(after),
    await cost(before),
    await cost(after),
  ];
  const mean = (x, y, k) => (x[k] + y[k]) / 2;
  console.log(
    `| ${s.scenario} | ${s.groupBy} | ${s.window}d | ${f(mean(b1, b2, 'cpu'))} -> ${f(mean(a1, a2, 'cpu'))} | ` +
      `${f(mean(b1, b2, 'p50'))} -> ${f(mean(a1, a2, 'p50'))} | ${same ? 'yes' : 'NO'} |`,
  );
}
reader.close();
instance.closeSync();
process.stdout.write(`(${path.basename(dataset.databaseFile)}, ${RUNS} runs per half)\n`);
