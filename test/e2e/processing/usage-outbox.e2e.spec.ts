import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { UsageOutboxRepository } from '../../../src/processing/outbox/usage-outbox.repository.js';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { RecordingSink, startAppWithSink } from '../../support/sink-app.js';
import type { TestApp } from '../../support/test-app.js';
import { invoiceClassificationSchema as schema } from '../../support/invoice-fixtures.js';
import { until } from '../../support/operations.js';

describe('usage events through the outbox', () => {
  const sink = new RecordingSink();
  let t: TestApp;
  let files: FileServer;
  let threePages: string;

  beforeAll(async () => {
    files = await startFileServer();
    t = await startAppWithSink(sink, {
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      OUTBOX_RELAY_INTERVAL_MS: '50',
    });
    threePages = files.put('/three.txt', 'invoice number 1\fpage two\fpage three');
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it('emits exactly one event per billable request, sync without metadata, async with it', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-usage'));
    const sync = await api.post('/classify', { input: threePages, classification_schema: schema });
    expect(sync.body.usage).toEqual({ num_pages: 3, num_categories: 1, credits: 1.5 });
    const deep = await api.post('/classify_async', {
      input: threePages,
      model: 'accurate',
      classification_schema: schema,
      async: { metadata: { team: 'risk', batch: 7 } },
    });
    const scalarMeta = await api.post('/classify_async', {
      input: threePages,
      async: { metadata: 'not-an-object' },
    });
    const failed = await api.post('/classify_async', { input: `${files.baseUrl}/missing.txt` });
    await waitForJob(api, deep.body.job_id);
    await waitForJob(api, scalarMeta.body.job_id);
    expect((await waitForJob(api, failed.body.job_id)).status).toBe('Failed');
    // Every job has finished, so every event it will ever write is in the outbox: once the
    // outbox has nothing unsent, nothing more (a duplicate, an event for the failed job) can
    // reach the sink, and the counts below are final.
    const outbox = t.app.get(UsageOutboxRepository);
    await until(
      async () => sink.events.length >= 3 && (await outbox.backlog()) === 0,
      'three usage events at the sink and nothing left in the outbox',
      60_000,
    );

    const byJob = new Map(sink.events.map((e) => [e.data.jobId, e]));
    expect(sink.events).toHaveLength(3);
    expect(byJob.has(failed.body.job_id)).toBe(false);
    expect(byJob.get(sync.body.job_id)).toMatchObject({
      specversion: '1.0',
      id: `evt_${sync.body.job_id}`,
      source: 'docproc/processing',
      type: 'docproc.usage.v1',
      data: {
        product: 'classify',
        feature: 'classify',
        pages: 3,
        credits: '1.500000',
        async: false,
        metadata: null,
        fileType: 'txt',
      },
    });
    expect(byJob.get(deep.body.job_id)!.data).toMatchObject({
      feature: 'deep_classify',
      credits: '4.500000',
      async: true,
      metadata: { team: 'risk', batch: 7 },
    });
    expect(byJob.get(scalarMeta.body.job_id)!.data).toMatchObject({ async: true, metadata: null });
    const orgs = new Set(sink.events.map((e) => e.data.orgId));
    expect(orgs.size).toBe(1);
  });

  it('keeps events through a sink outage and delivers them once it recovers', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-outage'));
    sink.failing = true;
    const callsBefore = sink.calls;
    const res = await api.post('/classify', { input: threePages, classification_schema: schema });
    expect(res.status).toBe(200);
    await until(() => sink.calls > callsBefore + 1, 'a retried publish', 60_000);
    const db = t.app.get(DuckDbService);
    const pending = await db.all<{ attempts: number; last_error: string }>(
      `SELECT attempts, last_error FROM usage_outbox WHERE job_id = $1 AND sent_at IS NULL`,
      [res.body.job_id],
    );
    expect(pending).toEqual([{ attempts: expect.any(Number), last_error: 'broker unavailable' }]);
    expect(sink.events.some((e) => e.data.jobId === res.body.job_id)).toBe(false);

    sink.failing = false;
    await until(
      () => sink.events.some((e) => e.data.jobId === res.body.job_id),
      'the usage event of the job once the sink recovers',
      40_000,
    );
    // Marked sent right after publish resolved.
    await until(
      async () =>
        (
          await db.all(`SELECT 1 FROM usage_outbox WHERE job_id = $1 AND sent_at IS NOT NULL`, [
            res.body.job_id,
          ])
        ).length === 1,
      'the outbox row marked sent',
      60_000,
    );
    const sent = await db.all(
      `SELECT 1 FROM usage_outbox WHERE job_id = $1 AND sent_at IS NOT NULL`,
      [res.body.job_id],
    );
    expect(sent).toHaveLength(1);
  }, 60_000);
});
