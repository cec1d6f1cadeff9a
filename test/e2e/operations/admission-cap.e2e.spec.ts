import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { FileServer, startFileServer, HELD_DOWNLOAD_ENV } from '../../support/file-server.js';
import { recordLogs, until } from '../../support/operations.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { invoiceClassificationSchema as schema } from '../../support/invoice-fixtures.js';
import { metricSum } from '../../support/metrics.js';

const CAP = 3;

async function count(t: TestApp, sql: string): Promise<number> {
  const rows = await t.app.get(DuckDbService).all<{ n: bigint }>(sql);
  return Number(rows[0].n);
}

describe('queue admission cap', () => {
  let t: TestApp;
  let files: FileServer;
  const logs = recordLogs();

  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp({
      LOG_LEVEL: 'info',
      ...HELD_DOWNLOAD_ENV,
      CPU_WORKER_CONCURRENCY: '1',
      CPU_MAX_QUEUE_DEPTH: String(CAP),
      BATCH_MAX_QUEUE_DEPTH: '2',
      OUTBOX_RELAY_INTERVAL_MS: '50',
      QUEUE_POLL_INTERVAL_MS: '50',
    });
  });
  afterAll(async () => {
    await t?.close();
    await files.close();
    logs.restore();
  });

  it('refuses request N+1 with 503 QUEUE_FULL and Retry-After: 30, creating no job and no usage', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-cap'));
    const slow = files.hold('/slow.txt', 'invoice number 7');
    // N sync requests on one slow worker: one running, N-1 queued.
    const accepted = Array.from({ length: CAP }, () =>
      api.post('/classify', { input: slow.url, classification_schema: schema }),
    );
    // Waits for the worker to have claimed one as well (on a loaded machine the N-th
    // enqueue can come before the first claim).
    await until(async () => {
      const body = (await api.get('/queue_metrics')).body;
      return (
        body.queue_cpu_active_queue_length === CAP && body.queues.cpu.lanes.priority.running === 1
      );
    }, 'the cpu queue to hold N jobs, one of them running');
    const metrics = (await api.get('/queue_metrics')).body;
    expect(metrics.queues.cpu.lanes.priority).toEqual({ queued: CAP - 1, running: 1 });
    const jobsBefore = (await api.get('/jobs')).body.jobs.length;
    const outboxBefore = await count(t, 'SELECT count(*) AS n FROM usage_outbox');
    expect(jobsBefore).toBe(CAP);

    const refused = await api.post('/classify', { input: slow.url, classification_schema: schema });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.body.error.code).toBe('QUEUE_FULL');
    // An async request of the standard lane is not gated (only sync/parse requests are).
    const asyncOk = await api.post('/classify_async', {
      input: slow.url,
      classification_schema: schema,
    });
    expect(asyncOk.status).toBe(200);

    expect((await api.get('/jobs')).body.jobs.length).toBe(jobsBefore + 1);
    expect(await count(t, 'SELECT count(*) AS n FROM usage_outbox')).toBe(outboxBefore);
    expect(await metricSum(t.baseUrl, 'service_admission_queue_full_total')).toBe(1);

    // Batch requests ignore the full cpu queue; their own cap (2) still applies.
    const batchA = await api.post('/classify_async', {
      input: slow.url,
      classification_schema: schema,
      queue_priority: 'batch',
    });
    const batchB = await api.post('/classify_async', {
      input: slow.url,
      classification_schema: schema,
      queue_priority: 'batch',
    });
    expect([batchA.status, batchB.status]).toEqual([200, 200]);
    const batchC = await api.post('/classify_async', {
      input: slow.url,
      classification_schema: schema,
      queue_priority: 'batch',
    });
    expect(batchC.status).toBe(503);
    expect(batchC.body.error).toMatchObject({ code: 'QUEUE_FULL', lane: 'batch' });
    const lanes = (await api.get('/queue_metrics')).body.queues.cpu.lanes;
    expect(lanes.batch.queued).toBe(2);
    expect(await metricSum(t.baseUrl, 'service_admission_queue_full_total')).toBe(2);

    slow.release();
    const results = await Promise.all(accepted);
    expect(results.map((r) => r.status)).toEqual(Array(CAP).fill(200));
    for (const job of [asyncOk, batchA, batchB]) await waitForJob(api, job.body.job_id);
    await until(
      async () => (await api.get('/queue_metrics')).body.queue_cpu_active_queue_length === 0,
      'the queue to empty',
    );
    // One usage event per accepted job (the usage outbox feeds the export), none for the
    // refused ones.
    await until(
      async () => (await count(t, 'SELECT count(*) AS n FROM usage_outbox')) === CAP + 3,
      'usage',
    );
    expect(await count(t, 'SELECT count(*) AS n FROM processing_jobs')).toBe(CAP + 3);

    const rejected = logs.entries.filter((e) => e.msg === 'queue_depth_cap.rejected');
    expect(rejected).toHaveLength(2);
    expect(rejected[0]).toMatchObject({
      event: 'queue_depth_cap.rejected',
      signal: 'service.admission.queue_full',
      queue: 'cpu',
      depth: CAP,
      cap: CAP,
    });
  });
});
