import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { HELD_DOWNLOAD_ENV, type FileServer } from '../../support/file-server.js';
import {
  databaseQueueTasks,
  type NewQueueSetup,
  startNewQueueSetup,
} from '../../support/new-queue.js';
import { until } from '../../support/operations.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { invoiceClassificationSchema as schema } from '../../support/invoice-fixtures.js';

jest.setTimeout(120_000);

/**
 * A job on the new queue system shows Running (`InProgress` in `GET /jobs`, progress 0.1)
 * once a worker process starts it, although that process has no DuckDB: the API process
 * records the start from the worker's report. Real Redis, a real worker process.
 */
describe('new-queue jobs report running', () => {
  let setup: NewQueueSetup;
  let files: FileServer;
  let t: TestApp;

  beforeAll(async () => {
    setup = await startNewQueueSetup('running');
    files = setup.files;
    t = await startTestApp({
      ...setup.apiEnv,
      ROLLOUT_RATIO_CLASSIFY: '1',
      ...HELD_DOWNLOAD_ENV,
      // The reconciler (which would also notice a running job) stays out of the way.
      REDIS_RECONCILE_INTERVAL_MS: '3600000',
    });
  });
  afterAll(async () => {
    await t?.close();
    await setup?.close();
  });

  it('goes Pending -> running when the worker starts it, then Completed', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-running'));
    const held = files.hold('/held.txt', 'invoice number 7');
    const submitted = await api.post('/classify_async', {
      input: held.url,
      classification_schema: schema,
    });
    expect(submitted.status).toBe(200);
    const jobId = submitted.body.job_id as string;
    const db = t.app.get(DuckDbService);
    // On Redis, not in the database queue.
    expect(await databaseQueueTasks(db, jobId)).toBe(0);

    const listed = async () =>
      ((await api.get('/jobs')).body.jobs as { job_id: string; status: string }[]).find(
        (j) => j.job_id === jobId,
      )?.status;
    // The worker holds the job (its input is not served yet): it is running, not finished.
    await until(async () => (await listed()) === 'InProgress', 'the job to show InProgress');
    const running = (await api.get(`/job/${jobId}`)).body;
    expect(running).toMatchObject({ status: 'Pending', progress: 0.1 });
    const rows = await db.all<{ status: string; started: boolean; attempts: number }>(
      `SELECT status, started_at IS NOT NULL AS started, attempts FROM processing_jobs
       WHERE job_id = $1`,
      [jobId],
    );
    expect(rows[0]).toMatchObject({ status: 'running', started: true });
    expect(Number(rows[0].attempts)).toBe(0);

    held.release();
    const done = await waitForJob(api, jobId);
    expect(done).toMatchObject({ status: 'Completed', progress: 1 });
    expect(done.result.result.category).toBe('invoice');
    expect(await listed()).toBe('Completed');
  });
});
