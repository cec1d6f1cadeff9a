import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeDocx, makePdf } from '../../support/documents.js';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { startTestApp, TestApp } from '../../support/test-app.js';

const schema = [
  { category: 'invoice', criteria: ['invoice number', 'amount due', 'bill to'] },
  { category: 'resume', criteria: ['work experience', 'education', 'skills'] },
];
const invoicePage =
  'INVOICE\nInvoice number: INV-2041\nBill to: ACME Corp\nAmount due: 1,250.00 EUR';

/** Real PDFs and DOCX (generated here) through upload, URLs and page_range. */
describe('classify real documents', () => {
  let t: TestApp;
  let files: FileServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp({ FETCH_ALLOW_HOSTS: '127.0.0.1' });
    api = client(t.baseUrl, await keyOf(t, 'org-docs'));
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it('classifies the first 5 pages of a PDF by default and bills the pages read', async () => {
    const pdf = await makePdf([invoicePage, 'terms', 'terms', 'terms', 'terms', 'terms', 'terms']);
    const url = files.put('/invoice.pdf', pdf, 'application/pdf');
    const res = await api.post('/classify', { input: url, classification_schema: schema });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ category: 'invoice' });
    expect(res.body.usage).toEqual({ num_pages: 5, num_categories: 2, credits: 2.5 });
    const job = (await api.get(`/job/${res.body.job_id}`)).body;
    expect([job.num_pages, job.total_pages]).toEqual([5, 7]);
  });

  it('applies page_range to PDFs, and answers an unsatisfiable one with 422 (sync) or Failed (async)', async () => {
    const pdf = await makePdf(
      Array.from({ length: 14 }, (_, i) => (i === 11 ? invoicePage : `page ${i + 1}`)),
    );
    const url = files.put('/long.pdf', pdf, 'application/pdf');
    const ranged = await api.post('/classify', {
      input: url,
      classification_schema: schema,
      page_range: [{ start: 12, end: 12 }],
    });
    expect(ranged.body).toMatchObject({ result: { category: 'invoice' }, usage: { num_pages: 1 } });

    const open = await api.post('/classify', {
      input: url,
      classification_schema: schema,
      page_range: { start: 2 },
    });
    expect(open.status).toBe(422);
    expect(open.body.detail[0]).toMatchObject({ loc: ['body', 'page_range'], type: 'value_error' });
    const asyncOpen = await api.post('/classify_async', { input: url, page_range: { start: 2 } });
    expect(await waitForJob(api, asyncOpen.body.job_id)).toMatchObject({
      status: 'Failed',
      reason: expect.stringContaining('10'),
    });
  });

  it('uploads a DOCX and classifies it with the accurate model at the deep price', async () => {
    const docx = await makeDocx([
      'Curriculum vitae',
      'Work experience: 6 years as engineer',
      'Education: MSc',
      'Skills: Go, SQL',
    ]);
    const form = new FormData();
    form.append('file', new Blob([docx]), 'cv.docx');
    const up = await fetch(`${t.baseUrl}/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await keyOf(t, 'org-docs')}` },
      body: form,
    });
    const { file_id } = (await up.json()) as { file_id: string };
    expect(file_id).toMatch(/\.docx$/);
    const res = await api.post('/classify', {
      input: file_id,
      model: 'accurate',
      classification_schema: schema,
    });
    expect(res.body.result).toEqual({ category: 'resume' });
    expect(res.body.usage.credits).toBe(1.5 * res.body.usage.num_pages);
  });

  it('fails content that is no supported document with a reason', async () => {
    const url = files.put(
      '/blob.bin',
      Buffer.from([0, 1, 2, 3, 255, 254, 0, 0, 9]),
      'application/octet-stream',
    );
    const res = await api.post('/classify', { input: url, classification_schema: schema });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('UNSUPPORTED_DOCUMENT');
  });
});
