import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileServer, startFileServer } from '../support/file-server.js';
import { invoiceClassificationSchema as schema } from '../support/invoice-fixtures.js';
import { client, keyOf, waitForJob } from '../support/processing-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';

/** `/metrics` of an embedded-mode app: request, job and webhook metrics under `docproc_`. */
describe('Prometheus metrics', () => {
  let t: TestApp;
  let files: FileServer;

  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp({ FETCH_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '10' });
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  async function scrape(): Promise<string> {
    return (await fetch(`${t.baseUrl}/metrics`)).text();
  }

  it('counts requests by route template and status, never by raw path', async () => {
    await fetch(`${t.baseUrl}/health`);
    await fetch(`${t.baseUrl}/job/job_does_not_exist`);
    await fetch(`${t.baseUrl}/no/such/route`);
    const text = await scrape();
    expect(text).toMatch(
      /docproc_http_request_duration_seconds_count\{method="GET",route="\/health",status_code="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /docproc_http_request_duration_seconds_count\{method="GET",route="\/job\/:job_id",status_code="401"\} 1/,
    );
    expect(text).toMatch(/route="unmatched",status_code="404"/);
    expect(text).not.toContain('job_does_not_exist');
  });

  it('counts finished jobs and webhook delivery attempts', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-metrics'));
    const input = files.put('/invoice.txt', 'invoice number 7 amount due 10 EUR');
    const hook = files.put('/hook', 'ok');
    expect((await api.post('/classify', { input, classification_schema: schema })).status).toBe(
      200,
    );
    const job = await api.post('/classify_async', {
      input,
      classification_schema: schema,
      async: { webhook: { mode: 'direct', url: hook } },
    });
    expect(job.status).toBe(200);
    await waitForJob(api, job.body.job_id);
    let text = '';
    await waitFor(
      'a webhook attempt counted',
      async () => {
        text = await scrape();
        expect(text).toMatch(/docproc_webhook_delivery_attempts_total\{outcome="\w+"\} [1-9]/);
        return true;
      },
      30_000,
      100,
    );
    expect(text).toMatch(/docproc_jobs_finished_total\{type="Classify",outcome="completed"\} 2/);
    expect(text).toMatch(
      /docproc_job_duration_seconds_count\{type="Classify",outcome="completed"\} 2/,
    );
    expect(text).toMatch(/docproc_webhook_delivery_seconds_count\{outcome="\w+"\} [1-9]/);
  });

  it('shows no Kafka consumer gauges outside Kafka mode', async () => {
    expect(await scrape()).not.toMatch(/docproc_usage_consumer_/);
  });
});
