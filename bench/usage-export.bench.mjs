#!/usr/bin/env node
// Usage export benchmark: docproc's GET /api/v1/usage/export over HTTP against
// the same queries on PostgreSQL 15, over the same 20 M events. Run with
//   npm run bench:export                      (full run: 20 M events)
//   npm run bench:export -- --events 2000000  (quick run; also BENCH_EVENTS)
// Options: --iterations N (sequential requests per scenario, default 1000), --pg-budget S
// (seconds per PostgreSQL scenario before it stops early, default 15), --fresh (rebuild
// the cached data), --skip-pg, --prepare-only (build the data sets and stop), --uncached
// (the server without its result cache: every request runs the statements), --out FILE
// (JSON results).
// Generated data lives in $DOCPROC_CACHE/bench-export (default /tmp/docproc-bench-export),
// keyed by event count and seed, and is reused by later runs. The parts: options.mjs
// (arguments, paths), prepare.mjs (data sets), processes.mjs (the two servers),
// free-port-start.mjs (a server on a free port), scenarios.mjs (the questions),
// sequential.mjs and concurrent.mjs (the measurements), floor.mjs (HTTP and engine
// floors), report.mjs (the printed report).
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import { DAYS, ORG_COUNT } from './usage-export/dataset.mjs';
import { measureEngine, measureHttpFloor } from './usage-export/floor.mjs';
import { PG_SETTINGS, postgresVersion } from './usage-export/postgres.mjs';
import {
  ITERATIONS,
  OUT,
  PG_BUDGET_MS,
  PREPARE_ONLY,
  SKIP_PG,
  UNCACHED,
  WARMUP,
  caseDir,
  log,
  root,
} from './usage-export/options.mjs';
import { clusterStore, prepareDataset, preparePostgres } from './usage-export/prepare.mjs';
import { startPgHttp, startServer } from './usage-export/processes.mjs';
import { percentiles, scenarios } from './usage-export/scenarios.mjs';
import { measureDocproc, measurePostgres, measureSideBySide } from './usage-export/sequential.mjs';
import { concurrentDocproc, concurrentPostgres } from './usage-export/concurrent.mjs';
import { machine, reportText } from './usage-export/report.mjs';

const strip = ({ canonical: _c, ...rest }) => rest;

/**
 * Every scenario, one at a time: each PostgreSQL variant without HTTP, then docproc beside
 * the best of them (lowest p99) behind pg-http, their requests alternating: the comparison
 * a user sees (docs/decisions/0421-ahead-of-the-peer-measured-over-http.md).
 */
async function sequentialRows(dataset, { http, pgClient, pgHttp, pgVariants }) {
  const results = [];
  for (const s of scenarios(dataset)) {
    log(`${s.scenario} ${s.groupBy} ${s.window}d`);
    const pgResults = {};
    for (const variant of pgVariants) {
      const result = await measurePostgres(pgClient, variant, s);
      if (result !== null) pgResults[variant] = result;
    }
    const answered = Object.keys(pgResults);
    const best = answered.sort((a, b) => pgResults[a].p99 - pgResults[b].p99)[0];
    const pair =
      pgHttp && best !== undefined
        ? await measureSideBySide(http, pgHttp.http, dataset.accountKey, s, best)
        : { docproc: await measureDocproc(http, dataset.accountKey, s), pgHttp: null };
    const { docproc } = pair;
    const sameRows = answered.every((v) => pgResults[v].canonical === docproc.canonical)
      ? 'yes'
      : `NO (${answered.map((v) => `${v}: ${pgResults[v].rows}`).join(', ')})`;
    results.push({
      scenario: s.scenario,
      orgId: s.orgId,
      orgEvents: s.events,
      groupBy: s.groupBy,
      window: s.window,
      docproc: strip(docproc),
      pg: Object.fromEntries(Object.entries(pgResults).map(([k, v]) => [k, strip(v)])),
      pgHttp: pair.pgHttp,
      sameRows,
    });
  }
  return results;
}

/** 4 connections against PostgreSQL; 100 for the dashboard-burst target (p99 < 250 ms). */
async function concurrentRuns(dataset, server, cluster) {
  const all = scenarios(dataset);
  const pick = (scenario, groupBy, window) =>
    all.find((s) => s.scenario === scenario && s.groupBy === groupBy && s.window === window);
  const runs = [
    [pick('largest org', 'product', 30), 4],
    [pick('largest org', 'product', 30), 100],
    [pick('largest org', 'metadata', 365), 4],
  ];
  const concurrent = [];
  for (const [s, connections] of runs) {
    const entry = { scenario: s.scenario, groupBy: s.groupBy, window: s.window, connections };
    entry.docproc = await concurrentDocproc(server, dataset.accountKey, s, connections, 10);
    if (cluster && connections <= 4)
      entry.pgNarrow = await concurrentPostgres(cluster.connection, 'narrow', s, connections, 10);
    concurrent.push(entry);
  }
  return concurrent;
}

async function main() {
  const startedAt = new Date().toISOString();
  log(`machine: ${JSON.stringify(machine())}`);
  const dataset = await prepareDataset();
  let cluster = null;
  if (!SKIP_PG) cluster = await preparePostgres(dataset);
  await clusterStore(dataset);
  if (PREPARE_ONLY) {
    cluster?.stop();
    log(`data set ready: ${JSON.stringify(dataset.timings)}`);
    return;
  }

  log('starting the docproc server');
  const server = await startServer(dataset.databaseFile);
  const rssIdle = server.rss();
  const http = new Pool(server.baseUrl, { connections: 8, pipelining: 1 });
  const pgClient = cluster ? new pg.Client(cluster.connection) : null;
  await pgClient?.connect();
  const pgHttp = cluster ? await startPgHttp(cluster.connection) : null;
  const pgVariants = cluster ? ['narrow', 'rollups', 'raw'] : [];
  try {
    const results = await sequentialRows(dataset, { http, pgClient, pgHttp, pgVariants });
    const rssAfterSequential = server.rss();

    log('concurrent runs');
    const concurrent = await concurrentRuns(dataset, server, cluster);
    const rssAfterConcurrent = server.rss();

    log('floors: GET /health over HTTP, then each export statement on the file without HTTP');
    const timing = { warmup: WARMUP, iterations: ITERATIONS, percentiles };
    const httpFloor = await measureHttpFloor(http, timing, pgHttp?.http);
    await server.stop();
    const engine = await measureEngine({
      root,
      databaseFile: dataset.databaseFile,
      scenarios: scenarios(dataset),
      ...timing,
    });
    for (const r of results) {
      r.engine = engine.find(
        (e) => e.scenario === r.scenario && e.groupBy === r.groupBy && e.window === r.window,
      );
    }

    const report = {
      startedAt,
      machine: machine(),
      versions: {
        node: process.version,
        duckdb: JSON.parse(
          fs.readFileSync(path.join(root, 'node_modules/@duckdb/node-api/package.json'), 'utf8'),
        ).version,
        postgres: cluster ? postgresVersion() : null,
      },
      dataset: {
        events: dataset.events,
        orgs: ORG_COUNT,
        days: DAYS,
        endDay: dataset.endDay,
        sizes: dataset.sizes,
        duckdbFileMiB: Math.round(dataset.duckdbFileBytes / 2 ** 20),
        loadTimingsMs: dataset.timings,
        reused: dataset.reused,
      },
      settings: {
        uncached: UNCACHED,
        iterations: ITERATIONS,
        warmup: WARMUP,
        pgBudgetMs: PG_BUDGET_MS,
        pg: PG_SETTINGS,
      },
      rss: {
        idle: rssIdle,
        afterSequential: rssAfterSequential,
        afterConcurrent: rssAfterConcurrent,
      },
      httpFloor,
      results,
      concurrent,
    };
    if (OUT) fs.writeFileSync(OUT, JSON.stringify(report, null, 2));
    fs.writeFileSync(path.join(caseDir, 'last-report.json'), JSON.stringify(report, null, 2));
    process.stdout.write(`${reportText(report, dataset, pgVariants)}\n`);
  } finally {
    await http.close();
    await pgClient?.end();
    await pgHttp?.http.close();
    await pgHttp?.stop();
    await server.stop();
    cluster?.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
