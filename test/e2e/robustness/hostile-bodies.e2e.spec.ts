import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { keyOf } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { invoiceClassificationSchema as schema } from '../../support/invoice-fixtures.js';

const MAX_ERROR_BYTES = 64 * 1024;

/**
 * Each malformed body gets a 4xx whose body stays under
 * 64 KB, and the same server then classifies a normal request.
 */
describe('hostile request bodies', () => {
  let t: TestApp;
  let files: FileServer;
  let key: string;
  let doc: string;

  async function send(
    path: string,
    raw: string,
  ): Promise<{
    status: number;
    bytes: number;
    body: { detail?: { loc: unknown[]; type: string; ctx?: Record<string, unknown> }[] };
  }> {
    const res = await fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: raw,
    });
    const text = await res.text();
    let body = {};
    try {
      body = JSON.parse(text) as object;
    } catch {
      // not JSON: asserted through the status
    }
    return { status: res.status, bytes: Buffer.byteLength(text), body };
  }

  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp({ FETCH_ALLOW_HOSTS: '127.0.0.1' });
    key = await keyOf(t, 'org-hostile');
    doc = files.put('/doc.txt', 'invoice number 77 total due');
  });
  afterAll(async () => {
    await t?.close();
    await files.close();
  });

  const balanced = (n: number) => '['.repeat(n) + ']'.repeat(n);

  it.each([
    ['10 KB of unclosed [', () => '['.repeat(10_240), 'json_invalid'],
    ['10 KB of balanced []', () => balanced(5_120), 'json_too_deep'],
    ['a field nested 100,000 deep', () => `{"input":${balanced(100_000)}}`, 'json_too_deep'],
  ])('refuses %s with a small 422', async (_name, body, type) => {
    for (const path of ['/classify', '/parse', '/extract_async']) {
      const res = await send(path, body());
      expect(res.status).toBe(422);
      expect(res.bytes).toBeLessThan(MAX_ERROR_BYTES);
      expect(res.body.detail?.[0].type).toBe(type);
    }
  });

  it.each([
    [
      'document_metadata',
      (input: string) => `{"input":"${input}","document_metadata":"a\\ud800b"}`,
      ['body', 'document_metadata'],
    ],
    [
      'a category',
      (input: string) =>
        `{"input":"${input}","classification_schema":[{"category":"\\udc00","criteria":["x"]}]}`,
      ['body', 'classification_schema', 0, 'category'],
    ],
    [
      'async.metadata',
      (input: string) => `{"input":"${input}","async":{"metadata":{"team":"\\ud800"}}}`,
      ['body', 'async', 'metadata', 'team'],
    ],
  ])('refuses a lone surrogate in %s with a 422 naming the field', async (_name, body, loc) => {
    const res = await send('/classify_async', body(doc));
    expect(res.status).toBe(422);
    expect(res.body.detail?.[0]).toMatchObject({ loc, type: 'string_unicode' });
  });

  it('keeps a well-formed astral character (a surrogate pair) as is', async () => {
    const res = await send(
      '/classify',
      JSON.stringify({ input: doc, classification_schema: schema, document_metadata: 'ok 😀' }),
    );
    expect(res.status).toBe(200);
  });

  it('refuses async.metadata nested past its own depth limit', async () => {
    let metadata: unknown = 'leaf';
    for (let i = 0; i < 20; i++) metadata = { a: metadata };
    const res = await send('/classify_async', JSON.stringify({ input: doc, async: { metadata } }));
    expect(res.status).toBe(422);
    expect(res.body.detail?.[0].type).toBe('metadata_too_deep');
  });

  it('refuses async.metadata larger than ASYNC_METADATA_MAX_BYTES, naming the setting', async () => {
    const metadata = { note: 'x'.repeat(20 * 1024) };
    const res = await send('/classify_async', JSON.stringify({ input: doc, async: { metadata } }));
    expect(res.status).toBe(422);
    expect(res.body.detail?.[0]).toMatchObject({
      loc: ['body', 'async', 'metadata'],
      type: 'metadata_too_large',
      ctx: { max_bytes: 16 * 1024 },
    });
    expect(JSON.stringify(res.body.detail)).toContain('ASYNC_METADATA_MAX_BYTES');
  });

  it('answers a classification_schema of 150,000 integers with at most 51 errors in a small body, checking no more items than it lists', async () => {
    const ints = Array.from({ length: 150_000 }, (_, i) => i);
    const res = await send(
      '/classify',
      JSON.stringify({ input: doc, classification_schema: ints }),
    );
    expect(res.status).toBe(422);
    expect(res.bytes).toBeLessThan(MAX_ERROR_BYTES);
    expect(res.body.detail!.length).toBeLessThanOrEqual(51);
    // The walk stopped once it had more errors than a 422 lists (the API process's time):
    // 51 items checked, and one error saying the others were not, of 150,000.
    expect(res.body.detail!.at(-1)).toMatchObject({
      type: 'too_many_errors',
      ctx: { total: 52, listed: 50 },
    });
  });

  it('answers a 240 KB body of many wrong fields with a small 422', async () => {
    const categories = Array.from({ length: 4_000 }, (_, i) => ({
      category: i,
      criteria: [i, { x: 'y'.repeat(20) }],
    }));
    const raw = JSON.stringify({ input: doc, classification_schema: categories });
    expect(raw.length).toBeGreaterThan(200_000);
    const res = await send('/classify', raw);
    expect(res.status).toBe(422);
    expect(res.bytes).toBeLessThan(MAX_ERROR_BYTES);
  });

  it.each([
    ['input a number', { input: 5 }],
    ['input an object', { input: { file_id: 7 } }],
    ['schema an object', { input: 'x', classification_schema: { a: 1 } }],
    ['priority a string', { input: 'x', priority: 'yes' }],
    ['page_range nonsense', { input: 'x', page_range: [{ start: 'a' }] }],
    ['metadata a number', { input: 'x', document_metadata: 12 }],
    ['a top-level array', [1, 2, 3]],
    ['a top-level string', 'text'],
    ['null', null],
  ])('refuses wrong types (%s) with 422', async (_name, body) => {
    const res = await send('/classify', JSON.stringify(body));
    expect(res.status).toBe(422);
    expect(res.bytes).toBeLessThan(MAX_ERROR_BYTES);
  });

  it.each([
    ['jobid://', 404, 'JOB_NOT_FOUND'],
    ['docproc://', 404, 'FILE_NOT_FOUND'],
  ])('answers a 900 KB %s reference with a small error', async (prefix, status, code) => {
    const input = prefix + 'a'.repeat(900_000);
    const res = await send('/parse', JSON.stringify({ input }));
    expect([res.status, (res.body as { error?: { code: string } }).error?.code]).toEqual([
      status,
      code,
    ]);
    expect(res.bytes).toBeLessThan(4096);
  });

  it('answers a body over the size limit with 413', async () => {
    const raw = JSON.stringify({ input: doc, document_metadata: 'x'.repeat(11 * 1024 * 1024) });
    const res = await send('/classify', raw);
    expect(res.status).toBe(413);
  });

  it('still classifies a normal request afterwards', async () => {
    const res = await send(
      '/classify',
      JSON.stringify({ input: doc, classification_schema: schema }),
    );
    expect(res.status).toBe(200);
    const health = await fetch(`${t.baseUrl}/health`);
    expect(health.status).toBe(200);
  });
});
