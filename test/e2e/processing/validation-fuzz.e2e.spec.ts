import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { client, keyOf } from '../../support/processing-client.js';

/**
 * Property: whatever JSON arrives at /classify_async or /classify, the answer is 200 or 422
 * (or 4xx from input checks), never a 5xx. Bodies mix well-typed fields, wrong types and
 * unknown fields so both paths are exercised.
 */
const anyJson = fc.jsonValue({ maxDepth: 3 });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(fc.oneof(arb, anyJson), { nil: undefined });
const pageRange = fc.oneof(
  fc.constant(null),
  fc.record(
    {
      start: fc.option(fc.integer({ min: -2, max: 30 })),
      end: fc.option(fc.integer({ min: -2, max: 30 })),
    },
    { requiredKeys: [] },
  ),
  fc.array(fc.integer({ min: -1, max: 15 }), { maxLength: 12 }),
  fc.array(
    fc.record({ start: fc.integer({ min: 1, max: 12 }), end: fc.integer({ min: 1, max: 12 }) }),
    { maxLength: 3 },
  ),
);
const webhook = fc.oneof(
  fc.constant(null),
  fc.record(
    {
      mode: fc.constantFrom('direct', 'hosted', 'x'),
      url: fc.webUrl(),
      channels: fc.array(fc.string()),
    },
    { requiredKeys: [] },
  ),
);
const body = fc.record(
  {
    input: maybe(
      fc.oneof(
        fc.constant('docproc://nope.pdf'),
        fc.constant('ftp://x'),
        fc.array(fc.constant('docproc://a.txt')),
        fc.record({ file_id: fc.string() }),
      ),
    ),
    model: maybe(fc.constantFrom('default', 'accurate', 'other')),
    priority: maybe(fc.boolean()),
    async: maybe(
      fc.record(
        { metadata: anyJson, priority: maybe(fc.boolean()), webhook },
        { requiredKeys: [] },
      ),
    ),
    force_url_result: maybe(fc.boolean()),
    classification_schema: maybe(
      fc.array(
        fc.record(
          { category: maybe(fc.string()), criteria: maybe(fc.array(fc.string())) },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
    ),
    category_groups: maybe(fc.dictionary(fc.string(), fc.array(fc.string()))),
    page_range: maybe(pageRange),
    document_metadata: maybe(fc.option(fc.string())),
    alpha: fc.option(anyJson, { nil: undefined }),
  },
  { requiredKeys: [] },
);
const wholeBody = fc.oneof({ weight: 8, arbitrary: body }, { weight: 1, arbitrary: anyJson });

describe('request body fuzzing', () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await startTestApp();
    api = client(t.baseUrl, await keyOf(t, 'key-fuzz'));
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers thousands of random bodies with 200 or 4xx, never 5xx', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        wholeBody,
        fc.constantFrom('/classify_async', '/classify'),
        async (json, path) => {
          const res = await api.post(path, JSON.stringify(json) ?? 'null');
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          expect(res.status).toBeLessThan(500);
          if (res.status === 422) expect(Array.isArray(res.body.detail)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
    expect(statuses.get(422)).toBeGreaterThan(100);
  }, 300_000);
});
