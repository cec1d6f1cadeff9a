#!/usr/bin/env node
// Database file size under job history retention (after `npm run build`):
//   node bench/job-history-size.mjs [--jobs 150000] [--request-bytes 1500] [--cycles 20]
// A fresh DATA_DIR migrated as the server does; --jobs finished jobs written oldest first
// (as they arrive), each with a request of --request-bytes in its row; then the oldest two
// thirds deleted by the retention's own repository in its batches of 1 000, then as many
// new jobs again, then --cycles (20) of a tenth of --jobs in and the oldest as many out,
// then the file compacted as `docproc-admin database compact` does. The file's size is printed after each step's CHECKPOINT, so whether
// deletes give space back (or only let it be reused) is read off the numbers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './local-kafka.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = benchArgs();
const JOBS = Number(args.jobs ?? 150_000);
const REQUEST_BYTES = Number(args['request-bytes'] ?? 1500);
const DAY = 24 * 3600;
const CYCLES = Number(args.cycles ?? 20);

await import('reflect-metadata');
const dist = (p) => path.join(ROOT, 'dist', 'src', p);
const { loadConfig } = await import(dist('config/app-config.js'));
const { DuckDbService } = await import(dist('database/duckdb.service.js'));
const { applyMigrations } = await import(dist('database/migrations.js'));
const { JobHistoryRepository } = await import(dist('processing/jobs/job-history.repository.js'));
const { compactDatabase } = await import(dist('database/database-compaction.js'));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-history-'));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error' });
const db = new DuckDbService(config);
await db.open();
await applyMigrations(db);
const file = path.join(dataDir, 'docproc.duckdb');
const mb = () => (fs.statSync(file).size / 1e6).toFixed(1);
/** Blocks the file holds in use and free for reuse (PRAGMA database_size). */
async function blocks() {
  const [row] = await db.all('SELECT used_blocks, free_blocks FROM pragma_database_size()');
  return `${row.used_blocks} used, ${row.free_blocks} free`;
}

/** Finished jobs `first` to `first + count - 1`, job i finished i seconds after 60 days ago. */
const BASE = new Date(Date.now() - 60 * DAY * 1000).toISOString();
async function addJobs(first, count) {
  await db.run(
    `INSERT INTO processing_jobs (job_id, org_id, api_key_id, type, status, is_async, request,
       result_expired, created_at, finished_at)
     SELECT 'job-' || i, 'org-bench', 'key-bench', 'classify', 'completed', true,
       json_object('input', 'https://example.com/' || i, 'pad', repeat('x', $3)), true,
       CAST($4 AS TIMESTAMPTZ) + to_seconds(i), CAST($4 AS TIMESTAMPTZ) + to_seconds(i)
     FROM range(CAST($1 AS BIGINT), CAST($1 AS BIGINT) + $2) t(i)`,
    [first, count, REQUEST_BYTES, BASE],
  );
  await db.run('CHECKPOINT');
}

const report = [];
await addJobs(0, JOBS);
report.push({ step: `${JOBS} jobs`, mb: mb(), blocks: await blocks() });
const history = new JobHistoryRepository(db);
/** Deletes, in the retention's batches, every job older than the `count`-th oldest ever written. */
async function deleteOldest(count) {
  const [{ age }] = await db.all(
    `SELECT CAST(epoch(now() - finished_at) AS BIGINT) AS age FROM processing_jobs
     WHERE job_id = 'job-' || CAST($1 AS BIGINT)`,
    [count],
  );
  let rows = 0;
  for (;;) {
    const { jobs } = await history.deleteFinishedBefore(Number(age), 1_000);
    rows += jobs;
    if (jobs < 1_000) return { rows };
  }
}
const started = Date.now();
const { rows: deleted } = await deleteOldest(Math.round((JOBS * 2) / 3));
const seconds = (Date.now() - started) / 1000;
await db.run('CHECKPOINT');
report.push({
  step: `${deleted} oldest deleted (${seconds.toFixed(1)} s)`,
  mb: mb(),
  blocks: await blocks(),
});
await addJobs(JOBS, deleted);
report.push({ step: `${deleted} new jobs`, mb: mb(), blocks: await blocks() });
// Steady state: each cycle a tenth of --jobs arrives and as many of the oldest leave, so
// the live rows stay at --jobs while the file is watched.
let next = JOBS + deleted;
const step = Math.round(JOBS / 10);
for (let cycle = 1; cycle <= CYCLES; cycle++) {
  await addJobs(next, step);
  next += step;
  const { rows } = await deleteOldest(next - JOBS);
  await db.run('CHECKPOINT');
  if (cycle % Math.max(1, Math.round(CYCLES / 5)) === 0 || cycle === CYCLES) {
    report.push({
      step: `cycle ${cycle}: +${step} jobs, ${rows} oldest deleted`,
      mb: mb(),
      blocks: await blocks(),
    });
  }
}
const live = await db.all('SELECT count(*) AS n FROM processing_jobs');
report.push({ step: `live rows ${live[0].n}`, mb: mb() });
db.onApplicationShutdown();
// What `docproc-admin database compact` gives, on the same file.
const compaction = await compactDatabase(config);
report.push({
  step: `docproc-admin database compact (${compaction.seconds.toFixed(1)} s)`,
  mb: (compaction.bytesAfter / 1e6).toFixed(1),
});
console.table(report);
fs.rmSync(dataDir, { recursive: true, force: true });
