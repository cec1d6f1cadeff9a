import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { FileServer, startFileServer, HELD_DOWNLOAD_ENV } from '../../support/file-server.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { until } from '../../support/operations.js';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { JobEvents } from '../../../src/processing/jobs/job-events.js';

/**
 * Jobs accepted before the process goes away are not lost: queued ones run after the
 * restart, and the one cut off mid-run is retried (bounded attempts) or Failed with a reason.
 * A sync job whose client a stop told to poll it finishes too; only one whose client was
 * never told its id is failed as interrupted.
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
    ...HELD_DOWNLOAD_ENV,
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

  it('finishes after the restart a sync job whose request a stop released with its job id', async () => {
    const syncEnv = { ...env, SHUTDOWN_DRAIN_MS: '1000' };
    let t: TestApp = await startTestApp(syncEnv);
    const api = client(t.baseUrl, await keyOf(t, 'org-restart-sync'));
    const blocker = files.hold('/blocker-3.txt', 'invoice number');
    const pending = api.post('/classify', { input: blocker.url });
    await until(() => files.requests.includes('/blocker-3.txt'), 'the sync job running');
    // The drain ends with the job running in a worker, which the stop then cuts off.
    await t.app.close();
    const answer = await pending;
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatchObject({ code: 'SHUTTING_DOWN', job_id: expect.any(String) });
    blocker.release();
    t = await startTestApp({ ...syncEnv, DATA_DIR: t.dataDir });
    try {
      const job = await waitForJob(
        client(t.baseUrl, await keyOf(t, 'org-restart-sync')),
        answer.body.error.job_id,
      );
      expect(job).toMatchObject({ status: 'Completed', result: expect.anything() });
      // Billed once, and still reported as the sync request it was.
      const events = await t.app
        .get(DuckDbService)
        .all<{ event: string }>(
          `SELECT CAST(event AS VARCHAR) AS event FROM usage_outbox WHERE job_id = $1`,
          [answer.body.error.job_id],
        );
      expect(
        events.map((e) => (JSON.parse(e.event) as { data: { async: boolean } }).data.async),
      ).toEqual([false]);
    } finally {
      await t.close();
    }
  });

  it('fails a sync job whose client was never told its id (it left) instead of running it for nobody', async () => {
    let t: TestApp = await startTestApp(env);
    const key = await keyOf(t, 'org-restart-sync-gone');
    const blocker = files.hold('/blocker-4.txt', 'invoice number');
    const leaving = new AbortController();
    const pending = fetch(`${t.baseUrl}/classify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: blocker.url }),
      signal: leaving.signal,
    }).catch(() => null);
    await until(() => files.requests.includes('/blocker-4.txt'), 'the sync job running');
    const events = t.app.get(JobEvents);
    leaving.abort();
    await pending;
    await until(() => events.waiting === 0, 'the server to see the client leave');
    await t.app.close();
    blocker.release();
    t = await startTestApp({ ...env, DATA_DIR: t.dataDir });
    try {
      const api = client(t.baseUrl, await keyOf(t, 'org-restart-sync-gone'));
      const listed = await api.get('/jobs');
      expect(listed.status).toBe(200);
      const jobId = listed.body.jobs[0].job_id as string;
      const job = await waitForJob(api, jobId);
      expect(job).toMatchObject({
        status: 'Failed',
        reason: expect.stringContaining('interrupted'),
      });
    } finally {
      await t.close();
    }
  });
});
