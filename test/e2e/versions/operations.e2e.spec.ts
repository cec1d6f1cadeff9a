import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Reducto, { toFile } from 'reductoai';
import { ManualClock } from '../../../src/common/clock.js';
import { keyOf } from '../../support/processing-client.js';
import {
  invoiceThenAgreement,
  makeLayoutPdf,
  type DrawnLine,
} from '../../support/layout-documents.js';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { waitFor } from '../../support/wait.js';

/** parse / extract / split over HTTP with the reductoai SDK, on the seeded registry. */
describe('parse, extract and split through the reductoai SDK', () => {
  const clock = new ManualClock(new Date('2026-11-21T12:00:00Z'));
  let t: TestApp;
  let sdk: Reducto;
  let fileId: string;
  let drawn: DrawnLine[];

  beforeAll(async () => {
    t = await startTestApp({}, { clock });
    sdk = new Reducto({ apiKey: await keyOf(t, 'ops-org'), baseURL: t.baseUrl, maxRetries: 0 });
    const pdf = await makeLayoutPdf(
      invoiceThenAgreement([
        ['Invoice Number', 'INV-2026-0042'],
        ['Invoice Date', 'March 5, 2026'],
      ]),
    );
    drawn = pdf.lines;
    const upload = await sdk.upload({ file: await toFile(pdf.bytes, 'doc.pdf'), extension: 'pdf' });
    fileId = upload.file_id;
  });
  afterAll(async () => {
    await t.close();
  });

  type Body = Record<string, unknown>;
  const post = (path: string, body: Body) => sdk.post<Body, Body>(path, { body });

  async function unprocessable(path: string, body: Body) {
    try {
      await post(path, body);
    } catch (error) {
      expect(error).toBeInstanceOf(Reducto.UnprocessableEntityError);
      return (error as InstanceType<typeof Reducto.UnprocessableEntityError>).error as {
        detail: { loc: unknown[]; msg: string; type: string; ctx?: Body }[];
      };
    }
    throw new Error('expected a 422');
  }

  it('parse.run: blocks with boxes from the default layout model, reported', async () => {
    const response = (await sdk.parse.run({ input: fileId })) as unknown as Body & {
      result: {
        type: string;
        chunks: { blocks: { type: string; content: string; bbox: Body }[] }[];
      };
      usage: Body;
      model_versions: Body;
    };
    expect(response.result.type).toBe('full');
    const blocks = response.result.chunks.flatMap((c) => c.blocks);
    expect(blocks.slice(0, 2).map((b) => [b.type, b.content])).toEqual([
      ['Title', 'Invoice'],
      ['Text', 'Invoice Number: INV-2026-0042'],
    ]);
    const title = drawn.find((l) => l.text === 'Invoice');
    expect(blocks[0].bbox).toMatchObject({ page: 1 });
    expect(blocks[0].bbox.top as number).toBeCloseTo(title?.top ?? -1, 2);
    expect(blocks.some((b) => b.type === 'Table')).toBe(false);
    expect(response.usage).toEqual({ num_pages: 3, credits: 3 });
    expect(response.model_versions).toEqual({
      layout_model: { version: 'layout-v3', stage: 'default', pinned: false },
    });
    expect(typeof response.job_id).toBe('string');
  });

  it('parse with settings.alpha.layout_model: the alpha version forms tables', async () => {
    const response = (await post('/parse', {
      input: fileId,
      settings: { alpha: { layout_model: 'layout-v4' } },
    })) as { result: { chunks: { blocks: { type: string }[] }[] }; model_versions: Body };
    expect(response.model_versions).toEqual({
      layout_model: { version: 'layout-v4', stage: 'alpha', pinned: true },
    });
    const types = response.result.chunks.flatMap((c) => c.blocks.map((b) => b.type));
    expect(types).toContain('Table');
  });

  it('a removed or unknown layout version is a 422 listing the available ones', async () => {
    const removed = await unprocessable('/parse', {
      input: fileId,
      settings: { alpha: { layout_model: 'layout-v2' } },
    });
    expect(removed.detail[0]).toMatchObject({
      loc: ['body', 'settings', 'alpha', 'layout_model'],
      type: 'model_version_removed',
      msg: 'layout_model version "layout-v2" was removed on 2026-11-17. Available versions: layout-v3 (default), layout-v4 (alpha)',
    });
    const unknown = await unprocessable('/parse', {
      input: fileId,
      settings: { alpha: { layout_model: 'layout-v9' } },
    });
    expect(unknown.detail[0].ctx).toEqual({
      family: 'layout_model',
      available: [
        { version: 'layout-v3', stage: 'default' },
        { version: 'layout-v4', stage: 'alpha' },
      ],
    });
  });

  it('parse.runJob: an async job that completes with the same result shape', async () => {
    const { job_id } = await sdk.parse.runJob({ input: fileId });
    let job = await sdk.job.get(job_id);
    await waitFor(
      'the parse job to finish',
      async () => (job = await sdk.job.get(job_id)).status !== 'Pending',
      30_000,
      25,
    );
    expect(job.status).toBe('Completed');
    expect((job as unknown as { type: string }).type).toBe('Parse');
    expect(job.result).toMatchObject({
      result: { type: 'full' },
      model_versions: { layout_model: { version: 'layout-v3' } },
    });
  });

  const schema = {
    type: 'object',
    properties: {
      invoice_number: { type: 'string' },
      invoice_date: { type: 'string', format: 'date' },
      line_items: {
        type: 'array',
        items: {
          type: 'object',
          properties: { description: { type: 'string' }, amount: { type: 'number' } },
        },
      },
    },
  };

  it('extract.run: values with citations at the lines they were read from', async () => {
    const response = (await sdk.extract.run({
      input: fileId,
      instructions: { schema },
      settings: { citations: { enabled: true } },
    })) as unknown as {
      result: Record<string, { value: unknown; citations: { bbox: Body; content: string }[] }>;
      usage: Body;
      model_versions: Body;
    };
    expect(response.result.invoice_number.value).toBe('INV-2026-0042');
    expect(response.result.invoice_date.value).toBe('2026-03-05');
    const line = drawn.find((l) => l.text === 'Invoice Number: INV-2026-0042');
    const citation = response.result.invoice_number.citations[0];
    expect(citation.content).toBe('Invoice Number: INV-2026-0042');
    expect(citation.bbox.page).toBe(1);
    expect(citation.bbox.top as number).toBeCloseTo(line?.top ?? -1, 2);
    expect(citation.bbox.left as number).toBeCloseTo(line?.left ?? -1, 2);
    expect(response.result.line_items).toEqual([
      {
        description: expect.objectContaining({
          value: 'Widget',
          citations: [expect.objectContaining({ content: 'Widget' })],
        }),
        amount: expect.objectContaining({
          value: 40,
          citations: [expect.objectContaining({ content: '40.00' })],
        }),
      },
    ]);
    expect(response.usage).toEqual({ num_pages: 3, num_fields: 4, credits: 6 });
    expect(response.model_versions).toEqual({
      extract_model: { version: 'extract-v3', stage: 'default', pinned: false },
    });
  });

  it('extract pin: accepted with citations (changes the output), 422 naming the precondition without', async () => {
    const pinned = (await post('/extract', {
      input: fileId,
      instructions: { schema },
      settings: { citations: { enabled: true }, alpha: { extract_model: 'extract-v2' } },
    })) as { result: Record<string, { value: unknown }>; model_versions: Body };
    expect(pinned.result.invoice_date.value).toBe('March 5, 2026');
    expect(pinned.model_versions).toEqual({
      extract_model: { version: 'extract-v2', stage: 'deprecated', pinned: true },
    });
    const error = await unprocessable('/extract', {
      input: fileId,
      instructions: { schema },
      settings: { alpha: { extract_model: 'extract-v2' } },
    });
    expect(error.detail[0]).toMatchObject({
      loc: ['body', 'settings', 'alpha', 'extract_model'],
      type: 'pin_precondition_missing',
      msg: 'settings.alpha.extract_model can only be used when settings.citations.enabled is true',
    });
  });

  it('deep extract pin needs settings.deep_extract', async () => {
    const error = await unprocessable('/extract', {
      input: fileId,
      instructions: { schema },
      settings: { alpha: { deep_extract_model: 'deep-extract-v3' } },
    });
    expect(error.detail[0].msg).toBe(
      'settings.alpha.deep_extract_model can only be used when settings.deep_extract is true',
    );
    const deep = (await post('/extract', {
      input: fileId,
      instructions: { schema },
      settings: { deep_extract: true, alpha: { deep_extract_model: 'deep-extract-v3' } },
    })) as { model_versions: Body; usage: Body };
    expect(deep.model_versions).toMatchObject({
      deep_extract_model: { version: 'deep-extract-v3', stage: 'alpha', pinned: true },
    });
    expect(deep.usage).toMatchObject({ credits: 12 });
  });

  const split_description = [
    { name: 'Invoice', description: 'Invoice with invoice number and amounts' },
    { name: 'Contract', description: 'Service agreement with terms between parties' },
  ];

  it('split.run: page ranges equal to the known sections', async () => {
    const response = await sdk.split.run({ input: fileId, split_description });
    const result = response.result as { splits: { name: string; pages: number[] }[] };
    expect(result.splits.map((s) => [s.name, s.pages])).toEqual([
      ['Invoice', [1, 2]],
      ['Contract', [3]],
    ]);
    expect(response.usage).toMatchObject({ num_pages: 3, credits: 3 });
  });

  it('deep split pin: top-level alpha.deep_split_model changes the result; under settings it is refused', async () => {
    const pinned = (await post('/split', {
      input: fileId,
      split_description,
      settings: { deep_split: true },
      alpha: { deep_split_model: 'deep-split-v1' },
    })) as {
      result: { splits: { name: string; pages: { page_number: number }[] }[] };
      model_versions: Body;
    };
    expect(pinned.model_versions).toEqual({
      deep_split_model: { version: 'deep-split-v1', stage: 'deprecated', pinned: true },
    });
    expect(pinned.result.splits.map((s) => [s.name, s.pages.map((p) => p.page_number)])).toEqual([
      ['Invoice', [1]],
      ['Contract', [3]],
    ]);
    const byDefault = (await post('/split', {
      input: fileId,
      split_description,
      settings: { deep_split: true },
    })) as typeof pinned;
    expect(byDefault.result.splits[0].pages.map((p) => p.page_number)).toEqual([1, 2]);
    const misplaced = await unprocessable('/split', {
      input: fileId,
      split_description,
      settings: { deep_split: true, alpha: { deep_split_model: 'deep-split-v2' } },
    });
    expect(misplaced.detail[0].loc).toEqual(['body', 'settings', 'alpha']);
    const noDeep = await unprocessable('/split', {
      input: fileId,
      split_description,
      alpha: { deep_split_model: 'deep-split-v2' },
    });
    expect(noDeep.detail[0].msg).toBe(
      'alpha.deep_split_model can only be used when settings.deep_split is true',
    );
  });

  it('classification still has no alpha field', async () => {
    const error = await unprocessable('/classify', {
      input: fileId,
      alpha: { layout_model: 'layout-v4' },
    });
    expect(error.detail[0]).toMatchObject({ loc: ['body', 'alpha'], type: 'extra_forbidden' });
  });
});
