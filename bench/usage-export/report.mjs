// What the benchmark prints: the machine, the data set, the per-row table and the
// concurrent runs, as Markdown for docs/benchmarks.md.
import fs from 'node:fs';
import os from 'node:os';
import { DAYS, ORG_COUNT } from './dataset.mjs';
import { ITERATIONS, PG_BUDGET_MS, WARMUP, ms } from './options.mjs';

export function machine() {
  const cpu = /model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1];
  return {
    cpus: os.cpus().length,
    cpuModel: cpu,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    loadAverage: os.loadavg().map((n) => n.toFixed(2)),
    node: process.version,
  };
}

const triple = (p) => `${ms(p.p50)} / ${ms(p.p95)} / ${ms(p.p99)}`;

export function printTable(results, pgVariants) {
  const best = (r) =>
    pgVariants
      .map((v) => r.pg[v])
      .filter(Boolean)
      .sort((a, b) => a.p99 - b.p99)[0];
  const header = [
    'scenario',
    'groupBy',
    'window',
    'rows',
    'docproc p50/p95/p99 ms',
    'engine p50/p99 ms',
    'refresh after the last day p50/p99 ms',
    ...pgVariants.map((v) => `pg ${v} p50/p95/p99 ms (n)`),
    'ratio p50',
    'ratio p99',
    'ratio p99 vs raw',
    'best pg over HTTP p50/p95/p99 ms (variant, n)',
    'ratio p99 vs HTTP',
    'same rows',
  ];
  const lines = [header];
  for (const r of results) {
    const d = r.docproc;
    const b = best(r);
    const h = r.pgHttp;
    lines.push([
      r.scenario,
      r.groupBy,
      `${r.window}d`,
      String(d.rows),
      triple(d),
      r.engine ? `${ms(r.engine.p50)} / ${ms(r.engine.p99)}` : '-',
      r.engine?.refresh ? `${ms(r.engine.refresh.p50)} / ${ms(r.engine.refresh.p99)}` : '-',
      ...pgVariants.map((v) => (r.pg[v] ? `${triple(r.pg[v])} (${r.pg[v].n})` : '-')),
      b ? `${(b.p50 / d.p50).toFixed(1)}x` : '-',
      b ? `${(b.p99 / d.p99).toFixed(1)}x` : '-',
      r.pg.raw ? `${(r.pg.raw.p99 / d.p99).toFixed(1)}x` : '-',
      h ? `${triple(h)} (${h.variant}, ${h.n})` : '-',
      h ? `${(h.p99 / d.p99).toFixed(1)}x` : '-',
      r.sameRows,
    ]);
  }
  const out = lines.map((cells) => `| ${cells.join(' | ')} |`);
  out.splice(1, 0, `|${header.map(() => '---').join('|')}|`);
  return [...out, '', aheadSummary(results, best)].join('\n');
}

/**
 * Rows where docproc's p99 is at or below the peer's: over HTTP (the best variant behind
 * pg-http, requests alternating: what a user sees) and against the best variant's
 * statements without HTTP (the database alone).
 */
function aheadSummary(results, best) {
  const overHttp = results.filter((r) => r.pgHttp);
  const ahead = overHttp.filter((r) => r.docproc.p99 <= r.pgHttp.p99);
  const withPg = results.filter((r) => best(r));
  const aheadOfStatements = withPg.filter((r) => r.docproc.p99 <= best(r).p99);
  const behind = overHttp
    .filter((r) => r.docproc.p99 > r.pgHttp.p99)
    .map((r) => `${r.scenario} ${r.groupBy} ${r.window}d`);
  return (
    `docproc's p99 at or below PostgreSQL's best variant over HTTP on ${ahead.length} of ${overHttp.length} rows` +
    `${behind.length ? ` (behind: ${behind.join('; ')})` : ''};` +
    ` at or below its statements without HTTP on ${aheadOfStatements.length} of ${withPg.length}.`
  );
}

/** The whole printed report. */
export function reportText(report, dataset, pgVariants) {
  const { httpFloor } = report;
  const lines = [];
  lines.push(
    `## Usage export benchmark: ${dataset.events} events, ${ORG_COUNT} orgs, ${DAYS} days`,
  );
  lines.push(`machine: ${JSON.stringify(report.machine)}`);
  lines.push(`versions: ${JSON.stringify(report.versions)}`);
  lines.push(
    `table rows: ${JSON.stringify(dataset.sizes)}, DuckDB file ${report.dataset.duckdbFileMiB} MiB`,
  );
  lines.push(
    `load times (ms${dataset.reused ? ', from the run that built the cache' : ''}): ${JSON.stringify(dataset.timings)}`,
  );
  lines.push(
    `docproc: HTTP, ${WARMUP} warm-up + ${ITERATIONS} sequential requests per row` +
      (report.settings.uncached
        ? ', **without the result cache** (USAGE_EXPORT_CACHE_MB=0: every request runs the statements).'
        : ', answered by the result cache after the first.') +
      ' PostgreSQL: node-postgres' +
      ` prepared statements without HTTP, 2 warm-up + up to ${ITERATIONS} (stops after ${PG_BUDGET_MS / 1000} s, at least 5).` +
      ' Ratio = best PostgreSQL variant (lower p99) / docproc; "vs raw" = the events table with a btree on (org_id, day), no rollups. "over HTTP": that best variant behind' +
      " a tiny node:http + pg.Pool wrapper (bench/usage-export/pg-http.mjs), same client as docproc, its requests alternating with docproc's (docproc then stops with it).",
  );
  lines.push('');
  lines.push(printTable(report.results, pgVariants));
  lines.push('');
  lines.push(
    `Floors: GET /health over HTTP p50/p95/p99 ${triple(httpFloor)} ms` +
      (httpFloor.peer
        ? ` (pg-http's, alternating with it: ${triple(httpFloor.peer)} ms, node:http without PostgreSQL);`
        : ';') +
      ' "engine" = the export\'s statements as the server runs them (UsageExportRepository on a' +
      ' pooled reader connection) on the DuckDB file, without HTTP, authentication or cache' +
      ` (up to ${PG_BUDGET_MS / 1000} s per row, at least 5 samples);` +
      ' "refresh" = what the first request after usage of the last day costs there: the' +
      ' statements over the dates that day touches, spliced into the cached rows.',
  );
  lines.push('');
  lines.push(
    'Concurrent (4 and 100 connections, 10 s): docproc over HTTP with autocannon, PG narrow rollups with a pg.Pool loop (4 connections)',
  );
  for (const c of report.concurrent) lines.push(JSON.stringify(c));
  lines.push('');
  lines.push(`docproc server RSS MiB: ${JSON.stringify(report.rss)}`);
  return lines.join('\n');
}
