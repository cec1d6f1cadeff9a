import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { ALL_ROLLOUT_KEYS, rolloutEnvName } from '../../../src/config/rollout-keys.js';
import { RedisResultsConsumer } from '../../../src/processing/jobs/redis-results.consumer.js';
import type { FileServer } from '../../support/file-server.js';
import {
  databaseQueueTasks,
  type NewQueueSetup,
  startNewQueueSetup,
  usageEventsOf,
} from '../../support/new-queue.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import {
  invoiceExtractSchema as extractSchema,
  invoiceSplitDescription as splitDescription,
} from '../../support/invoice-fixtures.js';

jest.setTimeout(120_000);

const ALL_ONE = Object.fromEntries(ALL_ROLLOUT_KEYS.map((k) => [rolloutEnvName(k), '1']));
const LEGACY_OFF = {
  WORKER_ENABLED: 'false',
  WORKER_PRIORITY_COUNT: '0',
  GPU_WORKER_ENABLED: 'false',
};

/**
 * Parse, extract and split on the new queue system, end to end: every ratio 1.0 and the
 * legacy workers off, so only the worker process (real Redis, no DuckDB) can run them. The
 * API process records each outcome with the legacy finishing code: one usage event per
 * completed job (none for a failed one), and a duplicate result changes nothing.
 */
describe('parse, extract and split on the new queue system', () => {
  let setup: NewQueueSetup;
  let files: FileServer;
  let t: TestApp;

  beforeAll(async () => {
    setup = await startNewQueueSetup('redis-ops');
    files = setup.files;
    t = await startTestApp({ ...setup.apiEnv, ...ALL_ONE, ...LEGACY_OFF });
  });
  afterAll(async () => {
    await t?.close();
    await setup?.close();
  });

  it('runs sync and async parse, extract and split through the worker process', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-redis-ops'));
    const db = t.app.get(DuckDbService);
    expect((await api.get('/rollout')).body.legacy_workers.enabled).toBe(false);
    const doc = files.put('/invoice.txt', 'Invoice number 42\nTotal due 10.00');
    const bodies = {
      parse: { input: doc },
      extract: { input: doc, instructions: { schema: extractSchema } },
      split: { input: doc, split_description: splitDescription },
    };
    const expected: { jobId: string; type: string; product: string }[] = [];
    for (const [op, body] of Object.entries(bodies)) {
      const type = op[0].toUpperCase() + op.slice(1);
      const sync = await api.post(`/${op}`, body);
      expect({ op, status: sync.status }).toEqual({ op, status: 200 });
      expect(sync.body.usage.num_pages).toBeGreaterThan(0);
      expect(sync.body.model_versions).toBeDefined();
      expected.push({ jobId: sync.body.job_id as string, type, product: op });

      const submitted = await api.post(`/${op}_async`, body);
      expect(submitted.status).toBe(200);
      const jobId = submitted.body.job_id as string;
      const done = await waitForJob(api, jobId, 60_000);
      expect(done).toMatchObject({ status: 'Completed', type });
      expect(done.result.usage.num_pages).toBeGreaterThan(0);
      expected.push({ jobId, type, product: op });
    }
    // The sync parse's stored result is the worker's parse of the document.
    const parsed = (await api.get(`/job/${expected[0].jobId}`)).body;
    expect(JSON.stringify(parsed.result.result)).toContain('Invoice number 42');

    for (const { jobId, type, product } of expected) {
      // GET /job shows each, and none went through the database queue.
      expect((await api.get(`/job/${jobId}`)).body).toMatchObject({
        job_id: jobId,
        status: 'Completed',
        type,
      });
      expect(await databaseQueueTasks(db, jobId)).toBe(0);
      const events = await usageEventsOf(db, jobId);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ jobId, product });
    }
    const listed = (await api.get('/jobs')).body.jobs as { job_id: string }[];
    expect(listed.map((j) => j.job_id).sort()).toEqual(expected.map((e) => e.jobId).sort());
    const dispatches = await db.all<{ n: bigint }>(`SELECT count(*) AS n FROM redis_dispatches`);
    expect(Number(dispatches[0].n)).toBe(0);

    // A duplicate result (a BullMQ redelivery) is ignored: still one usage event.
    const duplicate = expected[1];
    await t.app.get(RedisResultsConsumer).apply({
      jobId: duplicate.jobId,
      kind: 'operation',
      failure: { code: 'PROCESSING_FAILED', message: 'late duplicate', status: 500 },
    });
    expect((await api.get(`/job/${duplicate.jobId}`)).body.status).toBe('Completed');
    const again = await db.all<{ n: bigint }>(
      `SELECT count(*) AS n FROM usage_outbox WHERE job_id = $1`,
      [duplicate.jobId],
    );
    expect(Number(again[0].n)).toBe(1);
  });

  it('records a failed operation without a usage event', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-redis-ops-fail'));
    const missing = files.put('/exists.txt', 'x').replace('/exists.txt', '/missing.txt');
    const submitted = await api.post('/parse_async', { input: missing });
    expect(submitted.status).toBe(200);
    const jobId = submitted.body.job_id as string;
    const failed = await waitForJob(api, jobId, 60_000);
    expect(failed).toMatchObject({ status: 'Failed', type: 'Parse' });
    expect(files.requests).toContain('/missing.txt');
    const events = await t.app
      .get(DuckDbService)
      .all<{ n: bigint }>(`SELECT count(*) AS n FROM usage_outbox WHERE job_id = $1`, [jobId]);
    expect(Number(events[0].n)).toBe(0);
  });
});
