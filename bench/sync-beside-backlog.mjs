// `npm run bench:sync-beside-backlog` (builds first; not part of the tests): the latency of
// one organization's sync requests while another organization's async backlog is queued,
// on the server as shipped (real executor processes). Per server run: organization A submits
// BACKLOG `parse_async` jobs on PAGES-page PDFs; then organization B
// sends SYNC sync `/parse` requests of a 1-page PDF, one after the other. Printed
// per run: B's first answer, p50/p95/max of all of B's answers, and where they spent their
// time from the job store (queued: created to started; running: started to finished).
// Before the backlog, WARM_REQUESTS (3) sync requests at once load the executors; B starts
// once A's first job is done and LAPSE_MS (65 s) have passed since them (the hold of the
// priority reserve, 60 s, lapsed: B's first request is the first priority work in a while).
// Environment: BACKLOG (50), PAGES (20), SYNC (10), ROUNDS (1); BACKLOG_ENVS, a JSON list of
// server environments the rounds alternate through, e.g. '[{"WORKER_PRIORITY_COUNT":"1"},{}]'.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { backlogFiles } from './lib/numbered-lines-pdf.mjs';
import { apiCall, fileServer, latencySummary, startServer } from './lib/server-under-test.mjs';

const BACKLOG = Number(process.env.BACKLOG ?? 50);
const PAGES = Number(process.env.PAGES ?? 20);
const SYNC = Number(process.env.SYNC ?? 10);
const WARM_REQUESTS = Number(process.env.WARM_REQUESTS ?? 3);
const LAPSE_MS = Number(process.env.LAPSE_MS ?? 65_000);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const ENVS = process.env.BACKLOG_ENVS ? JSON.parse(process.env.BACKLOG_ENVS) : [{}];
const emit = (line) => process.stdout.write(`${line}\n`);

const files = await backlogFiles(BACKLOG, PAGES);
const { server: fileHost, base: filesBase } = await fileServer(files);

async function run(env) {
  const server = await startServer(env);
  try {
    const a = await server.newOrgKey('tenant-a');
    const b = await server.newOrgKey('tenant-b');
    // Every executor loaded first (as many sync requests at once as there can be executors),
    // so the figures are the wait beside the backlog, not executors loading at start-up.
    await Promise.all(
      Array.from({ length: WARM_REQUESTS }, () =>
        apiCall(
          server.base,
          server.key,
          'POST',
          '/parse',
          { input: `${filesBase}/b.pdf` },
          300_000,
        ),
      ),
    );
    const warmedAt = performance.now();
    const ids = [];
    for (let i = 0; i < BACKLOG; i++) {
      const res = await apiCall(
        server.base,
        a,
        'POST',
        '/parse_async',
        { input: `${filesBase}/a-${i}.pdf` },
        60_000,
      );
      if (res.status !== 200) throw new Error(`A's parse_async: HTTP ${res.status}`);
      ids.push(res.json.job_id);
    }
    // B comes after a quiet while: no priority work for LAPSE_MS (the reserve's hold, 60 s
    // by default, has lapsed) and A's tasks running on every loop (its first one done).
    for (;;) {
      const first = await apiCall(server.base, a, 'GET', `/job/${ids[0]}`, undefined, 30_000);
      if (first.json?.status === 'Completed' && performance.now() - warmedAt > LAPSE_MS) break;
      await sleep(200);
    }
    const answers = [];
    for (let i = 0; i < SYNC; i++) {
      const res = await apiCall(
        server.base,
        b,
        'POST',
        '/parse',
        { input: `${filesBase}/b.pdf` },
        120_000,
      );
      if (res.status !== 200) throw new Error(`B's sync /parse: HTTP ${res.status}`);
      answers.push(res.ms);
    }
    await server.stop({ keepData: true });
    return { answers, stages: await syncStages(server.dataDir) };
  } finally {
    await server.stop();
  }
}

/** Queued (created to started) and running (started to finished) of B's sync jobs. */
async function syncStages(dataDir) {
  const instance = await DuckDBInstance.create(path.join(dataDir, 'docproc.duckdb'));
  const connection = await instance.connect();
  const reader = await connection.runAndReadAll(
    `SELECT epoch_ms(started_at) - epoch_ms(created_at) AS queued,
            epoch_ms(finished_at) - epoch_ms(started_at) AS running
     FROM processing_jobs WHERE NOT is_async AND started_at IS NOT NULL ORDER BY created_at
     OFFSET ${WARM_REQUESTS}`,
  );
  const rows = reader.getRowObjects();
  // A's tasks: how long each ran, the first ones on executors that were still loading.
  const backlog = (
    await connection.runAndReadAll(
      `SELECT epoch_ms(finished_at) - epoch_ms(started_at) AS running
       FROM processing_jobs WHERE is_async AND started_at IS NOT NULL ORDER BY started_at`,
    )
  ).getRowObjects();
  connection.closeSync();
  instance.closeSync();
  return {
    queued: rows.map((r) => Number(r.queued)),
    running: rows.map((r) => Number(r.running)),
    backlog: backlog.map((r) => Number(r.running)),
  };
}

emit(
  `sync beside a backlog: A ${BACKLOG} parse_async of ${PAGES}-page PDFs queued, ` +
    `then B ${SYNC} sync /parse of a 1-page PDF in turn`,
);
for (let round = 0; round < ROUNDS; round++) {
  for (const env of ENVS) {
    const { answers, stages } = await run(env);
    emit(`env ${JSON.stringify(env)} round ${round + 1}`);
    emit(
      `  B first ${Math.round(answers[0])} ms (queued ${stages.queued[0]}, running ${stages.running[0]})`,
    );
    emit(`  B all:  ${latencySummary(answers)}`);
    emit(`    queued ${latencySummary(stages.queued)}; running ${latencySummary(stages.running)}`);
    emit(
      `  A's tasks ran ${latencySummary(stages.backlog)}; the first three ${stages.backlog.slice(0, 3).join(', ')} ms`,
    );
  }
}
fileHost.close();
