import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import Reducto, { toFile } from 'reductoai';
import { fetch as sdkFetch } from 'reductoai/_shims/index';
import { keyOf } from '../../support/processing-client.js';
import { makeLayoutPdf } from '../../support/layout-documents.js';
import { OpenApiConformance } from '../../support/openapi-conformance.js';
import { until } from '../../support/operations.js';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { waitFor } from '../../support/wait.js';
import { FileServer, startFileServer, HELD_DOWNLOAD_ENV } from '../../support/file-server.js';
import { startWebhookReceiver, WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * The official reductoai SDK pointed at docproc with `baseURL`, unchanged: every SDK call
 * docproc implements (upload, classify, parse, extract, split and their jobs, job
 * get/getAll/cancel, apiVersion, webhook.run), plus `/classify_async` through `post()`.
 * Every response the SDK receives is checked against docproc's own /openapi.json.
 */
describe('reductoai SDK compatibility', () => {
  // Parse, extract and split jobs plus a webhook delivery: slow on a loaded machine.
  jest.setTimeout(120_000);
  let t: TestApp;
  let files: FileServer;
  let receiver: WebhookReceiver;
  let sdk: Reducto;
  let pdfId: string;
  let conformance: OpenApiConformance;
  const schema = [
    { category: 'invoice', criteria: ['invoice number', 'amount due'] },
    { category: 'resume', criteria: ['work experience', 'education'] },
  ];

  beforeAll(async () => {
    files = await startFileServer();
    receiver = await startWebhookReceiver();
    t = await startTestApp({
      ...HELD_DOWNLOAD_ENV,
    });
    conformance = new OpenApiConformance(await (await fetch(`${t.baseUrl}/openapi.json`)).json());
    sdk = new Reducto({
      apiKey: await keyOf(t, 'sdk-org'),
      baseURL: t.baseUrl,
      maxRetries: 0,
      // The SDK's own fetch, with each response checked on its way back.
      fetch: conformance.wrap(sdkFetch),
    });
    const pdf = await makeLayoutPdf([
      { elements: [{ title: 'Invoice' }, { keyValues: [['Invoice Number', 'INV-7']] }] },
      { elements: [{ title: 'Service Agreement' }, { paragraph: 'Terms between parties.' }] },
    ]);
    pdfId = (await sdk.upload({ file: await toFile(pdf.bytes, 'doc.pdf'), extension: 'pdf' }))
      .file_id;
  });
  afterAll(async () => {
    await t.close();
    await files.close();
    await receiver.close();
  });
  afterEach(() => {
    expect(conformance.violations.splice(0)).toEqual([]);
  });

  /** Polls with the SDK until the job leaves Pending. */
  async function finished(jobId: string) {
    let job = await sdk.job.get(jobId);
    await until(
      async () => (job = await sdk.job.get(jobId)).status !== 'Pending',
      'job ' + jobId,
      60_000,
    );
    return job;
  }

  /** A `force_url_result` answer: `{type: "url", url, result_id}`; the URL serves the full body. */
  async function fetchUrlResult(result: unknown): Promise<Record<string, unknown>> {
    expect(result).toEqual({
      type: 'url',
      url: expect.stringMatching(/\/job\/[^/]+\/result\?expires=/),
      result_id: expect.any(String),
    });
    const res = await fetch((result as { url: string }).url);
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  }

  it('apiVersion() returns the API description version as a string', async () => {
    const version = await sdk.apiVersion();
    expect(typeof version).toBe('string');
    expect(version).toMatch(/^v\d+\.\d+\.\d+-[0-9A-Za-z.-]+$/);
    const doc = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as {
      info: { version: string };
    };
    expect(version).toBe(doc.info.version);
  });

  it('webhook.run() points at the hosted endpoints; a svix-mode job is delivered to them', async () => {
    const portal = await sdk.webhook.run();
    expect(portal).toBe(`${t.baseUrl}/webhooks/endpoints`);
    const endpoint = await sdk.post<unknown, { endpoint_id: string; secret: string }>(
      portal.slice(t.baseUrl.length),
      { body: { url: `${receiver.baseUrl}/hook`, channels: ['ops'] } },
    );
    receiver.secrets.push(endpoint.secret);
    const { job_id } = await sdk.parse.runJob({
      input: pdfId,
      async: { webhook: { mode: 'svix', channels: ['ops'] }, metadata: { run: 'svix' } },
    });
    await until(
      () => receiver.received.some((r) => r.body.job_id === job_id),
      'svix delivery',
      60_000,
    );
    expect(receiver.received.find((r) => r.body.job_id === job_id)).toMatchObject({
      path: '/hook',
      body: { status: 'Completed', metadata: { run: 'svix' } },
      verifiedWith: endpoint.secret,
    });
  });

  it('parse.run / parse.runJob, with settings.force_url_result', async () => {
    const full = await sdk.parse.run({ input: pdfId });
    // response_type: the tag the SDK's later versions tell responses apart by.
    expect(full).toMatchObject({
      response_type: 'parse',
      result: { type: 'full' },
      usage: { num_pages: 2 },
    });
    const asUrl = (await sdk.parse.run({
      input: pdfId,
      settings: { force_url_result: true },
    })) as Reducto.ParseResponse;
    const fetched = await fetchUrlResult(asUrl.result);
    expect(fetched).toMatchObject({ job_id: asUrl.job_id, result: { type: 'full' } });
    expect(fetched.result).toEqual((full as Reducto.ParseResponse).result);

    const { job_id } = await sdk.parse.runJob({
      input: pdfId,
      settings: { force_url_result: true },
    });
    const job = await finished(job_id);
    expect(job.status).toBe('Completed');
    const polled = job.result as { result: unknown };
    expect((await fetchUrlResult(polled.result)).job_id).toBe(job_id);
  });

  it('extract.run / extract.runJob, with parsing.settings.force_url_result', async () => {
    const instructions = {
      schema: { type: 'object', properties: { invoice_number: { type: 'string' } } },
    };
    const full = (await sdk.extract.run({ input: pdfId, instructions })) as { result: unknown };
    // An object in the schema's shape: the SDK's `v3_extract` (its `extract` is a list).
    expect(full).toMatchObject({
      response_type: 'v3_extract',
      result: { invoice_number: 'INV-7' },
    });
    const asUrl = (await sdk.extract.run({
      input: pdfId,
      instructions,
      parsing: { settings: { force_url_result: true } },
    })) as { result: unknown };
    expect((await fetchUrlResult(asUrl.result)).result).toEqual(full.result);

    const { job_id } = await sdk.extract.runJob({ input: pdfId, instructions });
    const job = await finished(job_id);
    expect(job).toMatchObject({ status: 'Completed', result: { result: full.result } });
  });

  it('split.run / split.runJob, with parsing.settings.force_url_result', async () => {
    const split_description = [
      { name: 'Invoice', description: 'An invoice with its number' },
      { name: 'Contract', description: 'Service agreement with terms between parties' },
    ];
    const full = await sdk.split.run({ input: pdfId, split_description });
    expect(full).toMatchObject({ response_type: 'split' });
    expect(full.result).toMatchObject({
      splits: [
        { name: 'Invoice', pages: [1] },
        { name: 'Contract', pages: [2] },
      ],
    });
    const asUrl = await sdk.split.run({
      input: pdfId,
      split_description,
      parsing: { settings: { force_url_result: true } },
    });
    expect((await fetchUrlResult(asUrl.result)).result).toEqual(full.result);

    const { job_id } = await sdk.split.runJob({ input: pdfId, split_description });
    const job = await finished(job_id);
    expect(job).toMatchObject({ status: 'Completed', result: { result: full.result } });
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
    await waitFor(
      'the job to finish',
      async () => (job = await sdk.job.get(job_id)).status !== 'Pending',
      30_000,
      25,
    );
    expect(job.status).toBe('Completed');
    expect(job.result).toMatchObject({ result: { category: 'resume' } });

    const all = await sdk.job.getAll({ limit: 10 });
    expect(all.jobs.map((j) => j.job_id)).toContain(job_id);
    expect(all.jobs[0]).toMatchObject({
      type: 'Classify',
      status: expect.any(String),
      raw_config: expect.any(String),
    });
    // Left out, the request is an empty string: the SDK types `raw_config` as one always.
    const light = await sdk.job.getAll({ limit: 1, exclude_configs: true });
    expect(light.jobs.map((j) => j.raw_config)).toEqual(['']);

    await expect(sdk.job.cancel(job_id)).rejects.toBeInstanceOf(Reducto.ConflictError);
    const held = files.hold('/held.txt', 'invoice number');
    const second = await sdk.post<unknown, { job_id: string }>('/classify_async', {
      body: { input: held.url },
    });
    // Running once a worker asks for its input (held back until `release`).
    await waitFor(
      'a worker to fetch the held input',
      () => files.requests.includes('/held.txt'),
      30_000,
      25,
    );
    expect(await sdk.job.cancel(second.job_id)).toEqual({
      job_id: second.job_id,
      status: 'Cancelling',
    });
    held.release();
    let cancelled = await sdk.job.get(second.job_id);
    await waitFor(
      'the cancelled job to finish',
      async () => (cancelled = await sdk.job.get(second.job_id)).status !== 'Pending',
      30_000,
      25,
    );
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
