import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { seedAccount, type SeededAccount } from '../../support/accounts.js';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { keyOf } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

jest.setTimeout(180_000);

/** Error answers stay small whatever the request (< 64 KB). */
const MAX_ERROR_BYTES = 64 * 1024;

const PROCESSING_PATHS = [
  '/classify',
  '/classify_async',
  '/parse',
  '/parse_async',
  '/extract',
  '/extract_async',
  '/split',
  '/split_async',
  '/webhooks/endpoints',
] as const;

/** Strings that break naive code: lone surrogates, NULs, huge, deep-looking, URL tricks. */
const nasty = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '\ud800',
    'a\udc00b',
    '\u0000',
    '😀',
    '[[[[[[[[',
    'http://[::127.0.0.1]/',
    'http://169.254.169.254/latest',
    'docproc://../../etc/passwd',
    '%00',
    '-1',
    'NaN',
  ),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => 'x'.repeat(n)),
);
const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 4 }), nasty);
const deep = fc.integer({ min: 50, max: 3000 }).map((n) => '['.repeat(n) + ']'.repeat(n));

/** Plausible bodies with random, wrong or hostile values in every field the endpoints read. */
const body = fc.record(
  {
    input: fc.oneof(nasty, fc.constant('docproc://nope.pdf'), fc.array(nasty, { maxLength: 3 })),
    classification_schema: fc.oneof(
      anyValue,
      fc.array(fc.record({ category: anyValue, criteria: fc.array(anyValue, { maxLength: 3 }) }), {
        maxLength: 4,
      }),
      fc.array(fc.integer(), { minLength: 1000, maxLength: 5000 }),
    ),
    document_metadata: anyValue,
    async: fc.record(
      {
        metadata: anyValue,
        priority: anyValue,
        webhook: fc.oneof(anyValue, fc.record({ mode: anyValue, url: nasty })),
      },
      { requiredKeys: [] },
    ),
    page_range: anyValue,
    settings: anyValue,
    schema: anyValue,
    split_description: anyValue,
    url: nasty,
    channels: anyValue,
  },
  { requiredKeys: [] },
);
const raw = fc.oneof(
  { weight: 6, arbitrary: body.map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: anyValue.map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
);

/** A query value as a client would send it (encodeURIComponent refuses lone surrogates). */
function queryValue(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

const exportQuery = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'startDate',
        'endDate',
        'groupBy',
        'metadataKey',
        'metadataValue',
        'orgId',
        'product',
        'feature',
        'apiKey',
        'fileType',
        'timeZone',
        'x',
      ),
      fc.oneof(
        fc.string(),
        fc.constantFrom(
          '2026-01-01',
          '2026-13-45',
          'product',
          'metadata',
          'feature',
          'product,api_key',
          'Asia/Kolkata',
          'America/New_York',
          '+05:30',
          'Etc/GMT+13',
          '\ud800',
        ),
      ),
    ),
    { maxLength: 6 },
  )
  .map((pairs) => {
    const search = new URLSearchParams();
    for (const [k, v] of pairs) search.append(k, v);
    return search.toString();
  });

/**
 * Random and adversarial requests over real HTTP at every processing
 * endpoint and random queries at the usage export. Properties: no 5xx, error answers
 * under 64 KB, `/health` still answering promptly. Bounded runs keep this near a minute.
 */
describe('HTTP fuzzing of every processing endpoint and the usage export', () => {
  let t: TestApp;
  let files: FileServer;
  let key: string;
  let account: SeededAccount;

  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp({ WEBHOOK_RESOLVE_TIMEOUT_MS: '200' });
    key = await keyOf(t, 'org-fuzz');
    account = await seedAccount(t.app, 'Fuzz');
  });
  afterAll(async () => {
    await t?.close();
    await files.close();
  });

  /**
   * The fuzzed requests are all answered by now: a server they wedged (a loop blocked, a
   * handler stuck) would not answer at all, so the bound is set far above the seconds a probe
   * can wait for a core on a loaded machine, where the process shares two cores with others.
   */
  async function expectHealthy(): Promise<void> {
    const started = Date.now();
    const health = await fetch(`${t.baseUrl}/health`, { signal: AbortSignal.timeout(60_000) });
    expect(health.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(30_000);
  }

  it('answers random bodies at every processing endpoint without a 5xx or a large error', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(raw, fc.constantFrom(...PROCESSING_PATHS), async (text, path) => {
        const res = await fetch(`${t.baseUrl}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: text,
        });
        const answer = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(Buffer.byteLength(answer)).toBeLessThan(MAX_ERROR_BYTES);
      }),
      { numRuns: 300 },
    );
    await expectHealthy();
    expect(statuses.get(422)).toBeGreaterThan(50);
  });

  it('answers random uploads without a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 4096 }),
        fc.oneof(
          fc.string().map(queryValue),
          // already encoded: an unpaired surrogate's bytes and a NUL
          fc.constantFrom('pdf', 'docx', 'png', '..', '%ED%A0%80', '%00', '%FF'),
        ),
        fc.constantFrom('multipart', 'raw'),
        async (bytes, extension, kind) => {
          const url = `${t.baseUrl}/upload?extension=${extension}`;
          const headers = { authorization: `Bearer ${key}` };
          let res: Response;
          if (kind === 'multipart') {
            const form = new FormData();
            form.append('file', new Blob([bytes]), `f.${extension}`);
            res = await fetch(url, { method: 'POST', headers, body: form });
          } else {
            res = await fetch(url, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/octet-stream' },
              body: bytes,
            });
          }
          const answer = await res.text();
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(Buffer.byteLength(answer)).toBeLessThan(MAX_ERROR_BYTES);
        },
      ),
      { numRuns: 100 },
    );
    await expectHealthy();
  });

  it('answers random usage export queries without a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(exportQuery, async (query) => {
        const res = await fetch(`${t.baseUrl}/api/v1/usage/export?${query}`, {
          headers: { authorization: `Bearer ${account.accountKey}` },
        });
        const answer = await res.text();
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(Buffer.byteLength(answer)).toBeLessThan(MAX_ERROR_BYTES);
      }),
      { numRuns: 300 },
    );
    await expectHealthy();
  });
});
