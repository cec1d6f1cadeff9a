import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';

const schema = [
  { category: 'invoice', criteria: ['invoice number', 'amount due', 'bill to'] },
  { category: 'resume', criteria: ['work experience', 'education', 'skills'] },
];

describe('classify over HTTP', () => {
  let t: TestApp;
  let files: FileServer;
  let api: ReturnType<typeof client>;
  let invoiceUrl: string;

  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp({ FETCH_ALLOW_HOSTS: '127.0.0.1' });
    api = client(t.baseUrl, await keyOf(t, 'key-org-a'));
    invoiceUrl = files.put(
      '/invoice.txt',
      'INVOICE\nInvoice number 42\nBill to: ACME\nAmount due: 100 EUR',
    );
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it('classifies synchronously with the documented result shape', async () => {
    const res = await api.post('/classify', { input: invoiceUrl, classification_schema: schema });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      job_id: expect.any(String),
      response_type: 'classify',
      result: { category: 'invoice' },
      response_confidence: {
        categories: [
          {
            category: 'invoice',
            confidence: expect.any(Number),
            criteria_confidence: schema[0].criteria.map((criterion) => ({
              criterion,
              confidence: expect.stringMatching(/^(high|low)$/),
            })),
          },
          expect.objectContaining({ category: 'resume', confidence: expect.any(Number) }),
        ],
      },
      usage: { num_pages: 1, num_categories: 2, credits: 0.5 },
      duration: expect.any(Number),
    });
    // A category's confidence is its calibrated probability of being the right one: the
    // confidences sum to 1 and the chosen category has the largest.
    const confidences = res.body.response_confidence.categories.map(
      (c: { confidence: number }) => c.confidence,
    );
    expect(confidences.reduce((sum: number, value: number) => sum + value, 0)).toBeCloseTo(1, 3);
    expect(res.body.response_confidence.categories[0].confidence).toBeGreaterThan(
      res.body.response_confidence.categories[1].confidence,
    );
  });

  it('runs async jobs to Completed and shows them in GET /job', async () => {
    const submitted = await api.post('/classify_async', {
      input: invoiceUrl,
      classification_schema: schema,
      category_groups: { finance: ['invoice'] },
    });
    expect(submitted.status).toBe(200);
    expect(Object.keys(submitted.body)).toEqual(['job_id']);
    const job = await waitForJob(api, submitted.body.job_id);
    expect(job).toMatchObject({
      job_id: submitted.body.job_id,
      status: 'Completed',
      progress: 1,
      reason: null,
      type: 'Classify',
      num_pages: 1,
      total_pages: 1,
      result: { result: { category: 'invoice' }, extra_metadata: { grouping: 'finance' } },
    });
    expect(typeof job.duration).toBe('number');
  });
});
