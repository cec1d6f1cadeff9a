import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makePdf } from '../../support/documents.js';
import { client, keyOf, uploadPdf } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

const categories = [
  { category: 'invoice', criteria: ['has an invoice number'] },
  { category: 'letter', criteria: ['addressed to a person'] },
];

/**
 * A page range whose start is after its end is refused at the request, with a 422 naming the
 * field, on every operation and in a stored pipeline; it never becomes a job that fails later.
 */
describe('page ranges are checked at the request', () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  let fileId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const key = await keyOf(t, 'key-page-range');
    api = client(t.baseUrl, key);
    fileId = await uploadPdf(t.baseUrl, key, await makePdf(['one', 'two', 'three']));
  });
  afterAll(async () => {
    await t.close();
  });

  /** Each operation's body with `range` where that operation takes its page selection. */
  const operations: { path: string; body: (range: unknown) => object; field: string[] }[] = [
    {
      path: '/parse_async',
      body: (range) => ({ settings: { page_range: range } }),
      field: ['settings', 'page_range'],
    },
    {
      path: '/extract_async',
      body: (range) => ({
        instructions: { schema: { type: 'object', properties: { title: { type: 'string' } } } },
        parsing: { settings: { page_range: range } },
      }),
      field: ['parsing', 'settings', 'page_range'],
    },
    {
      path: '/split_async',
      body: (range) => ({
        split_description: [{ name: 'all', description: 'every page' }],
        parsing: { settings: { page_range: range } },
      }),
      field: ['parsing', 'settings', 'page_range'],
    },
    {
      path: '/classify_async',
      body: (range) => ({ classification_schema: categories, page_range: range }),
      field: ['page_range'],
    },
  ];

  const outOfOrder = {
    type: 'value_error',
    msg: 'Value error, start must not be greater than end',
  };

  it.each(operations)('$path answers start > end with a 422 naming the field', async (op) => {
    const single = await api.post(op.path, { input: fileId, ...op.body({ start: 3, end: 1 }) });
    expect(single.status).toBe(422);
    expect(single.body.detail).toEqual([
      expect.objectContaining({ ...outOfOrder, loc: ['body', ...op.field] }),
    ]);

    const listed = await api.post(op.path, {
      input: fileId,
      ...op.body([
        { start: 1, end: 1 },
        { start: 3, end: 2 },
      ]),
    });
    expect(listed.status).toBe(422);
    expect(listed.body.detail).toEqual([
      expect.objectContaining({ ...outOfOrder, loc: ['body', ...op.field, 1] }),
    ]);
  });

  it.each(operations)(
    '$path answers sheet names (the SDK types them) with a 422 saying what they select',
    async (op) => {
      const res = await api.post(op.path, { input: fileId, ...op.body(['Sheet1', '2']) });
      expect([res.status, res.body.detail]).toEqual([
        422,
        [
          expect.objectContaining({
            loc: ['body', ...op.field],
            type: 'value_error',
            msg: expect.stringContaining('sheet names select sheets of a spreadsheet'),
          }),
        ],
      ]);
      // What the message says to send instead is taken, in both of its shapes.
      const msg = (res.body.detail as { msg: string }[])[0].msg;
      const numbers = /such as (\[[^\]]*\])/.exec(msg)![1];
      const range = /such as (\{[^}]*\})/.exec(msg)![1];
      for (const instead of [numbers, range]) {
        const sent = await api.post(op.path, { input: fileId, ...op.body(JSON.parse(instead)) });
        expect([sent.status, sent.body.detail]).toEqual([200, undefined]);
      }
    },
  );

  it.each(operations)('$path still accepts an ordered range', async (op) => {
    for (const range of [{ start: 2, end: 3 }, { start: 2, end: 2 }, { start: 2 }, [1, 3]]) {
      const res = await api.post(op.path, { input: fileId, ...op.body(range) });
      expect({ range, status: res.status }).toEqual({ range, status: 200 });
      expect(typeof res.body.job_id).toBe('string');
    }
  });

  it('POST /pipelines answers start > end in its parse options and in a step with a 422', async () => {
    const steps = [{ classify: { classification_schema: categories } }];
    const inParse = await api.post('/pipelines', {
      name: 'bad parse range',
      parse: { settings: { page_range: { start: 5, end: 4 } } },
      steps,
    });
    expect(inParse.status).toBe(422);
    expect(inParse.body.detail).toEqual([
      expect.objectContaining({ ...outOfOrder, loc: ['body', 'parse', 'settings', 'page_range'] }),
    ]);

    const inStep = await api.post('/pipelines', {
      name: 'bad step range',
      steps: [{ classify: { ...steps[0].classify, page_range: { start: 2, end: 1 } } }],
    });
    expect(inStep.status).toBe(422);
    expect(inStep.body.detail).toEqual([
      expect.objectContaining({
        ...outOfOrder,
        loc: ['body', 'steps', 0, 'classify', 'page_range'],
      }),
    ]);

    const valid = await api.post('/pipelines', {
      name: 'ordered ranges',
      parse: { settings: { page_range: { start: 1, end: 2 } } },
      steps: [{ classify: { ...steps[0].classify, page_range: { start: 1, end: 1 } } }],
    });
    expect(valid.status).toBe(201);
    expect(typeof valid.body.pipeline_id).toBe('string');
  });
});
