import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Reducto, { toFile } from 'reductoai';
import { ManualClock } from '../../../src/common/clock.js';
import { MetadataKeyService } from '../../../src/usage/metadata/metadata-key.service.js';
import { seedAccount, type SeededAccount } from '../../support/accounts.js';
import { invoiceWithTerms, makeLayoutPdf } from '../../support/layout-documents.js';
import { OpenApiConformance } from '../../support/openapi-conformance.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { waitFor } from '../../support/wait.js';

type Body = Record<string, unknown>;

const PAGES = 6;

const invoiceSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    total_due: { type: 'number' },
  },
};

const contractSchema = {
  type: 'object',
  properties: { parties: { type: 'string' }, effective_date: { type: 'string', format: 'date' } },
};

const classificationSchema = [
  { category: 'invoice', criteria: ['an invoice with an amount due', 'invoice number'] },
  { category: 'contract', criteria: ['an agreement signed by two parties'] },
];

/** Stored pipelines and their runs, through the unchanged reductoai SDK. */
describe('pipelines: stored sequences of parse, extract, split and classify', () => {
  const clock = new ManualClock(new Date('2026-11-21T12:00:00Z'));
  let t: TestApp;
  let org: SeededAccount;
  let sdk: Reducto;
  let other: Reducto;
  let fileId: string;

  beforeAll(async () => {
    t = await startTestApp({ OUTBOX_RELAY_INTERVAL_MS: '50' }, { clock });
    org = await seedAccount(t.app, 'Pipeline Co');
    await t.app.get(MetadataKeyService).enable(org.orgId, 'team');
    sdk = new Reducto({ apiKey: org.processingKey, baseURL: t.baseUrl, maxRetries: 0 });
    const stranger = await seedAccount(t.app, 'Other Co');
    other = new Reducto({ apiKey: stranger.processingKey, baseURL: t.baseUrl, maxRetries: 0 });
    const pdf = await makeLayoutPdf(invoiceWithTerms(PAGES));
    fileId = (await sdk.upload({ file: await toFile(pdf.bytes, 'invoice.pdf'), extension: 'pdf' }))
      .file_id;
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  const post = (client: Reducto, path: string, body: Body) =>
    client.post<Body, Body>(path, { body });
  const create = async (definition: Body) =>
    (await post(sdk, '/pipelines', definition)) as Body & { pipeline_id: string };
  const withoutTiming = (response: unknown) =>
    Object.fromEntries(
      Object.entries(response as Body).filter(([key]) => key !== 'job_id' && key !== 'duration'),
    );

  it('lists pipelines in pages of at most 4 MiB of definitions, at least one each, with a cursor', async () => {
    const lister = new Reducto({
      apiKey: (await seedAccount(t.app, 'Listing Co')).processingKey,
      baseURL: t.baseUrl,
      maxRetries: 0,
    });
    // Each definition about 1.5 MiB: two fit in a page, the third does not.
    const long = (name: string) => ({
      name,
      steps: [
        {
          extract: {
            instructions: {
              schema: {
                type: 'object',
                properties: { a: { type: 'string', description: 'x'.repeat(1_500_000) } },
              },
            },
          },
        },
      ],
    });
    const ids = new Set<string>();
    for (const name of ['one', 'two', 'three'])
      ids.add(((await post(lister, '/pipelines', long(name))) as Body).pipeline_id as string);
    type Page = { pipelines: Body[]; next_cursor: string | null };
    const first = (await lister.get('/pipelines')) as Page;
    expect([first.pipelines.length, typeof first.next_cursor]).toEqual([2, 'string']);
    const second = (await lister.get('/pipelines', {
      query: { cursor: first.next_cursor },
    })) as Page;
    expect([second.pipelines.length, second.next_cursor]).toEqual([1, null]);
    expect(new Set([...first.pipelines, ...second.pipelines].map((p) => p.pipeline_id))).toEqual(
      ids,
    );
    const forged = await lister
      .get('/pipelines', { query: { cursor: 'not-a-cursor' } })
      .catch((e: unknown) => e);
    expect(forged).toBeInstanceOf(Reducto.BadRequestError);
    // `limit` as for the other listings: one a page here, under the bytes' cut.
    const pages: number[] = [];
    let cursor: string | null = null;
    do {
      const page = (await lister.get('/pipelines', {
        query: { limit: 1, ...(cursor ? { cursor } : {}) },
      })) as Page;
      pages.push(page.pipelines.length);
      cursor = page.next_cursor;
    } while (cursor !== null && pages.length < 5);
    expect(pages).toEqual([1, 1, 1]);
    for (const limit of [0, 501]) {
      const refused = await lister.get('/pipelines', { query: { limit } }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(Reducto.UnprocessableEntityError);
    }
  });

  it('POST, GET and DELETE /pipelines per organization', async () => {
    const definition = {
      name: 'invoices',
      description: 'Invoice fields',
      steps: [{ extract: { instructions: { schema: invoiceSchema } } }],
    };
    const created = await create(definition);
    expect(created).toMatchObject({ ...definition, pipeline_id: expect.stringMatching(/^pl_/) });
    const path = `/pipelines/${created.pipeline_id}`;
    expect(await sdk.get(path)).toEqual(created);
    const listed = (await sdk.get('/pipelines')) as { pipelines: Body[] };
    expect(listed.pipelines.map((p) => p.pipeline_id)).toContain(created.pipeline_id);
    // Another organization sees none of it.
    await expect(other.get(path)).rejects.toBeInstanceOf(Reducto.NotFoundError);
    await expect(other.delete(path)).rejects.toBeInstanceOf(Reducto.NotFoundError);
    expect((await other.get('/pipelines')) as Body).toEqual({ pipelines: [], next_cursor: null });
    await expect(
      other.pipeline.run({ input: fileId, pipeline_id: created.pipeline_id }),
    ).rejects.toBeInstanceOf(Reducto.NotFoundError);

    expect(await sdk.delete(path)).toEqual({ pipeline_id: created.pipeline_id, deleted: true });
    await expect(sdk.get(path)).rejects.toBeInstanceOf(Reducto.NotFoundError);
  });

  it('refuses a definition no run could accept with a 422 pointing into it', async () => {
    const refused = async (definition: Body) => {
      const error = await post(sdk, '/pipelines', definition).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Reducto.UnprocessableEntityError);
      return (error as { error: { detail: { loc: unknown[]; msg: string }[] } }).error.detail;
    };
    const twoKinds = await refused({
      name: 'x',
      steps: [{ extract: { instructions: { schema: invoiceSchema } }, split: {} }],
    });
    expect(twoKinds[0].loc.slice(0, 3)).toEqual(['body', 'steps', 0]);
    const unknownCategory = await refused({
      name: 'x',
      steps: [
        {
          classify: {
            classification_schema: classificationSchema,
            extract_by_category: { receipt: { instructions: { schema: invoiceSchema } } },
          },
        },
      ],
    });
    expect(unknownCategory[0].loc).toEqual([
      'body',
      'steps',
      0,
      'classify',
      'extract_by_category',
      'receipt',
    ]);
    const pinWithoutCitations = await refused({
      name: 'x',
      steps: [
        {
          extract: {
            instructions: { schema: invoiceSchema },
            settings: { alpha: { extract_model: 'extract-v2' } },
          },
        },
      ],
    });
    expect(pinWithoutCitations[0].loc).toEqual([
      'body',
      'steps',
      0,
      'extract',
      'settings',
      'alpha',
      'extract_model',
    ]);
    await refused({ name: 'x', steps: [] });
  });

  it('refuses the rules across steps at the step concerned, and its description refuses them too', async () => {
    const description = new OpenApiConformance(
      await (await fetch(`${t.baseUrl}/openapi.json`)).json(),
    );
    const extract = { extract: { instructions: { schema: invoiceSchema } } };
    const split = {
      split: { split_description: [{ name: 'invoice', description: 'An invoice' }] },
    };
    const branch = {
      classify: {
        classification_schema: classificationSchema,
        extract_by_category: { invoice: { instructions: { schema: invoiceSchema } } },
      },
    };
    const cases: [Body, (string | number)[] | null][] = [
      [{ name: 'x', steps: [split, extract, split] }, ['body', 'steps', 2]],
      [{ name: 'x', steps: [extract, extract] }, ['body', 'steps', 1]],
      [{ name: 'x', steps: [branch, extract] }, ['body', 'steps', 1]],
      [{ name: 'x', steps: [extract, branch] }, ['body', 'steps', 0]],
      // A stored definition keeps no password; null is no password.
      [
        { name: 'x', parse: { settings: { document_password: 'secret' } }, steps: [extract] },
        ['body', 'parse', 'settings', 'document_password'],
      ],
      [{ name: 'x', parse: { settings: { document_password: null } }, steps: [extract] }, null],
      [{ name: 'x', steps: [split, branch] }, null],
    ];
    for (const [definition, refusedAt] of cases) {
      const answer = await post(sdk, '/pipelines', definition).catch((e: unknown) => e);
      const detail = (answer as { error?: { detail?: { loc: unknown[] }[] } }).error?.detail;
      expect([
        detail?.map((d) => d.loc),
        description.acceptsRequest('POST', '/pipelines', definition),
      ]).toEqual(refusedAt ? [[refusedAt], false] : [undefined, true]);
    }
  });

  it('client.pipeline.run: parse then extract answers as /parse and /extract do, billed per step', async () => {
    const extract = {
      instructions: { schema: invoiceSchema },
      settings: { citations: { enabled: true } },
    };
    const { pipeline_id } = await create({ name: 'parse-extract', steps: [{ extract }] });
    const response = (await sdk.pipeline.run({ input: fileId, pipeline_id })) as unknown as Body & {
      result: { parse: Body; extract: Body; split: unknown; classify: unknown };
      usage: Body;
    };
    const parsed = (await post(sdk, '/parse', { input: fileId })) as Body;
    const extracted = (await post(sdk, '/extract', { ...extract, input: fileId })) as Body;
    expect(response.result.parse.result).toEqual(parsed.result);
    // Each part tagged as its own response is, the parse's with the pipeline's job id.
    expect([
      response.response_type,
      response.result.parse.response_type,
      response.result.parse.job_id,
    ]).toEqual(['pipeline', 'parse', response.job_id]);
    expect(withoutTiming(response.result.extract)).toEqual(withoutTiming(extracted));
    expect(response.result.split).toBeNull();
    expect(response.result.classify).toBeNull();
    // Parse (1 credit a page) plus extract (2 a page), each on the pages read.
    expect(response.usage).toEqual({
      num_pages: PAGES,
      credits: PAGES * 3,
      credit_breakdown: { parse: PAGES, extract: PAGES * 2 },
    });
    expect(response.model_versions).toMatchObject({
      layout_model: { version: 'layout-v3' },
      extract_model: { version: 'extract-v3' },
    });
  });

  it('parse then classify, and the classify-then-extract branch by category', async () => {
    const classify = await create({
      name: 'parse-classify',
      steps: [{ classify: { classification_schema: classificationSchema } }],
    });
    const classified = (await sdk.pipeline.run({
      input: fileId,
      pipeline_id: classify.pipeline_id,
    })) as unknown as { result: { classify: Body; extract: unknown }; usage: Body };
    const direct = await sdk.classify.run({
      input: fileId,
      classification_schema: classificationSchema,
    });
    expect(classified.result.classify.result).toEqual({ category: 'invoice' });
    expect(classified.result.classify.response_confidence).toEqual(
      (direct as unknown as Body).response_confidence,
    );
    expect(classified.result.extract).toBeNull();
    // Parse of every page plus classification of the first 5 (0.5 credit a page).
    expect(classified.usage).toMatchObject({ num_pages: PAGES, credits: PAGES + 2.5 });

    const branch = await create({
      name: 'route-by-kind',
      parse: { settings: { page_range: { start: 1, end: 2 } } },
      steps: [
        {
          classify: {
            classification_schema: classificationSchema,
            extract_by_category: {
              invoice: { instructions: { schema: invoiceSchema } },
              contract: { instructions: { schema: contractSchema } },
            },
          },
        },
      ],
    });
    const routed = (await sdk.pipeline.run({
      input: fileId,
      pipeline_id: branch.pipeline_id,
    })) as unknown as { result: { classify: Body; extract: Body }; usage: Body };
    expect(routed.result.classify.result).toEqual({ category: 'invoice' });
    expect(routed.result.extract).toMatchObject({
      category: 'invoice',
      result: { invoice_number: 'INV-2026-0042', total_due: 1240.5 },
    });
    expect(routed.usage).toEqual({
      num_pages: 2,
      credits: 2 + 1 + 4,
      credit_breakdown: { parse: 2, classify: 1, extract: 4 },
    });
  });

  it('pipeline.runJob: a job with metadata and priority, billed under product pipeline', async () => {
    const { pipeline_id } = await create({
      name: 'split',
      steps: [
        {
          split: {
            split_description: [
              { name: 'invoice', description: 'The invoice with its line items' },
              { name: 'terms', description: 'Terms and conditions of sale' },
            ],
          },
        },
      ],
    });
    const { job_id } = await sdk.pipeline.runJob({
      input: fileId,
      pipeline_id,
      async: { metadata: { team: 'finance' }, priority: true },
    });
    let job = await sdk.job.get(job_id);
    await waitFor(
      'the pipeline job to finish',
      async () => (job = await sdk.job.get(job_id)).status !== 'Pending',
      30_000,
      25,
    );
    expect(job.status).toBe('Completed');
    expect((job as unknown as Body).type).toBe('Pipeline');
    // The job, its result included, is as the API description declares it.
    const conformance = new OpenApiConformance(
      await (await fetch(`${t.baseUrl}/openapi.json`)).json(),
    );
    const res = await fetch(`${t.baseUrl}/job/${job_id}`, {
      headers: { authorization: `Bearer ${org.processingKey}` },
    });
    await conformance.check('GET', `/job/${job_id}`, res);
    expect(conformance.violations).toEqual([]);
    const split = (await post(sdk, '/split', {
      input: fileId,
      split_description: [
        { name: 'invoice', description: 'The invoice with its line items' },
        { name: 'terms', description: 'Terms and conditions of sale' },
      ],
    })) as Body;
    expect((job.result as { result: { split: Body } }).result.split.result).toEqual(split.result);

    // jobid:// as a pipeline's input: the parse job's document, same answer.
    const parseJob = (await sdk.parse.run({ input: fileId })).job_id;
    const reused = (await sdk.pipeline.run({
      input: `jobid://${parseJob}`,
      pipeline_id,
    })) as unknown as { result: { split: Body } };
    expect(reused.result.split.result).toEqual(split.result);

    const exported = async (params: string) => {
      const res = await fetch(`${t.baseUrl}/api/v1/usage/export?${params}`, {
        headers: { authorization: `Bearer ${org.accountKey}` },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { group: string; credits: number }[] }).data;
    };
    await waitFor(
      'the export to show the pipeline job under its metadata',
      async () => {
        const rows = await exported('groupBy=metadata&metadataKey=team&product=pipeline');
        return rows.some((r) => r.group === 'finance' && r.credits === PAGES * 2);
      },
      60_000,
      100,
    );
    const features = (await exported('groupBy=feature&product=pipeline')).map((r) => r.group);
    expect(new Set(features)).toEqual(
      new Set(['parse+extract', 'parse+classify', 'parse+classify+extract', 'parse+split']),
    );
  });
});
