import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { seedAccount, type SeededAccount } from '../../support/accounts.js';
import { makeEncryptedPdf } from '../../support/encrypted-pdf.js';
import { client, uploadPdf, waitForJob } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

type Body = Record<string, unknown>;

const PASSWORD = 'Tr0ub4dor&3-secret';
const LINES = [
  'INVOICE',
  'Invoice number: INV-4821',
  'Invoice date: 2026-03-14',
  'Total due: 1250.00 EUR',
];

/**
 * `document_password` opens a PDF encrypted with a user password (generated in the test:
 * RC4, standard security handler) for parse, extract, split and pipeline runs; a missing or
 * wrong one is a 400 naming the problem. The password is never kept after its job: not in
 * the job row, not in the listed `raw_config`, not in a stored pipeline, not in the logs.
 */
describe('password-protected PDFs: settings.document_password', () => {
  let t: TestApp;
  let org: SeededAccount;
  let fileId: string;
  let logLines: string[];
  const originalWrite = process.stdout.write.bind(process.stdout);

  beforeAll(async () => {
    // Every log line the app writes in this spec, to look for the password in.
    logLines = [];
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      logLines.push(String(chunk));
      return (originalWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
    t = await startTestApp({ LOG_LEVEL: 'debug' });
    org = await seedAccount(t.app, 'Password Co');
    const encrypted = makeEncryptedPdf(LINES, PASSWORD);
    fileId = await uploadPdf(t.baseUrl, org.processingKey, encrypted, 'invoice.pdf');
  }, 60_000);
  afterAll(async () => {
    process.stdout.write = originalWrite;
    await t?.close();
  });

  async function post(route: string, body: Body): Promise<{ status: number; body: Body }> {
    const res = await fetch(`${t.baseUrl}${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.processingKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Body };
  }

  const textOf = (result: unknown) => JSON.stringify(result);

  it('parse opens the PDF with its password', async () => {
    const answer = await post('/parse', {
      input: fileId,
      settings: { document_password: PASSWORD },
    });
    expect(answer.status).toBe(200);
    expect(textOf(answer.body.result)).toContain('INV-4821');
  });

  it('a missing password is a 400 saying the PDF needs one and where it goes', async () => {
    const answer = await post('/parse', { input: fileId });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 'DOCUMENT_PASSWORD_REQUIRED',
      message: expect.stringContaining('document_password'),
    });
  });

  it('a wrong password is a 400 saying it does not open the PDF', async () => {
    const answer = await post('/parse', {
      input: fileId,
      settings: { document_password: 'not-the-password' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'DOCUMENT_PASSWORD_INCORRECT' });
    expect(JSON.stringify(answer.body)).not.toContain('not-the-password');
  });

  it('extract and split take it in parsing.settings', async () => {
    const extract = await post('/extract', {
      input: fileId,
      instructions: {
        schema: { type: 'object', properties: { invoice_number: { type: 'string' } } },
      },
      parsing: { settings: { document_password: PASSWORD } },
    });
    expect(extract.status).toBe(200);
    expect(textOf(extract.body.result)).toContain('INV-4821');
    const split = await post('/split', {
      input: fileId,
      split_description: [{ name: 'invoice', description: 'An invoice with an amount due' }],
      parsing: { settings: { document_password: PASSWORD } },
    });
    expect(split.status).toBe(200);
  });

  it('an async job runs with it, then keeps no trace of it: row, raw_config, request file', async () => {
    const submitted = await post('/parse_async', {
      input: fileId,
      settings: { document_password: PASSWORD },
      // A large request is stored as a file: the password must not be in it either.
      async: { metadata: { note: 'x'.repeat(5_000) } },
    });
    expect(submitted.status).toBe(200);
    const jobId = submitted.body.job_id as string;
    const api = client(t.baseUrl, org.processingKey);
    const job = await waitForJob(api, jobId, 120_000);
    expect(job.status).toBe('Completed');
    expect(textOf(job.result)).toContain('INV-4821');

    const rows = await t.app.get(DuckDbService).all<{
      request: string | null;
      document_password: string | null;
      request_key: string | null;
    }>(
      `SELECT CAST(request AS VARCHAR) AS request, document_password, request_key
         FROM processing_jobs WHERE job_id = $1`,
      [jobId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].document_password).toBeNull();
    expect(rows[0].request ?? '').not.toContain(PASSWORD);
    expect(rows[0].request_key).not.toBeNull();
    const files = fs.readdirSync(t.dataDir, { recursive: true, withFileTypes: true });
    for (const file of files.filter((f) => f.isFile())) {
      const bytes = fs.readFileSync(path.join(file.parentPath, file.name));
      expect([file.name, bytes.includes(Buffer.from(PASSWORD))]).toEqual([file.name, false]);
    }

    const listed = await api.get('/jobs');
    expect(listed.status).toBe(200);
    const item = (listed.body.jobs as Body[]).find((j) => j.job_id === jobId);
    expect(item?.raw_config).toEqual(expect.any(String));
    expect(item?.raw_config).not.toContain(PASSWORD);
    expect(JSON.parse(item!.raw_config as string)).toMatchObject({ settings: {} });
  });

  it('a pipeline run takes it in its settings; a stored pipeline refuses to keep one', async () => {
    const refused = await post('/pipelines', {
      name: 'with a password',
      parse: { settings: { document_password: PASSWORD } },
      steps: [{ extract: { instructions: { schema: { type: 'object', properties: {} } } } }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'parse', 'settings', 'document_password'] }),
    ]);
    expect(JSON.stringify(refused.body)).not.toContain(PASSWORD);

    const created = await post('/pipelines', {
      name: 'invoices',
      steps: [
        {
          extract: {
            instructions: {
              schema: { type: 'object', properties: { invoice_number: { type: 'string' } } },
            },
          },
        },
      ],
    });
    expect(created.status).toBe(201);
    const pipeline_id = created.body.pipeline_id as string;
    const run = await post('/pipeline', {
      input: fileId,
      pipeline_id,
      settings: { document_password: PASSWORD },
    });
    expect(run.status).toBe(200);
    expect(textOf(run.body.result)).toContain('INV-4821');
    const without = await post('/pipeline', { input: fileId, pipeline_id });
    expect(without.status).toBe(400);
    expect(without.body.error).toMatchObject({ code: 'DOCUMENT_PASSWORD_REQUIRED' });
  });

  it('edit of a password-protected PDF stays refused with a 400 naming why', async () => {
    const answer = await post('/edit', {
      document_url: fileId,
      edit_instructions: 'invoice number: INV-1',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      message: expect.stringContaining('an encrypted PDF cannot be edited'),
    });
  });

  it('never writes the password to the logs', () => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('')).not.toContain(PASSWORD);
  });
});
