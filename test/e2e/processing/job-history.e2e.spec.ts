import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { JobsService } from '../../../src/processing/jobs/jobs.service.js';
import { UsageOutboxRelay } from '../../../src/processing/outbox/usage-outbox.relay.js';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { startWebhookReceiver, WebhookReceiver } from '../../support/webhook-receiver.js';
import { waitFor } from '../../support/wait.js';

jest.setTimeout(180_000);

const DAY = 24 * 3600;

/**
 * Job history retention on a real DuckDB file: finished jobs older than
 * JOB_HISTORY_RETENTION_SECONDS leave with what hangs off them; usage stays. Ages are set
 * by moving the stored times back, as the passing days would.
 */
describe('job history retention', () => {
  let t: TestApp;
  let files: FileServer;
  let receiver: WebhookReceiver;
  let db: DuckDbService;
  beforeAll(async () => {
    files = await startFileServer();
    receiver = await startWebhookReceiver();
    t = await startTestApp({
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      OUTBOX_RELAY_INTERVAL_MS: '50',
      JOB_RESULT_RETENTION_SECONDS: String(DAY),
      JOB_HISTORY_RETENTION_SECONDS: String(2 * DAY),
    });
    db = t.app.get(DuckDbService);
  });
  afterAll(async () => {
    await t.close();
    await files.close();
    await receiver.close();
  });

  const ageBy = (seconds: number, jobIds: string[]) =>
    db.run(
      `UPDATE processing_jobs SET created_at = created_at - to_seconds(CAST($1 AS BIGINT)),
         finished_at = finished_at - to_seconds(CAST($1 AS BIGINT))
       WHERE list_contains(CAST($2 AS VARCHAR[]), job_id)`,
      [seconds, JSON.stringify(jobIds)],
    );
  const count = async (sql: string, jobId: string) =>
    Number((await db.all<{ n: bigint }>(sql, [jobId]))[0].n);
  const rowsOf = async (jobId: string) => ({
    job: await count(`SELECT count(*) AS n FROM processing_jobs WHERE job_id = $1`, jobId),
    deliveries: await count(
      `SELECT count(*) AS n FROM webhook_deliveries WHERE job_id = $1`,
      jobId,
    ),
    attempts: await count(
      `SELECT count(*) AS n FROM webhook_attempts WHERE delivery_id IN
         (SELECT delivery_id FROM webhook_deliveries WHERE job_id = $1)`,
      jobId,
    ),
    outbox: await count(`SELECT count(*) AS n FROM usage_outbox WHERE job_id = $1`, jobId),
    usage: await count(`SELECT count(*) AS n FROM usage_events WHERE job_id = $1`, jobId),
  });

  it('deletes old finished jobs with their deliveries and outbox rows, keeps usage and every job still needed', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-history'));
    receiver.secrets.push((await api.get('/webhooks/secret')).body.secret);
    const doc = files.put('/doc.txt', 'invoice number 7');
    const submit = async (body: Record<string, unknown>) =>
      (await api.post('/classify_async', { input: doc, ...body })).body.job_id as string;
    const old = await submit({ async: { webhook: { url: `${receiver.baseUrl}/hook` } } });
    const failed = await submit({ input: `${files.baseUrl}/missing.txt` });
    const persisted = await submit({ persist_results: true });
    const young = await submit({});
    const pendingHook = await submit({ async: { webhook: { url: `${receiver.baseUrl}/hook` } } });
    const unsentUsage = await submit({});
    const unfinished = await submit({});
    const all = [old, failed, persisted, young, pendingHook, unsentUsage, unfinished];
    for (const id of all) await waitForJob(api, id);
    await waitFor(
      'the webhooks delivered and the usage events recorded',
      async () =>
        (await rowsOf(old)).attempts === 1 &&
        (await rowsOf(pendingHook)).attempts === 1 &&
        (await rowsOf(unsentUsage)).usage === 1 &&
        (await rowsOf(old)).usage === 1,
      60_000,
      100,
    );
    expect((await rowsOf(old)).outbox).toBe(1);
    expect(fs.existsSync(path.join(t.dataDir, 'blobs', 'results', `${old}.json`))).toBe(true);
    // What may still be needed: a delivery still being retried, an event the sink has
    // not acknowledged, a job a worker has not finished.
    await db.run(`UPDATE webhook_deliveries SET status = 'pending' WHERE job_id = $1`, [
      pendingHook,
    ]);
    // The relay would send the event again within its 50 ms interval: it waits meanwhile.
    const relay = t.app.get(UsageOutboxRelay);
    await relay.onModuleDestroy();
    await db.run(`UPDATE usage_outbox SET sent_at = NULL WHERE job_id = $1`, [unsentUsage]);
    await db.run(
      `UPDATE processing_jobs SET status = 'running', finished_at = NULL WHERE job_id = $1`,
      [unfinished],
    );
    await ageBy(
      3 * DAY,
      all.filter((id) => id !== young),
    );
    await ageBy(DAY + 3600, [young]);

    expect(await t.app.get(JobsService).sweep()).toEqual({ results: 4, jobs: 2, leftBehind: 0 });

    expect(await rowsOf(old)).toEqual({ job: 0, deliveries: 0, attempts: 0, outbox: 0, usage: 1 });
    expect((await rowsOf(failed)).job).toBe(0);
    for (const id of [old, failed]) {
      const res = await api.get(`/job/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('JOB_NOT_FOUND');
    }
    // The deleted jobs' files went with them; the persisted result and the file of the job
    // still running stay.
    expect(fs.readdirSync(path.join(t.dataDir, 'blobs', 'results')).sort()).toEqual(
      [`${persisted}.json`, `${unfinished}.json`].sort(),
    );
    // Young: its result went at result retention, its row stays until history retention.
    for (const id of [persisted, young, pendingHook, unsentUsage, unfinished]) {
      expect((await rowsOf(id)).job).toBe(1);
    }
    expect((await api.get(`/job/${young}`)).body).toMatchObject({
      status: 'Completed',
      result: null,
    });
    expect((await rowsOf(pendingHook)).deliveries).toBe(1);
    // Once sent, the held-back job goes at the next pass.
    await db.run(`UPDATE usage_outbox SET sent_at = now() WHERE job_id = $1`, [unsentUsage]);
    expect(await t.app.get(JobsService).sweep()).toEqual({ results: 0, jobs: 1, leftBehind: 0 });
    expect((await rowsOf(unsentUsage)).job).toBe(0);
    expect((await rowsOf(unsentUsage)).usage).toBe(1);
    relay.onApplicationBootstrap();
  });

  it('deletes what a job deleted through the API left behind, once past the retention', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-history-deleted'));
    receiver.secrets.push((await api.get('/webhooks/secret')).body.secret);
    const doc = files.put('/deleted.txt', 'invoice number 8');
    const jobId = (
      await api.post('/classify_async', {
        input: doc,
        async: { webhook: { url: `${receiver.baseUrl}/hook` } },
      })
    ).body.job_id as string;
    await waitForJob(api, jobId);
    await waitFor(
      'the webhook delivered and the usage event sent',
      async () => (await rowsOf(jobId)).attempts === 1 && (await rowsOf(jobId)).usage === 1,
      60_000,
      100,
    );
    await db.run(
      `INSERT INTO queue_tasks (task_id, seq, queue, lane, kind, payload, state, attempts,
         max_attempts, available_at, enqueued_at, last_error)
       VALUES ('task-left', nextval('queue_tasks_seq'), 'cpu', 'standard', 'classify',
         json_object('jobId', $1), 'dead', 3, 3, now(), now(), 'gave up')`,
      [jobId],
    );
    expect((await api.delete(`/job/${jobId}`)).status).toBe(200);
    const deadTasks = () =>
      count(`SELECT count(*) AS n FROM queue_tasks WHERE task_id = $1`, 'task-left');
    const sweep = () => t.app.get(JobsService).sweep();
    // Younger than the retention: kept, as a job's own rows would be.
    expect((await sweep()).leftBehind).toBe(0);
    expect(await rowsOf(jobId)).toEqual({
      job: 0,
      deliveries: 1,
      attempts: 1,
      outbox: 1,
      usage: 1,
    });
    await db.run(
      `UPDATE webhook_deliveries SET created_at = created_at - INTERVAL 3 DAY WHERE job_id = $1`,
      [jobId],
    );
    await db.run(
      `UPDATE usage_outbox SET created_at = created_at - INTERVAL 3 DAY WHERE job_id = $1`,
      [jobId],
    );
    await db.run(
      `UPDATE queue_tasks SET enqueued_at = enqueued_at - INTERVAL 3 DAY WHERE task_id = 'task-left'`,
    );
    // The delivery, its attempt, the outbox row and the dead task.
    expect((await sweep()).leftBehind).toBe(4);
    expect(await rowsOf(jobId)).toEqual({
      job: 0,
      deliveries: 0,
      attempts: 0,
      outbox: 0,
      usage: 1,
    });
    expect(await deadTasks()).toBe(0);
  });
});
