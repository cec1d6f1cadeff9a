import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Reducto, { toFile } from 'reductoai';
import { ManualClock } from '../../../src/common/clock.js';
import { jobResultKey, parsedDocumentKey } from '../../../src/database/blob-keys.js';
import { BlobStore } from '../../../src/database/blob-store.js';
import { type FileServer, startFileServer } from '../../support/file-server.js';
import { keyOf } from '../../support/processing-client.js';
import { invoiceWithTerms, makeLayoutPdf } from '../../support/layout-documents.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { waitFor } from '../../support/wait.js';

type Body = Record<string, unknown>;

const schema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    total_due: { type: 'number' },
    line_items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { description: { type: 'string' }, amount: { type: 'number' } },
      },
    },
  },
};

const classificationSchema = [
  { category: 'invoice', criteria: ['an invoice with an amount due', 'invoice number'] },
  { category: 'contract', criteria: ['an agreement signed by two parties'] },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** `jobid://<parse job>` as the input of extract, split and classify, through the reductoai SDK. */
describe('jobid:// inputs reuse a completed parse job', () => {
  const clock = new ManualClock(new Date('2026-11-21T12:00:00Z'));
  let t: TestApp;
  let files: FileServer;
  let sdk: Reducto;
  let other: Reducto;
  let fileId: string;
  let parseJob: string;

  beforeAll(async () => {
    files = await startFileServer();
    // A held URL download keeps a parse job unfinished (see the 409 case below).
    t = await startTestApp(
      { FETCH_ALLOW_HOSTS: '127.0.0.1', INPUT_DOWNLOADS: 'in_worker' },
      { clock },
    );
    sdk = new Reducto({ apiKey: await keyOf(t, 'jobid-org'), baseURL: t.baseUrl, maxRetries: 0 });
    other = new Reducto({
      apiKey: await keyOf(t, 'jobid-other-org'),
      baseURL: t.baseUrl,
      maxRetries: 0,
    });
    const pdf = await makeLayoutPdf(invoiceWithTerms(24));
    fileId = (await sdk.upload({ file: await toFile(pdf.bytes, 'invoice.pdf'), extension: 'pdf' }))
      .file_id;
    parseJob = (await sdk.parse.run({ input: fileId })).job_id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await files?.close();
  });

  const post = (path: string, body: Body) => sdk.post<Body, Body>(path, { body });
  /** The answer without what differs between any two runs (its job and its duration). */
  const withoutTiming = (response: Body) =>
    Object.fromEntries(
      Object.entries(response).filter(([key]) => key !== 'job_id' && key !== 'duration'),
    );

  it('extract on jobid:// gives the answer of the original input, with less work', async () => {
    const request = { instructions: { schema }, settings: { citations: { enabled: true } } };
    // CPU time of this process (the app runs in it, document work inline): the work a
    // request did, which wall-clock time on a loaded machine would drown in waiting.
    const timed = async (input: string) => {
      const started = process.cpuUsage();
      const response = await post('/extract', { ...request, input });
      const used = process.cpuUsage(started);
      return { response, ms: (used.user + used.system) / 1000 };
    };
    const original: { response: Body; ms: number }[] = [];
    const reused: { response: Body; ms: number }[] = [];
    for (let round = 0; round < 3; round++) {
      original.push(await timed(fileId));
      reused.push(await timed(`jobid://${parseJob}`));
    }
    expect(withoutTiming(reused[0].response)).toEqual(withoutTiming(original[0].response));
    const result = original[0].response.result as Record<string, { value: unknown }>;
    expect(result.invoice_number.value).toBe('INV-2026-0042');
    process.stdout.write(
      `extract CPU ms, original ${original.map((r) => r.ms.toFixed(0)).join(', ')}; ` +
        `on jobid:// ${reused.map((r) => r.ms.toFixed(0)).join(', ')}\n`,
    );
    expect(median(reused.map((r) => r.ms))).toBeLessThan(median(original.map((r) => r.ms)));
  }, 180_000);

  it('split and classify on jobid:// answer as on the original input', async () => {
    const split = {
      split_description: [
        { name: 'invoice', description: 'The invoice with its line items' },
        { name: 'terms', description: 'Terms and conditions of sale' },
      ],
    };
    const splitOriginal = await post('/split', { ...split, input: fileId });
    const splitReused = await post('/split', { ...split, input: `jobid://${parseJob}` });
    expect(withoutTiming(splitReused)).toEqual(withoutTiming(splitOriginal));

    const classifyOriginal = await sdk.classify.run({
      input: fileId,
      classification_schema: classificationSchema,
    });
    const classifyReused = await sdk.classify.run({
      input: `jobid://${parseJob}`,
      classification_schema: classificationSchema,
    });
    expect(classifyOriginal.result).toEqual({ category: 'invoice' });
    expect(classifyReused.result).toEqual(classifyOriginal.result);
    expect((classifyReused as unknown as { usage: Body }).usage).toMatchObject({ num_pages: 5 });
  }, 180_000);

  it("another organization's job id is 404, as its file ids are", async () => {
    const request = { instructions: { schema }, input: `jobid://${parseJob}` };
    await expect(other.post('/extract', { body: request })).rejects.toBeInstanceOf(
      Reducto.NotFoundError,
    );
    await expect(
      other.post('/extract', { body: { ...request, input: fileId } }),
    ).rejects.toBeInstanceOf(Reducto.NotFoundError);
    await expect(
      other.classify.run({
        input: `jobid://${parseJob}`,
        classification_schema: classificationSchema,
      }),
    ).rejects.toBeInstanceOf(Reducto.NotFoundError);
    await expect(
      post('/extract', { ...request, input: 'jobid://00000000-0000-0000-0000-000000000000' }),
    ).rejects.toBeInstanceOf(Reducto.NotFoundError);
  }, 180_000);

  it('a job that is not a parse is a 400 naming why; a jobid:// input in a list a 422', async () => {
    const extracted = await post('/extract', { instructions: { schema }, input: fileId });
    const error = await post('/split', {
      split_description: [{ name: 'all', description: 'everything' }],
      input: `jobid://${extracted.job_id as string}`,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Reducto.BadRequestError);
    expect((error as { error: { error: Body } }).error.error).toEqual({
      code: 'NOT_A_PARSE_JOB',
      message: `jobid://${extracted.job_id as string} is a job of type Extract; only a parse job's document can be reused`,
    });
    await expect(
      post('/extract', { instructions: { schema }, input: [`jobid://${parseJob}`, fileId] }),
    ).rejects.toBeInstanceOf(Reducto.UnprocessableEntityError);
  }, 180_000);

  it('a parse job not yet completed is a 409 naming its state; once completed it is reused', async () => {
    const held = files.hold('/held.txt', 'Invoice number INV-77\nTotal due 12.00');
    const { job_id } = await sdk.parse.runJob({ input: held.url });
    const request = { instructions: { schema }, input: `jobid://${job_id}` };
    for (const path of ['/extract', '/extract_async']) {
      const error = await post(path, request).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Reducto.ConflictError);
      expect((error as { error: { error: Body } }).error.error).toMatchObject({
        code: 'JOB_NOT_COMPLETED',
        message: expect.stringMatching(
          /is (queued|running); a parse job can be reused once it has/,
        ),
      });
    }
    held.release();
    await waitFor(
      `parse ${job_id} to finish`,
      async () => (await sdk.job.get(job_id)).status !== 'Pending',
      60_000,
    );
    expect((await sdk.job.get(job_id)).status).toBe('Completed');
    const reused = await post('/extract', request);
    const original = await post('/extract', { ...request, input: held.url });
    expect(withoutTiming(reused)).toEqual(withoutTiming(original));
  }, 180_000);

  it('a parse job completed before its lines were kept is read from its result blocks', async () => {
    const old = (await sdk.parse.run({ input: fileId })).job_id;
    // As a job parsed by a release that did not keep the lines: its result file alone.
    await t.app.get(BlobStore).delete([parsedDocumentKey(jobResultKey(old))]);
    const request = { instructions: { schema }, settings: { citations: { enabled: false } } };
    const original = await post('/extract', { ...request, input: fileId });
    const rebuilt = await post('/extract', { ...request, input: `jobid://${old}` });
    const fields = (response: Body) => {
      const result = response.result as Record<string, unknown>;
      return { number: result.invoice_number, total: result.total_due };
    };
    expect(fields(rebuilt)).toEqual(fields(original));
    expect(fields(rebuilt).number).toBe('INV-2026-0042');
    expect(rebuilt.usage).toMatchObject({ num_pages: (original.usage as Body).num_pages });
    const classified = await sdk.classify.run({
      input: `jobid://${old}`,
      classification_schema: classificationSchema,
    });
    expect(classified.result).toEqual({ category: 'invoice' });
  }, 180_000);
});
