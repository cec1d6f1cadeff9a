// Where an export's time goes: the server's HTTP floor (GET /health through the same
// client) and the DuckDB statement alone (the exact SQL the server runs, prepared once and
// re-executed on the store file, without HTTP, JSON framing or authentication).
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';

/** Milliseconds of `iterations` sequential calls of `fn`, after `warmup` untimed ones. */
export async function sampleTimes(fn, { warmup, iterations }) {
  for (let i = 0; i < warmup; i++) await fn();
  const samples = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples;
}

/** p50/p95/p99 of `iterations` sequential `GET /health` after `warmup`. */
export async function measureHttpFloor(http, { warmup, iterations, percentiles }) {
  const request = async () => {
    const res = await http.request({ method: 'GET', path: '/health' });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`/health ${res.statusCode}`);
  };
  return percentiles(await sampleTimes(request, { warmup, iterations }));
}

/**
 * The export statement of each scenario, captured from UsageExportRepository.jsonData and
 * timed on a read-only instance with the server's settings. The server must be stopped:
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
  const instance = await DuckDBInstance.create(databaseFile, {
    access_mode: 'READ_ONLY',
    disabled_optimizers: STATS_DEPENDENT_OPTIMIZERS,
  });
  const connection = await instance.connect();
  const results = [];
  try {
    for (const s of scenarios) {
      let captured;
      const capture = new UsageExportRepository(
        {
          all: async (sql, params) => {
            captured = { sql, params };
            return [];
          },
        },
        { usage: { snapshots: { mode: 'server' } } },
      );
      await capture.jsonData(
        {
          orgId: s.orgId,
          startDate: s.startDate,
          endDate: s.endDate,
          groupBy: s.dimensions[0],
          secondGroupBy: s.dimensions[1] ?? null,
          timeZone: s.timeZone,
          metadataKey: s.metadataKey,
          metadataValues: [],
          products: [],
          features: [],
          apiKeys: [],
          fileTypes: [],
        },
        s.orgId,
      );
      const statement = await connection.prepare(captured.sql);
      const run = async () => {
        statement.bind(captured.params);
        await (await statement.run()).getRows();
      };
      const samples = await sampleTimes(run, { warmup, iterations });
      results.push({
        scenario: s.scenario,
        groupBy: s.groupBy,
        window: s.window,
        ...percentiles(samples),
      });
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return results;
}
