import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ALL_ROLLOUT_KEYS, rolloutEnvName } from '../../../src/operations/operations.config.js';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { testRedisUrl } from '../../support/redis.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

const ALL_ONE = Object.fromEntries(ALL_ROLLOUT_KEYS.map((k) => [rolloutEnvName(k), '1']));
const LEGACY_OFF = {
  WORKER_ENABLED: 'false',
  WORKER_PRIORITY_COUNT: '0',
  GPU_WORKER_ENABLED: 'false',
};

/**
 * `Idle`: a job queued where no worker of the deployment claims it. Here the legacy
 * (database-queue) workers are off, so a parse job, which only the database queue serves,
 * waits Idle; once a deployment with workers starts on the same data it runs and completes.
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
      REDIS_URL: testRedisUrl(),
      REDIS_QUEUE_PREFIX: `docproc-idle-${randomUUID()}`,
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      QUEUE_POLL_INTERVAL_MS: '50',
      WORKER_STATE_FILE: path.join(dataDir, 'worker-state'),
      ...ALL_ONE,
    };
  });
  afterAll(async () => {
    await t?.close();
    await files.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows Idle while no worker claims the job, then Pending work completes once one does', async () => {
    t = await startTestApp({ ...base, ...LEGACY_OFF });
    let api = client(t.baseUrl, await keyOf(t, 'org-idle'));
    const url = files.put('/idle.txt', 'Invoice number 5');
    const submitted = await api.post('/parse_async', { input: url });
    expect(submitted.status).toBe(200);
    const jobId = submitted.body.job_id as string;

    // It stays Idle: nothing picks it up.
    await new Promise((r) => setTimeout(r, 300));
    const idle = await api.get(`/job/${jobId}`);
    expect(idle.body).toMatchObject({ job_id: jobId, status: 'Idle', result: null, type: 'Parse' });
    const listed = await api.get('/jobs');
    expect(listed.body.jobs).toEqual([expect.objectContaining({ job_id: jobId, status: 'Idle' })]);
    expect(files.requests).not.toContain('/idle.txt');
    await t.close();

    // A deployment with legacy workers on the same data (the spec's rollback) runs it.
    t = await startTestApp(base);
    api = client(t.baseUrl, await keyOf(t, 'org-idle'));
    const job = await waitForJob(api, jobId, 30_000);
    expect(job).toMatchObject({ status: 'Completed', type: 'Parse' });
    expect(files.requests).toContain('/idle.txt');
  }, 60_000);
});
