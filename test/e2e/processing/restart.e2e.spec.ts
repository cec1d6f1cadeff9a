import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { until } from '../../support/operations.js';
import { DuckDbService } from '../../../src/database/duckdb.service.js';

/**
 * Jobs accepted before the process goes away are not lost: queued ones run after the
 * restart, and the one cut off mid-run is retried (bounded attempts) or Failed with a reason.
 */
jest.setTimeout(90_000);

describe('restart mid-queue', () => {
  let files: FileServer;
  beforeAll(async () => {
    files = await startFileServer();
  });
  afterAll(async () => {
    await files.close();
  });

  const env = {
    FETCH_ALLOW_HOSTS: '127.0.0.1',
    // A held URL download is what keeps a cpu worker busy in these tests.
    INPUT_DOWNLOADS: 'in_worker',
    CPU_WORKER_CONCURRENCY: '1',
    WORKER_SHUTDOWN_GRACE_MS: '100',
  };

  it('completes every job submitted before the app stopped, retrying the interrupted one', async () => {
    let t: TestApp = await startTestApp(env);
    const api = client(t.baseUrl, await keyOf(t, 'org-restart'));
    const blocker = files.hold('/blocker.txt', 'invoice number');
    const interrupted = (await api.post('/classify_async', { input: blocker.url })).body.job_id;
    const doc = files.put('/doc.txt', 'invoice number');
    const queued: string[] = [];
    for (let i = 0; i < 20; i++)
      queued.push((await api.post('/classify_async', { input: doc })).body.job_id);
    expect((await api.get(`/job/${queued[19]}`)).body.status).toBe('Pending');

    await t.app.close();
    blocker.release();
    t = await startTestApp({ ...env, DATA_DIR: t.dataDir });
    const api2 = client(t.baseUrl, await keyOf(t, 'org-restart'));
    try {
      for (const id of [interrupted, ...queued]) {
        expect((await waitForJob(api2, id)).status).toBe('Completed');
      }
      const rows = await t.app
        .get(DuckDbService)
        .all<{ attempts: number }>(`SELECT attempts FROM processing_jobs WHERE job_id = $1`, [
          interrupted,
        ]);
      expect(rows[0].attempts).toBe(2);
      const usage = await t.app
        .get(DuckDbService)
        .all<{ n: bigint }>(`SELECT count(*) AS n FROM usage_outbox`);
      expect(Number(usage[0].n)).toBe(21);
    } finally {
      await t.close();
    }
  });

  it('fails a job interrupted more often than JOB_MAX_ATTEMPTS, with a reason', async () => {
    let t: TestApp = await startTestApp({ ...env, JOB_MAX_ATTEMPTS: '1' });
    const api = client(t.baseUrl, await keyOf(t, 'org-restart-fail'));
    const blocker = files.hold('/blocker-2.txt', 'invoice number');
    const interrupted = (await api.post('/classify_async', { input: blocker.url })).body.job_id;
    await until(() => files.requests.includes('/blocker-2.txt'), 'the interrupted job running');
    await t.app.close();
    blocker.release();
    t = await startTestApp({ ...env, DATA_DIR: t.dataDir });
    try {
      const job = await waitForJob(
        client(t.baseUrl, await keyOf(t, 'org-restart-fail')),
        interrupted,
      );
      expect(job).toMatchObject({
        status: 'Failed',
        reason: expect.stringMatching(/Interrupted 1 time/),
      });
    } finally {
      await t.close();
    }
  });

  it('fails sync requests cut off by a restart instead of running them for nobody', async () => {
    let t: TestApp = await startTestApp(env);
    const api = client(t.baseUrl, await keyOf(t, 'org-restart-sync'));
    const blocker = files.hold('/blocker-3.txt', 'invoice number');
    const pending = api.post('/classify', { input: blocker.url });
    await until(() => files.requests.includes('/blocker-3.txt'), 'the sync job running');
    await t.app.close();
    const answer = await pending;
    expect(answer.status).toBe(503);
    blocker.release();
    t = await startTestApp({ ...env, DATA_DIR: t.dataDir });
    try {
      const job = await waitForJob(
        client(t.baseUrl, await keyOf(t, 'org-restart-sync')),
        answer.body.error.job_id,
      );
      expect(job).toMatchObject({
        status: 'Failed',
        reason: expect.stringContaining('interrupted'),
      });
    } finally {
      await t.close();
    }
  });
});
