// One client, one request at a time: docproc over HTTP, PostgreSQL without HTTP (each
// variant), and PostgreSQL's best variant behind pg-http.mjs.
import { performance } from 'node:perf_hooks';
import { sampleTimes } from './floor.mjs';
import { pgExportSql } from './postgres.mjs';
import { ITERATIONS, PG_BUDGET_MS, WARMUP } from './options.mjs';
import { canonical, exportPath, percentiles, pgHttpPath, pgParams } from './scenarios.mjs';

/** Whether a PostgreSQL measurement takes another sample (its time budget, at least 5). */
const another = (count, started) =>
  count < ITERATIONS && (count < 5 || performance.now() - started < PG_BUDGET_MS);

async function timed(request) {
  const start = performance.now();
  await request();
  return performance.now() - start;
}

function docprocRequest(http, accountKey, s) {
  return async () => {
    const res = await http.request({
      method: 'GET',
      path: exportPath(s),
      headers: { authorization: `Bearer ${accountKey}` },
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`export ${res.statusCode}: ${text}`);
    return text;
  };
}

function pgHttpRequest(http, variant, s) {
  return async () => {
    const res = await http.request({ method: 'GET', path: pgHttpPath(variant, s) });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`pg-http ${res.statusCode}: ${text}`);
  };
}

/** docproc's first answer as canonical rows (credits are JSON number literals: kept as text). */
async function docprocRows(request) {
  const body = await request();
  return JSON.parse(body.replace(/"credits":([0-9.]+)/g, '"credits":"$1"')).data;
}

/** docproc alone (no PostgreSQL to compare with). */
export async function measureDocproc(http, accountKey, s) {
  const request = docprocRequest(http, accountKey, s);
  const rows = await docprocRows(request);
  // The first request above was the first warm-up.
  const samples = await sampleTimes(request, { warmup: WARMUP - 1, iterations: ITERATIONS });
  return { ...percentiles(samples), rows: rows.length, canonical: canonical(rows) };
}

/**
 * docproc and pg-http.mjs (serving PostgreSQL's `variant`) measured side by side: their
 * requests alternate (docproc first on even samples, pg-http first on odd ones), so both
 * see the same machine. On a machine shared with other work, measuring one after the other
 * compared one's quiet second with the other's busy one, and a p99 of 100 samples is
 * decided by two stalls.
 */
export async function measureSideBySide(docprocHttp, pgHttp, accountKey, s, variant) {
  const docproc = docprocRequest(docprocHttp, accountKey, s);
  const pg = pgHttpRequest(pgHttp, variant, s);
  const rows = await docprocRows(docproc);
  for (let i = 0; i < WARMUP - 1; i++) await docproc();
  for (let i = 0; i < WARMUP; i++) await pg();
  const docprocSamples = [];
  const pgSamples = [];
  const started = performance.now();
  while (another(pgSamples.length, started)) {
    const even = pgSamples.length % 2 === 0;
    if (even) docprocSamples.push(await timed(docproc));
    pgSamples.push(await timed(pg));
    if (!even) docprocSamples.push(await timed(docproc));
  }
  return {
    docproc: { ...percentiles(docprocSamples), rows: rows.length, canonical: canonical(rows) },
    pgHttp: { variant, ...percentiles(pgSamples) },
  };
}

/** PostgreSQL's variant without HTTP; null when the variant cannot answer the question. */
export async function measurePostgres(client, variant, s) {
  const sql = pgExportSql(variant, s);
  if (sql === null) return null;
  const query = () =>
    client.query({ name: `${variant}-${s.groupBy}`, text: sql, values: pgParams(s) });
  const first = await query();
  const rows = first.rows.map((r) => ({
    date: r.date,
    group: r.grp,
    ...(r.grp2 === undefined ? {} : { subgroup: r.grp2 }),
    credits: r.credits,
    requestCount: r.request_count,
  }));
  await query();
  const samples = [];
  const started = performance.now();
  while (another(samples.length, started)) samples.push(await timed(query));
  return { ...percentiles(samples), rows: rows.length, canonical: canonical(rows) };
}
