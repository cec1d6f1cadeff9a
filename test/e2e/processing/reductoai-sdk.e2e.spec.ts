import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Reducto, { toFile } from 'reductoai';
import { keyOf } from '../../support/processing-client.js';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { FileServer, startFileServer } from '../../support/file-server.js';

/** The official reductoai SDK pointed at docproc with `baseURL`. */
describe('reductoai SDK compatibility', () => {
  let t: TestApp;
  let files: FileServer;
  let sdk: Reducto;
  const schema = [
    { category: 'invoice', criteria: ['invoice number', 'amount due'] },
    { category: 'resume', criteria: ['work experience', 'education'] },
  ];

  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp({ FETCH_ALLOW_HOSTS: '127.0.0.1' });
    sdk = new Reducto({ apiKey: await keyOf(t, 'sdk-org'), baseURL: t.baseUrl, maxRetries: 0 });
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it('uploads a file and classifies it by its docproc:// id', async () => {
    const upload = await sdk.upload({
      file: await toFile(Buffer.from('Invoice number 3. Amount due: 12 EUR'), 'invoice.txt'),
      extension: 'txt',
    });
    expect(upload).toEqual({
      file_id: expect.stringMatching(/^docproc:\/\/.+\.txt$/),
      presigned_url: null,
    });
    const result = await sdk.classify.run({ input: upload, classification_schema: schema });
    expect(result.result.category).toBe('invoice');
    expect(result.response_confidence?.categories[0]).toMatchObject({
      category: 'invoice',
      confidence: expect.any(Number),
    });
    expect(typeof result.duration).toBe('number');
  });

  it('gets a presigned URL when uploading without a file', async () => {
    const upload = await sdk.upload({ extension: 'pdf' });
    expect(upload.file_id).toMatch(/^docproc:\/\/.+\.pdf$/);
    expect(upload.presigned_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/upload\//);
  });

  it('submits /classify_async through post() and polls, lists and cancels jobs', async () => {
    const url = files.put('/resume.txt', 'Work experience: 5 years. Education: MSc.');
    const { job_id } = await sdk.post<unknown, { job_id: string }>('/classify_async', {
      body: { input: url, classification_schema: schema, async: { metadata: { team: 'hr' } } },
    });
    let job = await sdk.job.get(job_id);
    for (let i = 0; i < 200 && job.status === 'Pending'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      job = await sdk.job.get(job_id);
    }
    expect(job.status).toBe('Completed');
    expect(job.result).toMatchObject({ result: { category: 'resume' } });

    const all = await sdk.job.getAll({ limit: 10 });
    expect(all.jobs.map((j) => j.job_id)).toContain(job_id);
    expect(all.jobs[0]).toMatchObject({
      type: 'Classify',
      status: expect.any(String),
      raw_config: expect.any(String),
    });

    await expect(sdk.job.cancel(job_id)).rejects.toBeInstanceOf(Reducto.ConflictError);
    const held = files.hold('/held.txt', 'invoice number');
    const second = await sdk.post<unknown, { job_id: string }>('/classify_async', {
      body: { input: held.url },
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(await sdk.job.cancel(second.job_id)).toEqual({
      job_id: second.job_id,
      status: 'Cancelling',
    });
    held.release();
    let cancelled = await sdk.job.get(second.job_id);
    for (let i = 0; i < 200 && cancelled.status === 'Pending'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      cancelled = await sdk.job.get(second.job_id);
    }
    expect(cancelled).toMatchObject({ status: 'Failed', reason: 'Job was cancelled' });
  });

  it('surfaces 422 validation errors and 404s as SDK errors', async () => {
    await expect(sdk.classify.run({ input: 42 as unknown as string })).rejects.toMatchObject({
      status: 422,
      error: { detail: [expect.objectContaining({ loc: ['body', 'input'] })] },
    });
    await expect(sdk.job.get('00000000-0000-0000-0000-000000000000')).rejects.toBeInstanceOf(
      Reducto.NotFoundError,
    );
  });
});
