// Many clients at once: docproc over HTTP with autocannon, PostgreSQL with a pg.Pool loop.
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import pg from 'pg';
import { pgExportSql } from './postgres.mjs';
import { exportPath, percentiles, pgParams } from './scenarios.mjs';

export async function concurrentDocproc(server, accountKey, s, connections, seconds) {
  const result = await autocannon({
    url: `${server.baseUrl}${exportPath(s)}`,
    headers: { authorization: `Bearer ${accountKey}` },
    connections,
    duration: seconds,
  });
  return {
    requests: result.requests.total,
    non2xx: result.non2xx,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

export async function concurrentPostgres(connection, variant, s, connections, seconds) {
  const pool = new pg.Pool({ ...connection, max: connections });
  const sql = pgExportSql(variant, s);
  const params = pgParams(s);
  const samples = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const start = performance.now();
        await pool.query({ name: `${variant}-${s.groupBy}`, text: sql, values: params });
        samples.push(performance.now() - start);
      }
    }),
  );
  await pool.end();
  const p = percentiles(samples);
  return { requests: samples.length, rps: samples.length / seconds, p50: p.p50, p99: p.p99 };
}
