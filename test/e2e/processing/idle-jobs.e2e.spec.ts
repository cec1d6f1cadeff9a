import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/** Only the priority worker kind runs: the legacy workers are on, standard-lane work is not. */
const PRIORITY_ONLY = {
  WORKER_ENABLED: 'false',
  WORKER_PRIORITY_COUNT: '1',
  GPU_WORKER_ENABLED: 'false',
};

/**
 * `Idle`: a job queued where no worker of the deployment claims it. Here the only
 * database-queue worker is a priority worker, so a standard-lane parse job waits Idle while
 * a priority-lane one runs; once a deployment with the standard worker starts on the same
 * data it runs and completes. (With every ratio 1.0 and the legacy workers off, parse runs
 * on the new queue system and never waits Idle; see redis-operations.e2e.spec.ts.)
 */
describe('Idle jobs', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-idle-'));
  let files: FileServer;
  let base: Record<string, string>;
  let t: TestApp | undefined;

  beforeAll(async () => {
    files = await startFileServer();
    base = {
      DATA_DIR: dataDir,
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      QUEUE_POLL_INTERVAL_MS: '50',
      WORKER_STATE_FILE: path.join(dataDir, 'worker-state'),
    };
  });
  afterAll(async () => {
    await t?.close();
    await files.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows Idle while no worker claims the job, then Pending work completes once one does', async () => {
    t = await startTestApp({ ...base, ...PRIORITY_ONLY });
    let api = client(t.baseUrl, await keyOf(t, 'org-idle'));
    const url = files.put('/idle.txt', 'Invoice number 5');
    const submitted = await api.post('/parse_async', { input: url });
    expect(submitted.status).toBe(200);
    const jobId = submitted.body.job_id as string;

    // The priority worker is running: priority-lane work completes meanwhile.
    const urgentUrl = files.put('/urgent.txt', 'Invoice number 6');
    const urgent = await api.post('/parse_async', {
      input: urgentUrl,
      async: { priority: true },
    });
    expect(urgent.status).toBe(200);
    const urgentJob = await waitForJob(api, urgent.body.job_id as string, 30_000);
    expect(urgentJob).toMatchObject({ status: 'Completed', type: 'Parse' });

    // The standard-lane job stays Idle: nothing picks it up. The urgent job, submitted after
    // it and finished, is the barrier: the running worker has looked at the queue since.
    const idle = await api.get(`/job/${jobId}`);
    expect(idle.body).toMatchObject({ job_id: jobId, status: 'Idle', result: null, type: 'Parse' });
    const listed = await api.get('/jobs');
    expect(listed.body.jobs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ job_id: jobId, status: 'Idle' }),
        expect.objectContaining({ job_id: urgent.body.job_id, status: 'Completed' }),
      ]),
    );
    // Its input was downloaded (URL inputs are, before a job is queued); nothing ran it.
    await t.close();

    // A deployment with the standard worker on the same data (the spec's rollback) runs it.
    t = await startTestApp(base);
    api = client(t.baseUrl, await keyOf(t, 'org-idle'));
    const job = await waitForJob(api, jobId, 30_000);
    expect(job).toMatchObject({ status: 'Completed', type: 'Parse' });
    expect(files.requests).toContain('/idle.txt');
  }, 60_000);
});
