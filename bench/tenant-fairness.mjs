// `npm run bench:fairness` (builds first; not part of the tests): one organization's sync
// requests beside another's burst of async work, on the server as shipped (its default
// settings, real executor processes). Per server run: organization A's burst alone (BURST
// `parse_async` jobs on PAGES-page PDFs, or A_OPERATION's), timed from the first submission
// to the last job completed; then organization B's small sync `/classify` requests alone
// (the baseline, same run); then A's burst again with B sending one such request every
// B_INTERVAL_MS until A's last job ended. Printed: B's latency p50/p95/max alone and beside
// the burst, where B's answers beside it spent their time (queued, running: from the job
// store), how many came while A still had jobs pending, and both burst times (throughput).
// Environment: BURST (30), PAGES (200), A_OPERATION (parse), B_INTERVAL_MS (1000), ROUNDS
// (1); FAIRNESS_ENVS, a JSON list of server environments the rounds alternate through,
// e.g. '[{"WORKER_PRIORITY_RESERVE":"0"},{}]'. FAIRNESS_REDIS_URL: the new queue system
// instead (REDIS_URL on that Redis, a key prefix of the run's own, every parse and classify
// request routed to it, one worker process of dist/src/worker.js beside the API process,
// both given the round's environment).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { setTimeout as sleep } from 'node:timers/promises';
import { backlogFiles } from './lib/numbered-lines-pdf.mjs';
import { apiCall, fileServer, latencySummary, startServer } from './lib/server-under-test.mjs';

const BURST = Number(process.env.BURST ?? 30);
const A_OPERATION = process.env.A_OPERATION ?? 'parse';
const PAGES = Number(process.env.PAGES ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const BASELINE_REQUESTS = 8;
const B_INTERVAL_MS = Number(process.env.B_INTERVAL_MS ?? 1000);
const ENVS = process.env.FAIRNESS_ENVS ? JSON.parse(process.env.FAIRNESS_ENVS) : [{}];
const REDIS_URL = process.env.FAIRNESS_REDIS_URL;
const emit = (line) => process.stdout.write(`${line}\n`);

const SCHEMA = [
  { category: 'minutes', criteria: ['records what a meeting discussed and decided'] },
  { category: 'invoice', criteria: ['has an invoice number', 'lists amounts due'] },
  { category: 'letter', criteria: ['addressed to a person, signed by the sender'] },
];

const files = await backlogFiles(BURST, PAGES);
const { server: fileHost, base: filesBase } = await fileServer(files);

async function bRequest(server, key) {
  const res = await apiCall(
    server.base,
    key,
    'POST',
    '/classify',
    { input: `${filesBase}/b.pdf`, classification_schema: SCHEMA },
    120_000,
  );
  if (res.status !== 200) throw new Error(`B's sync /classify: HTTP ${res.status}`);
  return res.ms;
}

/** A's burst: every job submitted, then polled until each completed; resolves to seconds. */
async function burst(server, a, onSubmitted) {
  const started = performance.now();
  const pending = new Set();
  for (let i = 0; i < BURST; i++) {
    const res = await apiCall(
      server.base,
      a,
      'POST',
      `/${A_OPERATION}_async`,
      {
        input: `${filesBase}/a-${i}.pdf`,
        ...(A_OPERATION === 'classify' ? { classification_schema: SCHEMA } : {}),
      },
      60_000,
    );
    if (res.status !== 200) throw new Error(`A's ${A_OPERATION}_async: HTTP ${res.status}`);
    pending.add(res.json.job_id);
  }
  onSubmitted?.(pending);
  while (pending.size) {
    for (const id of [...pending]) {
      const res = await apiCall(server.base, a, 'GET', `/job/${id}`, undefined, 30_000);
      const status = res.json?.status;
      if (status === 'Completed') pending.delete(id);
      else if (status === 'Failed') throw new Error(`A's job ${id} failed`);
    }
    if (pending.size) await sleep(200);
  }
  return (performance.now() - started) / 1000;
}

/**
 * The new queue system's share of a run: the settings both processes need and, once the API
 * process made the data directory, a worker process on it.
 */
function redisSetup(env) {
  if (!REDIS_URL) return null;
  const shared = {
    ...env,
    REDIS_URL,
    REDIS_QUEUE_PREFIX: `docproc-bench-fairness-${randomUUID()}`,
    FETCH_ALLOW_HOSTS: '127.0.0.1',
  };
  return {
    apiEnv: { ...shared, ROLLOUT_RATIO_PARSE: '1', ROLLOUT_RATIO_CLASSIFY: '1' },
    async startWorker(dataDir) {
      const child = spawn(process.execPath, ['dist/src/worker.js'], {
        env: {
          PATH: process.env.PATH ?? '',
          ...shared,
          DATA_DIR: dataDir,
          WORKER_STATE_FILE: path.join(dataDir, 'redis-worker-state'),
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk.toString()));
      child.stderr.on('data', (chunk) => (output += chunk.toString()));
      while (!output.includes('new-queue worker serving cpu and io')) {
        if (child.exitCode !== null) throw new Error(`worker exited: ${output.slice(-2000)}`);
        await sleep(100);
      }
      return async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      };
    },
  };
}

async function run(env) {
  const redis = redisSetup(env);
  const server = await startServer(redis?.apiEnv ?? env);
  const stopWorker = redis ? await redis.startWorker(server.dataDir) : null;
  try {
    const a = await server.newOrgKey('tenant-a');
    const b = await server.newOrgKey('tenant-b');
    // The burst with no sync request anywhere: the throughput figure of a burst alone.
    const burstAlone = await burst(server, a);
    // B's first requests start its executor; the figure is the wait, not that start.
    for (let i = 0; i < 2; i++) await bRequest(server, b);
    const alone = [];
    for (let i = 0; i < BASELINE_REQUESTS; i++) alone.push(await bRequest(server, b));
    // The burst again, B sending one request every B_INTERVAL_MS (or on its previous
    // answer, when that came later) until A's last job ended: a load of B's that does not
    // grow with how fast B is answered, so A's throughput beside it compares.
    let pending = null;
    const beside = [];
    let whilePending = 0;
    const bLoad = (async () => {
      while (!pending) await sleep(20);
      while (pending.size) {
        const next = performance.now() + B_INTERVAL_MS;
        beside.push(await bRequest(server, b));
        if (pending.size) whilePending++;
        await sleep(Math.max(0, next - performance.now()));
      }
    })();
    const burstBeside = await burst(server, a, (ids) => (pending = ids));
    await bLoad;
    await stopWorker?.();
    await server.stop({ keepData: true });
    const stages = await syncStages(server.dataDir, alone.length + 2);
    return { alone, beside, whilePending, burstAlone, burstBeside, stages };
  } finally {
    await stopWorker?.();
    await server.stop();
  }
}

/**
 * Where B's answers beside the burst spent their time, from the job store: queued (created
 * to started) and running (started to finished), per sync job after the first `skip`.
 */
async function syncStages(dataDir, skip) {
  const instance = await DuckDBInstance.create(path.join(dataDir, 'docproc.duckdb'));
  const connection = await instance.connect();
  const reader = await connection.runAndReadAll(
    `SELECT epoch_ms(started_at) - epoch_ms(created_at) AS queued,
            epoch_ms(finished_at) - epoch_ms(started_at) AS running
     FROM processing_jobs WHERE NOT is_async ORDER BY created_at OFFSET ${skip}`,
  );
  const rows = reader.getRowObjects();
  connection.closeSync();
  instance.closeSync();
  return { queued: rows.map((r) => Number(r.queued)), running: rows.map((r) => Number(r.running)) };
}

emit(
  `tenant fairness: A ${BURST} ${A_OPERATION}_async of ${PAGES}-page PDFs, B sync /classify of a 1-page PDF` +
    (REDIS_URL ? ', on the Redis queue' : ''),
);
for (let round = 0; round < ROUNDS; round++) {
  for (const env of ENVS) {
    const { alone, beside, whilePending, burstAlone, burstBeside, stages } = await run(env);
    emit(`env ${JSON.stringify(env)} round ${round + 1}`);
    emit(`  B alone:        ${latencySummary(alone)}`);
    emit(
      `  B beside burst: ${latencySummary(beside)}; ${whilePending} answered while A had jobs pending`,
    );
    emit(`    queued ${latencySummary(stages.queued)}; running ${latencySummary(stages.running)}`);
    emit(`  A's burst alone ${burstAlone.toFixed(1)} s, beside B ${burstBeside.toFixed(1)} s`);
  }
}
fileHost.close();
