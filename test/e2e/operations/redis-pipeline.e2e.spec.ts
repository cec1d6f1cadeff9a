import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import {
  invoiceClassificationSchema,
  invoiceExtractSchema,
} from '../../support/invoice-fixtures.js';
import { invoiceWithTerms, makeLayoutPdf } from '../../support/layout-documents.js';
import {
  databaseQueueTasks,
  type NewQueueSetup,
  startNewQueueSetup,
  usageEventsOf,
} from '../../support/new-queue.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

jest.setTimeout(180_000);

/**
 * Pipelines follow their own rollout ratio: with ROLLOUT_RATIO_PIPELINE at 1 a pipeline run,
 * sync or async, runs in a Redis worker process (real Redis, a real worker, no DuckDB there:
 * the plan travels with the job), on a URL input and on a jobid:// input whose parsed lines
 * the worker reads from the shared data directory. The API process records each outcome
 * with one usage event under product `pipeline`, and none went through the database queue.
 */
describe('pipelines on the new queue system', () => {
  let setup: NewQueueSetup;
  let t: TestApp;

  beforeAll(async () => {
    setup = await startNewQueueSetup('pipeline');
    // Parse stays on the API's workers: the jobid:// run below reads a parse made there.
    t = await startTestApp({ ...setup.apiEnv, ROLLOUT_RATIO_PIPELINE: '1' });
  });
  afterAll(async () => {
    await t?.close();
    await setup?.close();
  });

  it('runs sync and async pipelines in the worker process, on a URL and on jobid://', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-redis-pipeline'));
    const db = t.app.get(DuckDbService);
    expect((await api.get('/rollout')).body.ratios).toMatchObject({ pipeline: 1 });
    const pdf = await makeLayoutPdf(invoiceWithTerms(2));
    const doc = setup.files.put('/invoice.pdf', Buffer.from(pdf.bytes), 'application/pdf');
    const created = await api.post('/pipelines', {
      name: 'classify then extract',
      steps: [
        {
          classify: {
            classification_schema: invoiceClassificationSchema,
            extract_by_category: { invoice: { instructions: { schema: invoiceExtractSchema } } },
          },
        },
      ],
    });
    expect(created.status).toBe(201);
    const pipeline_id = created.body.pipeline_id as string;

    const sync = await api.post('/pipeline', { input: doc, pipeline_id });
    expect(sync.status).toBe(200);
    expect(sync.body.result.classify.result).toEqual({ category: 'invoice' });
    // The branch's extract answers as /extract does on the same document (run by the API).
    const direct = await api.post('/extract', {
      input: doc,
      instructions: { schema: invoiceExtractSchema },
    });
    expect(direct.status).toBe(200);
    expect(sync.body.result.extract).toMatchObject({
      category: 'invoice',
      result: direct.body.result,
    });
    expect(direct.body.result).toEqual({ invoice_number: 'INV-2026-0042' });
    const jobs = [sync.body.job_id as string];

    const parsed = await api.post('/parse', { input: doc });
    expect(parsed.status).toBe(200);
    const submitted = await api.post('/pipeline_async', {
      input: `jobid://${parsed.body.job_id as string}`,
      pipeline_id,
      async: { metadata: { source: 'redis' } },
    });
    expect(submitted.status).toBe(200);
    const done = await waitForJob(api, submitted.body.job_id as string, 90_000);
    expect(done).toMatchObject({ status: 'Completed', type: 'Pipeline' });
    expect(done.result.result.extract).toEqual(sync.body.result.extract);
    jobs.push(submitted.body.job_id as string);

    for (const jobId of jobs) {
      expect(await databaseQueueTasks(db, jobId)).toBe(0);
      const events = await usageEventsOf(db, jobId);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        jobId,
        product: 'pipeline',
        feature: 'parse+classify+extract',
      });
    }
  });
});
