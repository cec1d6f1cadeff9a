import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { OpenApiConformance } from '../../support/openapi-conformance.js';
import { client, keyOf } from '../../support/processing-client.js';

/** 422 bodies of /classify_async: pydantic-like loc/type/msg/input/ctx for each rule of the spec. */
describe('ClassifyConfig validation', () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  const input = 'https://example.com/doc.pdf';

  beforeAll(async () => {
    // Webhook targets are resolved at submission; this sandbox resolves no public name, so
    // the one host the shapes below name is let through the address guard (never reached:
    // it does not resolve at delivery either).
    t = await startTestApp({ FETCH_ALLOW_HOSTS: 'hooks.example.test' });
    api = client(t.baseUrl, await keyOf(t, 'key-validation'));
  });
  afterAll(async () => {
    await t.close();
  });

  async function detail(body: unknown) {
    const res = await api.post('/classify_async', body);
    expect(res.status).toBe(422);
    return res.body.detail;
  }

  it('requires input', async () => {
    expect(await detail({})).toEqual([
      { loc: ['body', 'input'], type: 'missing', msg: 'Field required', input: {} },
    ]);
  });

  it('rejects a missing body and malformed JSON with 422', async () => {
    expect((await api.post('/classify_async')).body.detail).toEqual([
      { loc: ['body'], type: 'missing', msg: 'Field required', input: null },
    ]);
    const bad = await api.post('/classify_async', '{"input": ');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({
      type: 'json_invalid',
      msg: 'JSON decode error',
      loc: expect.arrayContaining(['body']),
    });
  });

  it('rejects unknown fields such as alpha (classification has no pinning)', async () => {
    expect(await detail({ input, alpha: { classify_model: 'v2' } })).toEqual([
      {
        loc: ['body', 'alpha'],
        type: 'extra_forbidden',
        msg: 'Extra inputs are not permitted',
        input: { classify_model: 'v2' },
      },
    ]);
  });

  it('types every field', async () => {
    const issues = await detail({
      input: 42,
      model: 'fast',
      priority: 'yes',
      force_url_result: 1,
      classification_schema: [{ category: 'a' }, { category: 3, criteria: ['x', 4] }],
      category_groups: { g: 'a' },
      document_metadata: 5,
    });
    expect(issues).toEqual([
      expect.objectContaining({ loc: ['body', 'input'], type: 'string_type', input: 42 }),
      {
        loc: ['body', 'model'],
        type: 'enum',
        msg: "Input should be 'default' or 'accurate'",
        input: 'fast',
        ctx: { expected: "'default' or 'accurate'" },
      },
      {
        loc: ['body', 'priority'],
        type: 'bool_type',
        msg: 'Input should be a valid boolean',
        input: 'yes',
      },
      {
        loc: ['body', 'force_url_result'],
        type: 'bool_type',
        msg: 'Input should be a valid boolean',
        input: 1,
      },
      expect.objectContaining({
        loc: ['body', 'classification_schema', 0, 'criteria'],
        type: 'missing',
      }),
      expect.objectContaining({
        loc: ['body', 'classification_schema', 1, 'category'],
        type: 'string_type',
        input: 3,
      }),
      expect.objectContaining({
        loc: ['body', 'classification_schema', 1, 'criteria', 1],
        type: 'string_type',
        input: 4,
      }),
      expect.objectContaining({ loc: ['body', 'category_groups', 'g'], type: 'list_type' }),
      expect.objectContaining({ loc: ['body', 'document_metadata'], type: 'string_type' }),
    ]);
  });

  it('refuses async.metadata keys that hold no visible character, naming each key', async () => {
    const metadata = { team: 'ops', ' ': 1, '': 2, '\u200b\u00a0': 3, nested: { ' ': 'kept' } };
    expect(await detail({ input, async: { metadata } })).toEqual(
      [' ', '', '\u200b\u00a0'].map((key) => ({
        loc: ['body', 'async', 'metadata', key, '[key]'],
        msg: 'Input should be a metadata key holding a visible character, not blank',
        type: 'string_pattern_mismatch',
        input: key,
      })),
    );
    // Only the keys usage is grouped by are names: nested keys and other values are free.
    const accepted = await api.post('/classify_async', {
      input,
      async: { metadata: { ' team ': { ' ': 1 } } },
    });
    expect(accepted.status).toBe(200);
  });

  it('validates both webhook variants, discriminated by mode', async () => {
    expect(await detail({ input, async: { webhook: { mode: 'direct' } } })).toEqual([
      {
        loc: ['body', 'async', 'webhook', 'url'],
        type: 'missing',
        msg: 'Field required',
        input: { mode: 'direct' },
      },
    ]);
    expect(await detail({ input, async: { webhook: { mode: 'disabled' } } })).toEqual([
      expect.objectContaining({
        loc: ['body', 'async', 'webhook'],
        type: 'union_tag_invalid',
        ctx: {
          discriminator: "'mode'",
          tag: 'disabled',
          expected_tags: "'hosted', 'svix', 'direct'",
        },
      }),
    ]);
    // A tag that is an object whose `toString` is not a function cannot be turned into text
    // by `String`: the answer is still the same 422, the tag shown as its JSON.
    expect(await detail({ input, async: { webhook: { mode: { toString: null } } } })).toEqual([
      expect.objectContaining({
        loc: ['body', 'async', 'webhook'],
        type: 'union_tag_invalid',
        ctx: expect.objectContaining({ tag: '{"toString":null}' }),
      }),
    ]);

    expect(
      await detail({
        input,
        async: { webhook: { mode: 'hosted', channels: 'a', url: 'https://x' } },
      }),
    ).toEqual([
      expect.objectContaining({
        loc: ['body', 'async', 'webhook', 'url'],
        type: 'extra_forbidden',
      }),
      expect.objectContaining({ loc: ['body', 'async', 'webhook', 'channels'], type: 'list_type' }),
    ]);
    expect(await detail({ input, async: { priority: null, webhook: { url: 'ftp://x' } } })).toEqual(
      [
        expect.objectContaining({ loc: ['body', 'async', 'priority'], type: 'bool_type' }),
        expect.objectContaining({ loc: ['body', 'async', 'webhook', 'url'], type: 'url_scheme' }),
      ],
    );
  });

  it('validates UploadResponse inputs and lists of URLs', async () => {
    expect(await detail({ input: { presigned_url: null } })).toEqual([
      expect.objectContaining({ loc: ['body', 'input', 'file_id'], type: 'missing' }),
    ]);
    expect(await detail({ input: [input, 7] })).toEqual([
      expect.objectContaining({ loc: ['body', 'input', 1], type: 'string_type', input: 7 }),
    ]);
    expect(await detail({ input: [] })).toEqual([
      expect.objectContaining({ loc: ['body', 'input'], type: 'too_short' }),
    ]);
  });

  it('applies the page_range rules: shapes, 1-indexed integers, at most 10 pages', async () => {
    expect(await detail({ input, page_range: { start: 0 } })).toEqual([
      expect.objectContaining({
        loc: ['body', 'page_range', 'start'],
        type: 'greater_than_equal',
        ctx: { ge: 1 },
      }),
    ]);
    expect(await detail({ input, page_range: [1, 2.5] })).toEqual([
      expect.objectContaining({ loc: ['body', 'page_range', 1], type: 'int_from_float' }),
    ]);
    expect(await detail({ input, page_range: [{ start: 4, end: 2 }] })).toEqual([
      expect.objectContaining({ loc: ['body', 'page_range', 0], type: 'value_error' }),
    ]);
    expect(await detail({ input, page_range: { start: 1, end: 11 } })).toEqual([
      expect.objectContaining({
        loc: ['body', 'page_range'],
        type: 'value_error',
        ctx: expect.objectContaining({ max_pages: 10 }),
      }),
    ]);
    expect(await detail({ input, page_range: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] })).toHaveLength(
      1,
    );
    expect(await detail({ input, page_range: 'all' })).toEqual([
      expect.objectContaining({ loc: ['body', 'page_range'], type: 'model_attributes_type' }),
    ]);
  });

  it('accepts every valid shape (then fails later only on the unreachable input)', async () => {
    for (const body of [
      { input, page_range: null },
      {
        input,
        page_range: [
          { start: 1, end: 5 },
          { start: 8, end: null },
        ],
      },
      { input, page_range: [1, 3, 5] },
      { input: [input, input], model: 'accurate', priority: false, document_metadata: null },
      { input: { file_id: input, presigned_url: null } },
      { input, async: { metadata: [1, 'x'], priority: true, webhook: null } },
      { input, async: { webhook: { channels: ['a'] } } },
      { input, async: { webhook: { url: 'https://hooks.example.test/hook' } } },
      {
        input,
        category_groups: { g: ['a'] },
        force_url_result: true,
        persist_results: true,
        queue_priority: 'batch',
      },
    ]) {
      const res = await api.post('/classify_async', body);
      expect([res.status, body]).toEqual([200, body]);
    }
  });

  it("types edit's numbers: a wrong type is float_type, a number out of range names its bound, a box past the page's edge is refused", async () => {
    const issuesOf = async (edit_options: unknown, bbox: unknown) => {
      const res = await api.post('/edit', {
        document_url: input,
        edit_instructions: 'name: Ada',
        edit_options,
        form_schema: [{ bbox, description: 'Name', type: 'text' }],
      });
      expect(res.status).toBe(422);
      return (res.body.detail as { loc: string[]; type: string }[])
        .map((d) => [d.loc[d.loc.length - 1], d.type])
        .sort();
    };
    const box = { page: 1, left: 0.1, top: 0.1, width: 0.2, height: 0.05 };
    expect(await issuesOf({ font_size: '12' }, { ...box, left: true })).toEqual([
      ['font_size', 'float_type'],
      ['left', 'float_type'],
    ]);
    expect(await issuesOf({ font_size: 0 }, { ...box, left: -0.5 })).toEqual([
      ['font_size', 'greater_than'],
      ['left', 'greater_than_equal'],
    ]);
    expect(await issuesOf({ font_size: 201 }, { ...box, width: 1.5 })).toEqual([
      ['font_size', 'less_than_equal'],
      ['width', 'less_than_equal'],
    ]);
    // Each side within the page, the box past its edge: named at the size that overflows.
    expect(await issuesOf({}, { ...box, left: 0.9, width: 0.2, top: 0.95, height: 0.1 })).toEqual([
      ['height', 'value_error'],
      ['width', 'value_error'],
    ]);
  });

  it('declares what it refuses: a blank version pin, an extension of other characters, a multipart body without its file', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const doc = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as any;
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const accepts = (schema: unknown, value: unknown) =>
      ajv.validate(
        JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"doc#/')),
        value,
      );

    const pinSchema = doc.components.schemas.ParseAlpha.properties.layout_model;
    expect([accepts(pinSchema, ' '), accepts(pinSchema, 'layout-v3')]).toEqual([false, true]);
    const pinned = await api.post('/parse', { input, settings: { alpha: { layout_model: ' ' } } });
    expect([pinned.status, pinned.body.detail[0].type]).toEqual([422, 'string_pattern_mismatch']);

    // Past 2^53 an integer is refused (no exact JSON number here): the bounds say so.
    const start = doc.components.schemas.PageRange.properties.start;
    expect([accepts(start, 2 ** 53), accepts(start, 2 ** 53 - 1)]).toEqual([false, true]);
    const huge = await api.post('/parse', { input, settings: { page_range: [2 ** 53] } });
    expect([huge.status, huge.body.detail?.[0]?.type]).toEqual([422, 'int_type']);

    const upload = doc.paths['/upload'].post;
    const extension = upload.parameters.find((p: { name: string }) => p.name === 'extension');
    expect([accepts(extension.schema, 'p d f'), accepts(extension.schema, '.PDF')]).toEqual([
      false,
      true,
    ]);
    const headers = { authorization: `Bearer ${await keyOf(t, 'key-validation')}` };
    const badExtension = await fetch(`${t.baseUrl}/upload?extension=p%20d%20f`, {
      method: 'POST',
      headers,
    });
    expect(badExtension.status).toBe(400);
    const multipart = upload.requestBody.content['multipart/form-data'].schema;
    expect(accepts(multipart, {})).toBe(false);
    const withoutFile = await fetch(`${t.baseUrl}/upload`, {
      method: 'POST',
      headers,
      body: new FormData(),
    });
    expect(withoutFile.status).toBe(422);
  });

  it('refuses a split naming a section twice with the request, for /split and a pipeline step', async () => {
    const split_description = [
      { name: 'invoice', description: 'The invoice' },
      { name: 'invoice', description: 'Another invoice' },
    ];
    const duplicate = {
      loc: ['body', 'split_description', 1, 'name'],
      msg: 'Duplicate section name "invoice"',
      type: 'value_error',
      input: 'invoice',
    };
    const split = await api.post('/split', { input, split_description });
    expect([split.status, split.body.detail]).toEqual([422, [duplicate]]);
    const pipeline = await api.post('/pipelines', {
      name: 'split',
      steps: [{ split: { split_description } }],
    });
    expect([pipeline.status, pipeline.body.detail]).toEqual([
      422,
      [{ ...duplicate, loc: ['body', 'steps', 0, 'split', 'split_description', 1, 'name'] }],
    ]);
  });

  it('refuses a blank split section name and a blank pipeline name', async () => {
    const split_description = [
      { name: 'invoice', description: 'The invoice' },
      { name: ' ', description: 'Anything else' },
    ];
    const blank = (loc: (string | number)[], what: string) => ({
      loc,
      msg: `Input should be ${what}, not blank`,
      type: 'string_pattern_mismatch',
      input: ' ',
    });
    const split = await api.post('/split', { input, split_description });
    expect([split.status, split.body.detail]).toEqual([
      422,
      [blank(['body', 'split_description', 1, 'name'], 'a section name')],
    ]);
    const pipeline = await api.post('/pipelines', {
      name: ' ',
      steps: [{ split: { split_description } }],
    });
    expect([pipeline.status, pipeline.body.detail]).toEqual([
      422,
      [
        blank(['body', 'name'], 'a pipeline name'),
        blank(['body', 'steps', 0, 'split', 'split_description', 1, 'name'], 'a section name'),
      ],
    ]);
  });

  it('refuses a classification schema with a blank or repeated label, for /classify and a pipeline step', async () => {
    const classification_schema = [
      { category: 'invoice', criteria: ['a bill'] },
      { category: ' ', criteria: ['anything'] },
      { category: 'invoice', criteria: ['another bill'] },
    ];
    const refusals = (at: (string | number)[]) => [
      {
        loc: [...at, 1, 'category'],
        msg: 'Input should be a category label, not blank',
        type: 'string_pattern_mismatch',
        input: ' ',
      },
    ];
    const classify = await api.post('/classify', { input, classification_schema });
    expect([classify.status, classify.body.detail]).toEqual([
      422,
      refusals(['body', 'classification_schema']),
    ]);
    const repeated = classification_schema.filter(({ category }) => category !== ' ');
    const duplicate = {
      loc: ['body', 'classification_schema', 1, 'category'],
      msg: 'Duplicate category label "invoice"',
      type: 'value_error',
      input: 'invoice',
    };
    const again = await api.post('/classify_async', { input, classification_schema: repeated });
    expect([again.status, again.body.detail]).toEqual([422, [duplicate]]);
    const pipeline = await api.post('/pipelines', {
      name: 'classify',
      steps: [{ classify: { classification_schema: repeated } }],
    });
    expect([pipeline.status, pipeline.body.detail]).toEqual([
      422,
      [
        {
          ...duplicate,
          loc: ['body', 'steps', 0, 'classify', 'classification_schema', 1, 'category'],
        },
      ],
    ]);
  });

  it('reads a name of invisible characters as blank, and refuses a blank criterion', async () => {
    // Zero-width space, non-joiner, joiner, word joiner, byte-order mark, a combining mark
    // alone, a tag character (above the basic plane), a BIDI override.
    const invisible = [
      '\u200B',
      '\u200C',
      '\u200D',
      '\u2060',
      '\uFEFF',
      '\u0301',
      '\u200B\u0301 ',
      '\u{E0041}',
      '\u202E\u00A0',
    ];
    const blank = (loc: (string | number)[], what: string, value: string) => ({
      loc,
      msg: `Input should be ${what}, not blank`,
      type: 'string_pattern_mismatch',
      input: value,
    });
    const classification_schema = [
      { category: 'invoice', criteria: ['a bill', '  '] },
      ...invisible.map((category) => ({ category, criteria: ['anything'] })),
    ];
    const classify = await api.post('/classify', { input, classification_schema });
    expect([classify.status, classify.body.detail]).toEqual([
      422,
      [
        blank(['body', 'classification_schema', 0, 'criteria', 1], 'a criterion', '  '),
        ...invisible.map((label, index) =>
          blank(
            ['body', 'classification_schema', index + 1, 'category'],
            'a category label',
            label,
          ),
        ),
      ],
    ]);
    const pipeline = await api.post('/pipelines', {
      name: '\u2060\uFEFF',
      steps: [{ split: { split_description: [{ name: '\u200D', description: 'Anything' }] } }],
    });
    expect([pipeline.status, pipeline.body.detail]).toEqual([
      422,
      [
        blank(['body', 'name'], 'a pipeline name', '\u2060\uFEFF'),
        blank(
          ['body', 'steps', 0, 'split', 'split_description', 0, 'name'],
          'a section name',
          '\u200D',
        ),
      ],
    ]);
    // The description states the same rule: a client validating against it, or a fuzzer
    // drawing from it, tells these from names without asking.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const doc = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as any;
    const described = new Ajv2020({ strict: false }).compile(
      doc.components.schemas.ParseAlpha.properties.layout_model,
    );
    const visible = ['Re\u0301sume\u0301', '\u8ACB\u6C42\u66F8', '\u{1F9FE}', 'a\u200B'];
    const verdicts = (values: string[]) => values.map((value) => described(value));
    expect([verdicts(invisible), verdicts(visible)]).toEqual([
      invisible.map(() => false),
      visible.map(() => true),
    ]);
    // Letters with marks, and scripts without Latin letters, stay names.
    const named = await api.post('/classify_async', {
      input,
      classification_schema: [
        { category: 'Re\u0301sume\u0301', criteria: ['\u8ACB\u6C42\u66F8'] },
        { category: '\u0641\u0627\u062A\u0648\u0631\u0629', criteria: [] },
      ],
    });
    expect([named.status, named.body.detail]).toEqual([200, undefined]);
  });

  it('names an extract schema left out as missing, not as a schema of the wrong type', async () => {
    const res = await api.post('/extract', { input, instructions: {} });
    expect([res.status, res.body.detail]).toEqual([
      422,
      [
        {
          loc: ['body', 'instructions', 'schema'],
          type: 'missing',
          msg: expect.stringMatching(/^Field required: send `schema`, a JSON Schema/),
          input: {},
        },
      ],
    ]);
  });

  it('tells an extract without instructions (optional in the SDK) what to send, and that works', async () => {
    const res = await api.post('/extract', { input });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'instructions'], type: 'missing' }),
    ]);
    const msg = (res.body.detail as { msg: string }[])[0].msg;
    expect(msg).toMatch(/^Field required: send `instructions` with `schema`/);
    // The example the message gives is a request the service takes (the job then fails only
    // on the unreachable input).
    const example = JSON.parse(/e\.g\. (\{.*\})$/.exec(msg)![1]) as Record<string, unknown>;
    const sent = await api.post('/extract_async', { input, instructions: example });
    expect([sent.status, sent.body.detail]).toEqual([200, undefined]);
  });

  it('describes what it refuses of an extract schema first: no object, no root fields, fields that are not schemas, a root reference to itself', async () => {
    const description = new OpenApiConformance(
      await (await fetch(`${t.baseUrl}/openapi.json`)).json(),
    );
    const refused: [unknown, (string | number)[], string][] = [
      [null, [], 'schema_type'],
      [[{ type: 'object' }], [], 'schema_type'],
      [{}, [], 'schema_root'],
      [{ type: 'object', properties: [{ type: 'string' }] }, ['properties'], 'schema_properties'],
      [{ type: 'object', properties: { total: 5 } }, ['properties', 'total'], 'schema_type'],
      // `#` is the root itself, which holds this reference: a schema of no finite depth.
      [{ $ref: '#' }, ['$ref'], 'schema_ref'],
    ];
    for (const [schema, at, type] of refused) {
      const body = { input, instructions: { schema } };
      const res = await api.post('/extract', body);
      expect([
        res.status,
        res.body.detail,
        description.acceptsRequest('POST', '/extract', body),
      ]).toEqual([
        422,
        [expect.objectContaining({ loc: ['body', 'instructions', 'schema', ...at], type })],
        false,
      ]);
    }
    const accepted = [
      { type: 'object', properties: { total: { type: 'number' } } },
      { $ref: '#/$defs/Invoice', $defs: { Invoice: { type: 'object', properties: {} } } },
    ];
    for (const schema of accepted) {
      expect(
        description.acceptsRequest('POST', '/extract', { input, instructions: { schema } }),
      ).toBe(true);
    }
  });

  it('refuses a compressed body with 415 saying so, not as malformed JSON', async () => {
    const res = await fetch(`${t.baseUrl}/classify_async`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await keyOf(t, 'key-validation')}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: gzipSync(JSON.stringify({ input })),
    });
    expect([res.status, await res.json()]).toEqual([
      415,
      {
        error: {
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'Content-Encoding gzip is not supported: send the body uncompressed',
        },
      },
    ]);
  });

  it('checks auth before the body', async () => {
    const res = await client(t.baseUrl, null).post('/classify_async', {});
    expect(res.status).toBe(401);
  });
});
