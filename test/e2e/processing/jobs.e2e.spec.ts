import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { FileServer, startFileServer, HELD_DOWNLOAD_ENV } from '../../support/file-server.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { until } from '../../support/operations.js';
import { waitFor } from '../../support/wait.js';
import { invoiceClassificationSchema as schema } from '../../support/invoice-fixtures.js';

describe('jobs API', () => {
  let t: TestApp;
  let files: FileServer;
  let doc: string;
  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp({ FETCH_ALLOW_HOSTS: '127.0.0.1' });
    doc = files.put('/doc.txt', 'invoice number 1');
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it("answers 404 for unknown ids and for other organizations' jobs", async () => {
    const owner = client(t.baseUrl, await keyOf(t, 'org-jobs-owner'));
    const { body } = await owner.post('/classify_async', { input: doc });
    expect((await owner.get(`/job/${body.job_id}`)).status).toBe(200);
    const other = client(t.baseUrl, await keyOf(t, 'org-jobs-other'));
    for (const res of [
      await other.get(`/job/${body.job_id}`),
      await other.post(`/cancel/${body.job_id}`),
      await other.delete(`/job/${body.job_id}`),
      await owner.get('/job/00000000-0000-0000-0000-000000000000'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('JOB_NOT_FOUND');
    }
    expect((await client(t.baseUrl, null).get(`/job/${body.job_id}`)).status).toBe(401);
  });

  it('lists jobs newest first with cursor pagination', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-jobs-list'));
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (await api.post('/classify_async', { input: doc, classification_schema: schema })).body
          .job_id,
      );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: {
        status: number;
        body: { jobs: { job_id: string; raw_config?: string }[]; next_cursor: string | null };
      } = await api.get(`/jobs?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.jobs.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.jobs.map((j) => j.job_id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const page = await api.get('/jobs?limit=1');
    expect(page.body.jobs[0]).toMatchObject({
      job_id: ids[4],
      type: 'Classify',
      created_at: expect.any(String),
    });
    expect(JSON.parse(page.body.jobs[0].raw_config)).toMatchObject({
      input: doc,
      model: 'default',
      priority: true,
    });
    expect((await api.get('/jobs?limit=1&exclude_configs=true')).body.jobs[0].raw_config).toBe('');
    expect((await api.get('/jobs?limit=0')).status).toBe(422);
    // A negative limit is a number out of range, not one that cannot be read.
    expect((await api.get('/jobs?limit=-1')).body.detail).toEqual([
      expect.objectContaining({ loc: ['query', 'limit'], type: 'greater_than_equal' }),
    ]);
    expect((await api.get('/jobs?cursor=garbage')).status).toBe(400);
  });

  it('ends a page of the listing at 4 MiB of requests, at least one job, with a cursor', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-jobs-large'));
    // Each request about 1.5 MiB (kept as a file): two fit in a page, the third does not.
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', description: 'x'.repeat(1_500_000) } },
    };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await api.post('/extract_async', { input: doc, instructions: { schema } })).body.job_id,
      );
    const first = await api.get('/jobs?limit=10');
    expect([first.status, first.body.jobs.length, typeof first.body.next_cursor]).toEqual([
      200,
      2,
      'string',
    ]);
    const second = await api.get(`/jobs?limit=10&cursor=${first.body.next_cursor}`);
    expect([second.body.jobs.length, second.body.next_cursor]).toEqual([1, null]);
    const listed = [...first.body.jobs, ...second.body.jobs] as { job_id: string }[];
    expect(listed.map((j) => j.job_id)).toEqual([...ids].reverse());
  });

  it('deletes jobs', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-jobs-delete'));
    const id = (await api.post('/classify_async', { input: doc })).body.job_id;
    await waitForJob(api, id);
    expect(await api.delete(`/job/${id}`)).toMatchObject({
      status: 200,
      body: { job_id: id, deleted: true },
    });
    expect((await api.get(`/job/${id}`)).status).toBe(404);
  });

  it('returns force_url_result results as a signed URL that serves the full result', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-jobs-url'));
    const res = await api.post('/classify', {
      input: doc,
      classification_schema: schema,
      force_url_result: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({
      type: 'url',
      url: expect.stringContaining(`/job/${res.body.job_id}/result?expires=`),
      result_id: res.body.job_id,
    });
    expect(res.body.response_confidence).toBeUndefined();
    const fetched = await fetch(res.body.result.url);
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toMatchObject({
      job_id: res.body.job_id,
      result: { category: 'invoice' },
      response_confidence: expect.any(Object),
    });
    const tampered = res.body.result.url.replace(/signature=[^&]+/, 'signature=x');
    expect((await fetch(tampered)).status).toBe(403);
    const polled = await api.get(`/job/${res.body.job_id}`);
    expect(polled.body.result.result.type).toBe('url');
  });
});

describe('queue order and cancellation with one busy cpu worker', () => {
  // One worker runs everything in turn: slow on a loaded machine.
  jest.setTimeout(120_000);
  let t: TestApp;
  let files: FileServer;
  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp({
      CPU_WORKER_CONCURRENCY: '1',
      ...HELD_DOWNLOAD_ENV,
    });
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  async function finishedAt(api: ReturnType<typeof client>, id: string): Promise<number> {
    await waitForJob(api, id, 60_000);
    const rows = await t.app
      .get(DuckDbService)
      .all<{ at: bigint }>(
        `SELECT epoch_us(finished_at) AS at FROM processing_jobs WHERE job_id = $1`,
        [id],
      );
    return Number(rows[0].at);
  }

  it('runs priority before standard before batch, whatever the submission order', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-order'));
    const blocker = files.hold('/block-order.txt', 'invoice number');
    const busy = (
      await api.post('/classify_async', { input: blocker.url, async: { priority: true } })
    ).body.job_id;
    await until(() => files.requests.includes('/block-order.txt'), 'the blocker running');
    const doc = files.put('/order.txt', 'invoice number');
    const batch = (
      await api.post('/classify_async', {
        input: doc,
        queue_priority: 'batch',
        async: { priority: true },
      })
    ).body.job_id;
    const standard1 = (await api.post('/classify_async', { input: doc })).body.job_id;
    const standard2 = (await api.post('/classify_async', { input: doc })).body.job_id;
    const priority = (await api.post('/classify_async', { input: doc, async: { priority: true } }))
      .body.job_id;
    blocker.release();
    await finishedAt(api, busy);
    const order = await Promise.all(
      [priority, standard1, standard2, batch].map((id) => finishedAt(api, id)),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('cancels a queued job (no result, no usage) and discards a running one', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-cancel'));
    const blocker = files.hold('/block-cancel.txt', 'invoice number');
    const running = (await api.post('/classify_async', { input: blocker.url })).body.job_id;
    await until(() => files.requests.includes('/block-cancel.txt'), 'the blocker running');
    const queued = (await api.post('/classify_async', { input: files.put('/q.txt', 'invoice') }))
      .body.job_id;

    expect((await api.post(`/cancel/${queued}`)).body).toEqual({
      job_id: queued,
      status: 'Cancelled',
    });
    expect((await api.post(`/cancel/${running}`)).body).toEqual({
      job_id: running,
      status: 'Cancelling',
    });
    expect(await waitForJob(api, queued)).toMatchObject({
      status: 'Failed',
      reason: 'Job was cancelled',
      result: null,
    });
    blocker.release();
    expect(await waitForJob(api, running)).toMatchObject({
      status: 'Failed',
      reason: 'Job was cancelled',
      result: null,
    });
    const usage = await t.app
      .get(DuckDbService)
      .all(`SELECT 1 FROM usage_outbox WHERE job_id IN ($1, $2)`, [queued, running]);
    expect(usage).toHaveLength(0);
    const listed = (await api.get('/jobs')).body.jobs.map((j: { status: string }) => j.status);
    expect(listed).toEqual(['Cancelled', 'Cancelled']);
    const done = (await api.post('/classify_async', { input: files.put('/d.txt', 'x') })).body
      .job_id;
    await waitForJob(api, done);
    expect((await api.post(`/cancel/${done}`)).status).toBe(409);
  });
});

describe('result retention', () => {
  it('drops results past JOB_RESULT_RETENTION_SECONDS unless persist_results', async () => {
    const files = await startFileServer();
    const t = await startTestApp({
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      JOB_RESULT_RETENTION_SECONDS: '1',
    });
    try {
      const doc = files.put('/doc.txt', 'invoice number 1');
      const api = client(t.baseUrl, await keyOf(t, 'org-retention'));
      const plain = (await api.post('/classify', { input: doc })).body.job_id;
      const kept = (await api.post('/classify', { input: doc, persist_results: true })).body.job_id;
      const { JobsService } = await import('../../../src/processing/jobs/jobs.service.js');
      // Sweeps until the plain result is past its second; `kept`, finished at the same time,
      // is then past it too and only persist_results keeps it.
      await waitFor(
        'a sweep to drop the plain result',
        async () => {
          await t.app.get(JobsService).sweep();
          return (await api.get(`/job/${plain}`)).body.result === null;
        },
        60_000,
        100,
      );
      expect((await api.get(`/job/${plain}`)).body).toMatchObject({
        status: 'Completed',
        result: null,
        reason: expect.stringContaining('retention'),
      });
      expect((await api.get(`/job/${kept}`)).body.result).not.toBeNull();
      // The dropped result's file is deleted from the data dir, the kept one's stays.
      const resultFiles = fs.readdirSync(path.join(t.dataDir, 'blobs', 'results'));
      expect(resultFiles).toEqual([`${kept}.json`]);
    } finally {
      await t.close();
      await files.close();
    }
  });
});
