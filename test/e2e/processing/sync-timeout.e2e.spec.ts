import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Reducto from 'reductoai';
import { warmUpClassifier } from '../../../src/documents/classify/classify.js';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { startTestApp, TestApp } from '../../support/test-app.js';

const LIMIT_MS = 3000;
const schema = [
  { category: 'invoice', criteria: ['invoice number', 'amount due'] },
  { category: 'resume', criteria: ['work experience', 'education'] },
];

/**
 * SYNC_TIMEOUT_MS: a sync request whose job outlives the limit answers 504 SYNC_TIMEOUT
 * naming the job; the job keeps running and its result is there to poll.
 */
describe('sync request time limit', () => {
  let t: TestApp;
  let files: FileServer;
  let api: ReturnType<typeof client>;
  let apiKey: string;

  beforeAll(async () => {
    // Under jest the executors' work runs inline: load what they read (the document
    // libraries of every operation, the language model) before timing requests.
    await import('../../../src/documents/executors/operation.run.js');
    warmUpClassifier();
    files = await startFileServer();
    t = await startTestApp({ FETCH_ALLOW_HOSTS: '127.0.0.1', SYNC_TIMEOUT_MS: String(LIMIT_MS) });
    apiKey = await keyOf(t, 'org-sync-timeout');
    api = client(t.baseUrl, apiKey);
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it('answers a fast sync classify normally', async () => {
    const url = files.put('/fast.txt', 'Invoice number 1, amount due 5');
    const res = await api.post('/classify', { input: url, classification_schema: schema });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ category: 'invoice' });
  });

  it('answers 504 SYNC_TIMEOUT with the job id; the job completes and can be polled', async () => {
    const held = files.hold('/slow-invoice.txt', 'Invoice number 2, amount due 7');
    const started = Date.now();
    const res = await api.post('/classify', { input: held.url, classification_schema: schema });
    const waited = Date.now() - started;
    expect(res.status).toBe(504);
    expect(res.headers.get('x-should-retry')).toBe('false');
    expect(res.body).toEqual({
      error: {
        code: 'SYNC_TIMEOUT',
        message: expect.stringContaining(`GET /job/${res.body.error.job_id}`),
        job_id: expect.any(String),
      },
    });
    // At the limit given here: not before it, and (the download is held, so nothing else can
    // end the wait) far before the default 300 s one, with room for a loaded machine.
    expect(waited).toBeGreaterThanOrEqual(LIMIT_MS - 50);
    expect(waited).toBeLessThan(LIMIT_MS + 30_000);

    const jobId = res.body.error.job_id as string;
    expect((await api.get(`/job/${jobId}`)).body.status).toBe('Pending');
    held.release();
    const job = await waitForJob(api, jobId);
    expect(job).toMatchObject({
      status: 'Completed',
      type: 'Classify',
      result: { job_id: jobId, result: { category: 'invoice' } },
    });
  });

  it('applies to sync parse as well', async () => {
    const held = files.hold('/slow-parse.txt', 'Invoice number 3');
    const res = await api.post('/parse', { input: held.url });
    expect(res.status).toBe(504);
    expect(res.body.error.code).toBe('SYNC_TIMEOUT');
    held.release();
    const job = await waitForJob(api, res.body.error.job_id);
    expect(job).toMatchObject({ status: 'Completed', type: 'Parse' });
  });

  it('keeps the reductoai SDK from resubmitting (one job, not three)', async () => {
    const held = files.hold('/slow-sdk.txt', 'Invoice number 4, amount due 9');
    const sdk = new Reducto({ apiKey, baseURL: t.baseUrl, maxRetries: 2 });
    const error = await sdk.classify
      .run({ input: held.url, classification_schema: schema })
      .then(() => null)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Reducto.APIError);
    expect((error as InstanceType<typeof Reducto.APIError>).status).toBe(504);
    held.release();
    const listed = await api.get('/jobs?limit=100');
    const submitted = (listed.body.jobs as { raw_config: string }[]).filter((job) =>
      job.raw_config.includes('/slow-sdk.txt'),
    );
    expect(submitted).toHaveLength(1);
  });
});
