import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { seedAccount } from '../../support/accounts.js';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { WebhooksRepository } from '../../../src/processing/webhooks/webhooks.repository.js';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { client, keyOf, type Json, waitForJob } from '../../support/processing-client.js';
import { startWebhookReceiver, WebhookReceiver } from '../../support/webhook-receiver.js';
import { until } from '../../support/operations.js';
import { realForm } from '../../support/edit-forms.js';
import { invoiceClassificationSchema } from '../../support/invoice-fixtures.js';

const RETRY_BASE_MS = 400;
/**
 * How long a job and its webhook may take: the first classify of a process loads its models,
 * which a loaded machine stretches well past ten seconds.
 */
const DELIVERY_DEADLINE_MS = 60_000;

jest.setTimeout(3 * DELIVERY_DEADLINE_MS);

/** The job's first webhook delivery, once its status is `status`. */
async function firstDeliveryOnceItIs(
  api: ReturnType<typeof client>,
  jobId: string,
  status: string,
): Promise<Json> {
  let delivery: Json;
  await until(
    async () => {
      const res = await api.get(`/webhooks/deliveries?job_id=${jobId}`);
      delivery = res.body.deliveries[0];
      return delivery?.status === status;
    },
    `a ${status} delivery of job ${jobId}`,
    DELIVERY_DEADLINE_MS,
  );
  return delivery;
}

describe('webhooks', () => {
  let t: TestApp;
  let files: FileServer;
  let receiver: WebhookReceiver;
  let doc: string;
  const env = {
    FETCH_ALLOW_HOSTS: '127.0.0.1',
    // Large enough that the doubled back-off stands out from claim and request latency.
    WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
    WEBHOOK_MAX_ATTEMPTS: '3',
  };

  beforeAll(async () => {
    files = await startFileServer();
    receiver = await startWebhookReceiver();
    t = await startTestApp(env);
    doc = files.put('/doc.txt', 'invoice number 5');
  });
  afterAll(async () => {
    await t.close();
    await files.close();
    await receiver.close();
  });

  it('delivers a direct webhook signed with the org secret, with async.metadata', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-hooks'));
    receiver.secrets.push((await api.get('/webhooks/secret')).body.secret);
    const submitted = await api.post('/classify_async', {
      input: doc,
      async: { metadata: ['any', { json: true }], webhook: { url: `${receiver.baseUrl}/direct` } },
    });
    await until(
      () => receiver.received.some((r) => r.body.job_id === submitted.body.job_id),
      'the webhook of the job',
      DELIVERY_DEADLINE_MS,
    );
    const hook = receiver.received.find((r) => r.body.job_id === submitted.body.job_id)!;
    expect(hook.path).toBe('/direct');
    expect(hook.body).toEqual({
      status: 'Completed',
      job_id: submitted.body.job_id,
      metadata: ['any', { json: true }],
    });
    expect(hook.headers['webhook-id']).toBe(`msg_${submitted.body.job_id}`);
  });

  it('delivers the webhooks of edit (in the SDK shape) and pipeline jobs, with their metadata', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-hooks'));
    receiver.secrets.push((await api.get('/webhooks/secret')).body.secret);
    const form = files.put('/form.pdf', realForm('libreoffice-form'), 'application/pdf');
    const edit = await api.post('/edit_async', {
      document_url: form,
      edit_instructions: 'first name: Ada',
      webhook: { mode: 'direct', url: `${receiver.baseUrl}/edit`, metadata: { kind: 'edit' } },
    });
    expect(edit.status).toBe(200);
    const pipeline = await api.post('/pipelines', {
      name: 'classify',
      steps: [{ classify: { classification_schema: invoiceClassificationSchema } }],
    });
    const run = await api.post('/pipeline_async', {
      input: doc,
      pipeline_id: pipeline.body.pipeline_id,
      async: { metadata: { kind: 'pipeline' }, webhook: { url: `${receiver.baseUrl}/pipeline` } },
    });
    expect(run.status).toBe(200);
    const hookOf = (jobId: string) => receiver.received.find((r) => r.body.job_id === jobId);
    // An edit and a pipeline run through the executors: the wait and the test's own limit
    // are sized for a loaded machine (jest's 30 s default ended the test before the wait).
    await until(
      () => hookOf(edit.body.job_id) !== undefined && hookOf(run.body.job_id) !== undefined,
      'the webhooks of the edit and the pipeline jobs',
      60_000,
    );
    expect(hookOf(edit.body.job_id)).toMatchObject({
      path: '/edit',
      body: { status: 'Completed', job_id: edit.body.job_id, metadata: { kind: 'edit' } },
    });
    expect(hookOf(run.body.job_id)).toMatchObject({
      path: '/pipeline',
      body: { status: 'Completed', job_id: run.body.job_id, metadata: { kind: 'pipeline' } },
    });
  }, 120_000);

  it('sends Failed for failed jobs', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-hooks'));
    const submitted = await api.post('/classify_async', {
      input: `${files.baseUrl}/nope.txt`,
      async: { webhook: { mode: 'direct', url: `${receiver.baseUrl}/failed` } },
    });
    await until(
      () => receiver.received.some((r) => r.body.job_id === submitted.body.job_id),
      'the webhook of the job',
      DELIVERY_DEADLINE_MS,
    );
    expect(receiver.received.find((r) => r.body.job_id === submitted.body.job_id)!.body).toEqual({
      status: 'Failed',
      job_id: submitted.body.job_id,
      metadata: null,
    });
  });

  it('fans hosted webhooks out to endpoints subscribed to the listed channels', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-hosted'));
    const make = async (path: string, channels: string[]) => {
      const res = await api.post('/webhooks/endpoints', {
        url: `${receiver.baseUrl}${path}`,
        channels,
      });
      expect(res.status).toBe(201);
      expect(res.body.secret).toMatch(/^whsec_/);
      receiver.secrets.push(res.body.secret);
      return res.body;
    };
    await make('/billing', ['billing']);
    await make('/ops', ['ops']);
    await make('/everything', []);
    expect((await api.get('/webhooks/endpoints')).body.endpoints).toHaveLength(3);

    const billing = await api.post('/classify_async', {
      input: doc,
      async: { webhook: { channels: ['billing'] } },
    });
    await until(
      () => receiver.received.filter((r) => r.body.job_id === billing.body.job_id).length === 2,
      'two webhooks of the billing job',
      DELIVERY_DEADLINE_MS,
    );
    const all = await api.post('/classify_async', {
      input: doc,
      async: { webhook: { mode: 'hosted' } },
    });
    await until(
      () => receiver.received.filter((r) => r.body.job_id === all.body.job_id).length === 3,
      'three webhooks of the job',
      DELIVERY_DEADLINE_MS,
    );
    // Deliveries are written with a job's completion, one per subscribed endpoint: once
    // every one of both jobs is delivered, nothing more can arrive and the log is final.
    await until(
      async () => {
        for (const jobId of [billing.body.job_id, all.body.job_id]) {
          const { deliveries } = (await api.get(`/webhooks/deliveries?job_id=${jobId}`)).body;
          if (!deliveries.length || deliveries.some((d: Json) => d.status !== 'delivered'))
            return false;
        }
        return true;
      },
      'every delivery of both jobs delivered',
      DELIVERY_DEADLINE_MS,
    );
    const paths = (jobId: string) =>
      receiver.received
        .filter((r) => r.body.job_id === jobId)
        .map((r) => r.path)
        .sort();
    expect(paths(billing.body.job_id)).toEqual(['/billing', '/everything']);
    expect(paths(all.body.job_id)).toEqual(['/billing', '/everything', '/ops']);
  });

  it('retries failed deliveries with back-off and shows every attempt', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-hooks'));
    receiver.failNext(2);
    const submitted = await api.post('/classify_async', {
      input: doc,
      async: { webhook: { url: `${receiver.baseUrl}/flaky` } },
    });
    const delivery = await firstDeliveryOnceItIs(api, submitted.body.job_id, 'delivered');
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 204 });
    expect(delivery.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([
      500, 500, 204,
    ]);
    const times = delivery.attempt_log.map((a: { attempted_at: string }) =>
      Date.parse(a.attempted_at),
    );
    const [firstWait, secondWait] = [times[1] - times[0], times[2] - times[1]];
    expect(firstWait).toBeGreaterThanOrEqual(RETRY_BASE_MS);
    // Lower bounds only: on a loaded machine a claim can come late, so comparing the two
    // waits with each other is flaky. The exact doubling is pinned in webhooks.service.spec.
    expect(secondWait).toBeGreaterThanOrEqual(2 * RETRY_BASE_MS);
  });

  it('marks a delivery failed after its last attempt instead of dropping it', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-hooks'));
    receiver.failNext(10);
    const submitted = await api.post('/classify_async', {
      input: doc,
      async: { webhook: { url: `${receiver.baseUrl}/down` } },
    });
    await waitForJob(api, submitted.body.job_id);
    const delivery = await firstDeliveryOnceItIs(api, submitted.body.job_id, 'failed');
    expect(delivery).toMatchObject({ attempts: 3, last_error: 'HTTP 500' });
    receiver.failNext(0);
  });

  it('refuses webhook endpoints on private addresses with a 422 naming the reason', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-ssrf-hooks'));
    const res = await api.post('/webhooks/endpoints', { url: 'http://169.254.169.254/hook' });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'url'], type: 'url_blocked' });
    expect(res.body.detail[0].msg).toContain('linkLocal');
  });

  it.each([
    'http://[::127.0.0.1]/hook',
    'http://[2002:7f00:1::]/hook',
    'http://[64:ff9b::a9fe:a9fe]/hook',
    'http://[64:ff9b:1::1]/hook',
    'http://[::ffff:0:7f00:1]/hook',
    'http://0xa9.0xfe.0xa9.0xfe/hook',
  ])('refuses the direct webhook %s at submission, before any job exists', async (url) => {
    const api = client(t.baseUrl, await keyOf(t, 'org-ssrf-hooks'));
    const started = Date.now();
    const res = await api.post('/classify_async', { input: doc, async: { webhook: { url } } });
    // Refused from the address itself: the bound is against waiting on the network (a lookup,
    // or a connection to an address that does not answer), with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({
      loc: ['body', 'async', 'webhook', 'url'],
      type: 'url_blocked',
    });
  });

  it('pages the deliveries list by limit and cursor, none twice or left out', async () => {
    const account = await seedAccount(t.app, 'org-many-deliveries');
    const api = client(t.baseUrl, account.processingKey);
    const repository = t.app.get(WebhooksRepository);
    // More deliveries than the default page holds, most created in the same microsecond.
    const ids = Array.from({ length: 205 }, (_, i) => `dlv_page_${String(i).padStart(3, '0')}`);
    await t.app.get(DuckDbService).transaction(async (tx) => {
      for (const [i, deliveryId] of ids.entries()) {
        await repository.insertDelivery(tx, {
          deliveryId,
          orgId: account.orgId,
          jobId: i % 2 === 0 ? 'job_even' : 'job_odd',
          mode: 'direct',
          endpointId: null,
          url: 'https://hooks.example.test/direct',
          messageId: `msg_${deliveryId}`,
          payload: '{}',
          status: 'failed',
          lastError: null,
        });
      }
    });
    const pageThrough = async (limit: string) => {
      const seen: string[] = [];
      const pages: number[] = [];
      let cursor: string | null = null;
      do {
        const query: string = new URLSearchParams({
          ...(limit ? { limit } : {}),
          ...(cursor ? { cursor } : {}),
        }).toString();
        const res = await api.get(`/webhooks/deliveries?${query}`);
        expect(res.status).toBe(200);
        seen.push(...res.body.deliveries.map((d: Json) => d.delivery_id as string));
        pages.push(res.body.deliveries.length);
        cursor = res.body.next_cursor;
      } while (cursor !== null && pages.length < 10);
      return { pages, seen: [...seen].sort() };
    };
    // The listings' one paging contract: 100 by default, 1 to 500 by `limit`.
    expect(await pageThrough('')).toEqual({ pages: [100, 100, 5], seen: ids });
    expect(await pageThrough('60')).toEqual({ pages: [60, 60, 60, 25], seen: ids });
    expect(await pageThrough('500')).toEqual({ pages: [205], seen: ids });
    for (const limit of ['0', '501', 'ten']) {
      const refused = await api.get(`/webhooks/deliveries?limit=${limit}`);
      expect([refused.status, refused.body.detail?.[0]?.loc]).toEqual([422, ['query', 'limit']]);
    }
    const first = (await api.get('/webhooks/deliveries?job_id=job_odd&limit=102')).body;
    expect([first.deliveries.length, first.next_cursor]).toEqual([102, null]);
    const bad = await api.get('/webhooks/deliveries?cursor=not-a-cursor');
    expect(bad.status).toBe(400);
  });

  it('keeps retry state across a restart', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-hooks'));
    receiver.failNext(1);
    // app.close() keeps the data directory (t.close() would delete it).
    await t.app.close();
    t = await startTestApp({ ...env, WEBHOOK_RETRY_BASE_MS: '1500', DATA_DIR: t.dataDir });
    const api2 = client(t.baseUrl, await keyOf(t, 'org-hooks'));
    const submitted = await api2.post('/classify_async', {
      input: doc,
      async: { webhook: { url: `${receiver.baseUrl}/restart` } },
    });
    await until(
      async () => {
        const res = await api2.get(`/webhooks/deliveries?job_id=${submitted.body.job_id}`);
        return res.body.deliveries[0]?.attempts === 1;
      },
      'the first delivery attempt',
      DELIVERY_DEADLINE_MS,
    );
    await t.app.close();
    t = await startTestApp({ ...env, DATA_DIR: t.dataDir });
    await until(
      async () => {
        const res = await client(t.baseUrl, await keyOf(t, 'org-hooks')).get(
          `/webhooks/deliveries?job_id=${submitted.body.job_id}`,
        );
        return res.body.deliveries[0]?.status === 'delivered';
      },
      'delivery after the restart',
      DELIVERY_DEADLINE_MS,
    );
    expect(receiver.received.some((r) => r.body.job_id === submitted.body.job_id)).toBe(true);
    const res = await client(t.baseUrl, await keyOf(t, 'org-hooks')).get(
      `/webhooks/deliveries?job_id=${submitted.body.job_id}`,
    );
    expect(res.body.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(api).toBeDefined();
  });
});
