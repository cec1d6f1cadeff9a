import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileServer, startFileServer, HELD_DOWNLOAD_ENV } from '../../support/file-server.js';
import { until } from '../../support/operations.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * Parse, extract, split, edit and pipelines share classification's job plumbing, admission
 * cap included: the spec caps "sync/parse requests", so sync requests of every operation,
 * async parse requests and pipeline runs (which start with a parse), sync or async, are
 * refused with 503 QUEUE_FULL when the cpu queue is at the cap, with no job.
 */
describe('queue admission cap on parse, extract, split, edit and pipelines', () => {
  let t: TestApp;
  let files: FileServer;

  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp({
      ...HELD_DOWNLOAD_ENV,
      CPU_WORKER_CONCURRENCY: '1',
      CPU_MAX_QUEUE_DEPTH: '1',
      QUEUE_POLL_INTERVAL_MS: '50',
    });
  });
  afterAll(async () => {
    await t?.close();
    await files.close();
  });

  it('refuses sync operations and async parse at the cap, accepts async extract', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-op-cap'));
    const slow = files.hold('/slow.txt', 'Invoice number 7');
    const doc = files.put('/doc.txt', 'Invoice number 8');
    const schema = { type: 'object', properties: { invoice_number: { type: 'string' } } };
    const pipeline = await api.post('/pipelines', {
      name: 'invoice number',
      steps: [{ extract: { instructions: { schema } } }],
    });
    expect(pipeline.status).toBe(201);
    const pipeline_id = pipeline.body.pipeline_id as string;
    const running = api.post('/parse', { input: slow.url });
    await until(
      async () => (await api.get('/queue_metrics')).body.queue_cpu_active_queue_length === 1,
      'the cpu queue to hold the running parse',
    );
    const refused = [
      await api.post('/parse', { input: doc }),
      await api.post('/parse_async', { input: doc }),
      await api.post('/extract', { input: doc, instructions: { schema } }),
      await api.post('/split', {
        input: doc,
        split_description: [{ name: 'invoice', description: 'an invoice' }],
      }),
      await api.post('/edit', { document_url: doc, edit_instructions: 'name: Ada' }),
      await api.post('/pipeline', { input: doc, pipeline_id }),
      await api.post('/pipeline_async', { input: doc, pipeline_id }),
    ];
    for (const res of refused) {
      expect({ status: res.status, code: res.body.error?.code }).toEqual({
        status: 503,
        code: 'QUEUE_FULL',
      });
      expect(res.headers.get('retry-after')).toBe('30');
    }
    expect((await api.get('/jobs')).body.jobs).toHaveLength(1);

    const accepted = await api.post('/extract_async', { input: doc, instructions: { schema } });
    expect(accepted.status).toBe(200);
    // Async edits are not gated either; a text file has no form, which the job says.
    const edit = await api.post('/edit_async', { document_url: doc, edit_instructions: 'x' });
    expect(edit.status).toBe(200);
    slow.release();
    expect((await running).status).toBe(200);
    expect((await waitForJob(api, accepted.body.job_id)).status).toBe('Completed');
    expect(await waitForJob(api, edit.body.job_id)).toMatchObject({
      status: 'Failed',
      reason: expect.stringContaining('PDF and DOCX'),
    });
    // With the queue empty again, a pipeline run is accepted and completes.
    await until(
      async () => (await api.get('/queue_metrics')).body.queue_cpu_active_queue_length === 0,
      'the cpu queue to empty',
    );
    const admitted = await api.post('/pipeline_async', { input: doc, pipeline_id });
    expect(admitted.status).toBe(200);
    const run = await waitForJob(api, admitted.body.job_id);
    expect(run).toMatchObject({ status: 'Completed', type: 'Pipeline' });
    expect(Object.keys(run.result.result.extract.result)).toEqual(['invoice_number']);
  });
});
