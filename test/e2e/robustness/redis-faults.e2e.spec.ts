import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { FileServer, startFileServer, HELD_DOWNLOAD_ENV } from '../../support/file-server.js';
import {
  type ChildRun,
  type PrivateRedis,
  startPrivateRedis,
  startWorkerProcess,
  until,
} from '../../support/operations.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { invoiceClassificationSchema as schema } from '../../support/invoice-fixtures.js';

jest.setTimeout(180_000);

/**
 * Long on purpose: a request that waited on the paused Redis would wait until it resumes
 * (no command time-out on these connections) or, behind anything held across an enqueue,
 * this long. Half of it bounds the requests that must not wait: far above what a loaded
 * machine makes of them (a few seconds at worst), far below what waiting on Redis costs.
 */
const ENQUEUE_TIMEOUT_MS = 20_000;
const NOT_WAITING_ON_REDIS_MS = ENQUEUE_TIMEOUT_MS / 2;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = Date.now();
  const value = await work();
  return { ms: Date.now() - started, value };
}

/**
 * A Redis fault stays local. No Redis call runs inside a database
 * transaction or its lock; an enqueue that timed out never runs later; a killed worker's
 * job is taken up again within seconds.
 */
describe('Redis faults stay local', () => {
  let redis: PrivateRedis;
  let files: FileServer;
  let worker: ChildRun;
  let t: TestApp;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-redis-faults-'));
  const shared = () => ({
    REDIS_URL: redis.url,
    REDIS_QUEUE_PREFIX: 'faults',
    DATA_DIR: dataDir,
    ...HELD_DOWNLOAD_ENV,
    // Held as long as a loaded machine may take to start the worker that takes the job over.
    FETCH_TIMEOUT_MS: '600000',
    FETCH_DEADLINE_MS: '600000',
  });
  const startWorker = () =>
    startWorkerProcess({
      ...shared(),
      REDIS_WORKER_LOCK_MS: '2000',
      WORKER_STATE_FILE: path.join(dataDir, `worker-state-${Date.now()}`),
    });

  beforeAll(async () => {
    redis = await startPrivateRedis();
    files = await startFileServer();
    worker = await startWorker();
    t = await startTestApp({
      ...shared(),
      WORKER_STATE_FILE: path.join(dataDir, 'api-worker-state'),
      ROLLOUT_RATIO_CLASSIFY: '1',
      REDIS_ENQUEUE_TIMEOUT_MS: String(ENQUEUE_TIMEOUT_MS),
      REDIS_RECONCILE_INTERVAL_MS: '500',
      OUTBOX_RELAY_INTERVAL_MS: '100',
    });
  });
  afterAll(async () => {
    redis.resume();
    await t?.close();
    await worker?.stop();
    await redis.stop();
    await files.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers requests that do not need Redis in normal time while Redis is paused', async () => {
    const key = await keyOf(t, 'org-faults');
    const api = client(t.baseUrl, key);
    const doc = files.put('/a.txt', 'invoice number 1');
    const warm = await api.post('/classify', { input: doc, classification_schema: schema });
    expect(warm.body.result.category).toBe('invoice');
    const normal = await timed(() => api.get('/health'));
    redis.pause();
    try {
      // A Redis-routed request waits out its own enqueue time-out, and only it.
      const routed = timed(() =>
        api.post('/classify_async', { input: doc, classification_schema: schema }),
      );
      const health = await timed(() => api.get('/health'));
      const upload = await timed(() =>
        fetch(`${t.baseUrl}/upload?extension=txt`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}` },
        }),
      );
      const jobs = await timed(() => api.get('/jobs'));
      expect(health.value.status).toBe(200);
      expect(upload.value.status).toBeLessThan(500);
      expect(jobs.value.status).toBe(200);
      process.stdout.write(
        `Redis paused: health ${health.ms} ms, upload ${upload.ms} ms, jobs ${jobs.ms} ms (normal health ${normal.ms} ms)\n`,
      );
      for (const ms of [health.ms, upload.ms, jobs.ms]) {
        expect(ms).toBeLessThan(NOT_WAITING_ON_REDIS_MS);
      }
      // It did wait on the paused Redis (so the others were measured while it was paused).
      const { ms: routedMs, value: submitted } = await routed;
      expect(routedMs).toBeGreaterThanOrEqual(ENQUEUE_TIMEOUT_MS - 100);
      expect(submitted.status).toBe(200);
      // The enqueue timed out: the job fell back to the database queue and completes there.
      const done = await waitForJob(api, submitted.body.job_id);
      expect(done.status).toBe('Completed');
    } finally {
      redis.resume();
    }
  });

  it('never runs an enqueue that timed out when Redis resumes: billed once, dropped by the worker', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-faults'));
    const doc = files.put('/b.txt', 'invoice number 2');
    redis.pause();
    let jobId: string;
    try {
      const submitted = await api.post('/classify_async', {
        input: doc,
        classification_schema: schema,
      });
      jobId = submitted.body.job_id;
    } finally {
      redis.resume();
    }
    await waitForJob(api, jobId);
    await until(
      () => worker.output().includes('revoked enqueue dropped without running'),
      'the worker to drop the revoked job',
      60_000,
    );
    const db = t.app.get(DuckDbService);
    const usage = await db.all<{ n: bigint }>(
      `SELECT count(*) AS n FROM usage_outbox WHERE job_id = $1`,
      [jobId],
    );
    expect(Number(usage[0].n)).toBe(1);
  });

  it("takes a killed worker's job up again within seconds", async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-faults'));
    const slow = files.hold('/slow.txt', 'invoice number 3');
    const submitted = await api.post('/classify_async', {
      input: slow.url,
      classification_schema: schema,
    });
    const jobId = submitted.body.job_id;
    const db = t.app.get(DuckDbService);
    await until(
      async () => {
        const rows = await db.all<{ status: string }>(
          `SELECT status FROM processing_jobs WHERE job_id = $1`,
          [jobId],
        );
        return rows[0]?.status === 'running';
      },
      'the worker to start the job',
      20_000,
    );
    const downloads = () => files.requests.filter((url) => url === '/slow.txt').length;
    await until(() => downloads() > 0, 'the worker to fetch the held input', 20_000);
    // A second worker is up before the first dies, so what is measured is the hand-over:
    // from the kill to the second worker fetching the input again, not the classification
    // after it (which a loaded machine can stretch to any length).
    const second = await startWorker();
    worker.child.kill('SIGKILL');
    const killedAt = Date.now();
    const downloadsAtKill = downloads();
    await worker.stop();
    worker = second;
    await until(
      () => downloads() > downloadsAtKill,
      'the second worker to take the job up',
      60_000,
    );
    const takenUpMs = Date.now() - killedAt;
    slow.release();
    const done = await waitForJob(api, jobId, 120_000);
    expect(done.status).toBe('Completed');
    // Lock 2 s: the stalled check (every 1 s) finds it within ~3 s of the kill. Without the
    // lock setting BullMQ's own (30 s lock, stalled check every 30 s) would take 30 to 60 s.
    process.stdout.write(`killed worker's job taken up ${takenUpMs} ms after the kill\n`);
    expect(takenUpMs).toBeLessThan(20_000);
  });
});
