// Where an export's time goes: the server's HTTP floor (GET /health through the same
// client) and the export's statements alone (UsageExportRepository on a reader connection
// as the server pools them, on the store file, without HTTP, JSON framing, authentication
// or the result cache).
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { PG_BUDGET_MS } from './options.mjs';
import { exportQueryOf } from './scenarios.mjs';

/**
 * Milliseconds of `iterations` sequential calls of `fn`, after `warmup` untimed ones; with
 * `budgetMs`, fewer when they take longer than that (at least 5).
 */
export async function sampleTimes(fn, { warmup, iterations, budgetMs = Infinity }) {
  for (let i = 0; i < warmup; i++) await fn();
  const samples = [];
  const started = performance.now();
  for (let i = 0; i < iterations; i++) {
    if (i >= 5 && performance.now() - started >= budgetMs) break;
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples;
}

/**
 * p50/p95/p99 of `iterations` sequential `GET /health` after `warmup`; with `peerHttp`
 * (pg-http.mjs, whose /health answers without touching PostgreSQL) the two alternate, so the
 * server's HTTP floor is seen beside the thinnest node:http one on the same machine.
 */
export async function measureHttpFloor(http, { warmup, iterations, percentiles }, peerHttp) {
  const health = (client) => async () => {
    const res = await client.request({ method: 'GET', path: '/health' });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`/health ${res.statusCode}`);
  };
  const request = health(http);
  if (!peerHttp) return percentiles(await sampleTimes(request, { warmup, iterations }));
  const peer = health(peerHttp);
  for (let i = 0; i < warmup; i++) {
    await request();
    await peer();
  }
  const own = [];
  const theirs = [];
  for (let i = 0; i < iterations; i++) {
    const pair = i % 2 === 0 ? [request, peer] : [peer, request];
    for (const run of pair) {
      const start = performance.now();
      await run();
      (run === request ? own : theirs).push(performance.now() - start);
    }
  }
  return { ...percentiles(own), peer: percentiles(theirs) };
}

/**
 * The export's statements of each scenario, run by UsageExportRepository as the server runs
 * them, on a read-only instance with the server's settings. The server must be stopped:
 * DuckDB lets one process open the file.
 */
export async function measureEngine({
  root,
  databaseFile,
  scenarios,
  warmup,
  iterations,
  percentiles,
}) {
  const dist = (p) => path.join(root, 'dist', 'src', p);
  const { UsageExportRepository } = await import(dist('usage/export/usage-export.repository.js'));
  const { STATS_DEPENDENT_OPTIMIZERS } = await import(dist('database/duckdb.service.js'));
  const { ReaderConnection } = await import(dist('database/reader-connection.js'));
  const instance = await DuckDBInstance.create(databaseFile, {
    access_mode: 'READ_ONLY',
    disabled_optimizers: STATS_DEPENDENT_OPTIMIZERS,
  });
  const { refreshRange, spliceDates } = await import(dist('usage/export/usage-export.refresh.js'));
  const reader = new ReaderConnection(await instance.connect());
  const repository = new UsageExportRepository(
    { all: (sql, params) => reader.all(sql, params) },
    { usage: { snapshots: { mode: 'server' } } },
  );
  const results = [];
  /** A run of the repository's statements returning the `data` text of a query. */
  const exportData = (query, orgId) => () => repository.jsonData(query, orgId);
  try {
    for (const s of scenarios) {
      const query = exportQueryOf(s);
      const run = exportData(query, s.orgId);
      // Uncached statements of a year take up to a few hundred ms: PostgreSQL's budget per
      // row bounds them as it bounds PostgreSQL's own.
      const samples = await sampleTimes(run, { warmup, iterations, budgetMs: PG_BUDGET_MS });
      // The next request after usage of the period's last day: the cached answer brought
      // up to date by the dates that day touches (UsageExportService.currentData).
      const data = await run();
      const range = refreshRange(query, [s.endDate]);
      const runRange = exportData({ ...query, startDate: range.from, endDate: range.to }, s.orgId);
      const refresh = async () => spliceDates(data, range, await runRange());
      const refreshSamples = await sampleTimes(refresh, {
        warmup,
        iterations,
        budgetMs: PG_BUDGET_MS,
      });
      results.push({
        scenario: s.scenario,
        groupBy: s.groupBy,
        window: s.window,
        ...percentiles(samples),
        refresh: percentiles(refreshSamples),
      });
    }
  } finally {
    reader.close();
    instance.closeSync();
  }
  return results;
}
