import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import type { FileServer } from '../../support/file-server.js';
import { type NewQueueSetup, startNewQueueSetup } from '../../support/new-queue.js';
import { until } from '../../support/operations.js';
import { burst, client, keyOf } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { invoiceClassificationSchema as schema } from '../../support/invoice-fixtures.js';

// On a loaded 2-core machine depth reads can pass 1 s, the cap then fails open (as the spec
// says) and hundreds of sync requests queue: give them time.
jest.setTimeout(600_000);

const REQUESTS = 2000;

/**
 * 2,000 concurrent sync requests against a capped deployment whose traffic is split
 * between the database queue and the new queue (ratio 0.5): only 200 or 503 QUEUE_FULL,
 * every accepted request completed and billed once, queues back to 0.
 */
describe('capped deployment under load', () => {
  let setup: NewQueueSetup;
  let files: FileServer;
  let t: TestApp;

  beforeAll(async () => {
    setup = await startNewQueueSetup('load');
    files = setup.files;
    t = await startTestApp({
      ...setup.apiEnv,
      ROLLOUT_RATIO_CLASSIFY: '0.5',
      CPU_WORKER_CONCURRENCY: '2',
      CPU_MAX_QUEUE_DEPTH: '40',
      OUTBOX_RELAY_INTERVAL_MS: '100',
    });
  });
  afterAll(async () => {
    await t?.close();
    await setup?.close();
  });

  it('answers only 200 or 503 QUEUE_FULL and loses nothing it accepted', async () => {
    const doc = files.put('/load.txt', 'invoice number 99');
    const key = await keyOf(t, 'org-load');
    const results = await burst(
      t.baseUrl,
      key,
      '/classify',
      { input: doc, classification_schema: schema },
      REQUESTS,
      { connections: 512, headersTimeout: 200_000, bodyTimeout: 200_000 },
    );
    const statuses = new Map<number, number>();
    for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    expect([...statuses.keys()].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    const refused = results.filter((r) => r.status === 503);
    for (const r of refused) {
      expect(r.body.error.code).toBe('QUEUE_FULL');
      expect(r.retryAfter).toBe('30');
    }
    const accepted = results.filter((r) => r.status === 200);
    expect(accepted.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of accepted) expect(r.body.result.category).toBe('invoice');

    const api = client(t.baseUrl, key);
    await until(
      async () => {
        const m = (await api.get('/queue_metrics')).body;
        return m.queue_cpu_active_queue_length === 0 && m.queue_io_active_queue_length === 0;
      },
      'queue metrics back to 0',
      120_000,
    );
    const db = t.app.get(DuckDbService);
    const count = async (sql: string) => Number((await db.all<{ n: bigint }>(sql))[0].n);
    // Every accepted request is a completed job with exactly one usage event; refused ones left nothing.
    expect(await count(`SELECT count(*) AS n FROM processing_jobs`)).toBe(accepted.length);
    expect(
      await count(`SELECT count(*) AS n FROM processing_jobs WHERE status = 'completed'`),
    ).toBe(accepted.length);
    expect(await count(`SELECT count(*) AS n FROM usage_outbox`)).toBe(accepted.length);
    expect(await count(`SELECT count(*) AS n FROM redis_dispatches`)).toBe(0);
    // Both queue systems took part.
    const viaRedis =
      accepted.length -
      (await count(`SELECT count(*) AS n FROM processing_jobs WHERE attempts = 0`));
    expect(viaRedis).toBeGreaterThan(0);
    process.stdout.write(
      `capped load: ${accepted.length} accepted, ${refused.length} refused (503 QUEUE_FULL)\n`,
    );
  });
});
