import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { HELD_DOWNLOAD_ENV, type FileServer } from '../../support/file-server.js';
import {
  databaseQueueTasks,
  type NewQueueSetup,
  startNewQueueSetup,
} from '../../support/new-queue.js';
import { client, keyOf } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { negativeWindow, waitFor } from '../../support/wait.js';

jest.setTimeout(300_000);

/** Far beyond the spec's length, so the reserve never lapses under a loaded machine. */
const HOLD_MS = 600_000;
/** Bounds the other organization's sync wait: without the reserve it waits this long, then 504. */
const SYNC_TIMEOUT_MS = 60_000;
/** A held download outlasts that wait, so only its release ends a job of the burst. */
const FETCH_LIMIT_MS = String(4 * SYNC_TIMEOUT_MS);
/**
 * The window after organization A's first job started in which the worker takes every job it
 * may. No event marks a slot the reserve keeps idle, so the window stands in for it.
 */
const CLAIM_WINDOW_MS = 2_000;

const SCHEMA = [
  { category: 'invoice', criteria: ['has an invoice number', 'lists amounts due'] },
  { category: 'letter', criteria: ['addressed to a person, signed by the sender'] },
];

/**
 * The database queue's rule (tenant-fairness.e2e.spec.ts) on the new queue system: real Redis,
 * a real worker process with two cpu slots. Each of A's jobs holds a slot until its held
 * download is released; B's sync classification must answer while all of them still run or
 * wait, and the jobs the worker gave back to Redis meanwhile must all run once released. A
 * burst alone still takes every slot.
 */
describe("new queue: one organization's async burst and another's sync requests", () => {
  let setup: NewQueueSetup;
  let files: FileServer;
  let t: TestApp;

  beforeAll(async () => {
    setup = await startNewQueueSetup('fairness', {
      REDIS_CPU_WORKER_CONCURRENCY: '2',
      WORKER_PRIORITY_RESERVE: '1',
      WORKER_PRIORITY_RESERVE_HOLD_MS: String(HOLD_MS),
      FETCH_TIMEOUT_MS: FETCH_LIMIT_MS,
      FETCH_DEADLINE_MS: FETCH_LIMIT_MS,
    });
    files = setup.files;
    t = await startTestApp({
      ...setup.apiEnv,
      ...HELD_DOWNLOAD_ENV,
      ROLLOUT_RATIO_CLASSIFY: '1',
      SYNC_TIMEOUT_MS: String(SYNC_TIMEOUT_MS),
      // The reconciler (which would re-add jobs it finds waiting long) stays out of the way.
      REDIS_RECONCILE_INTERVAL_MS: '3600000',
    });
  });
  afterAll(async () => {
    await t?.close();
    await setup?.close();
  });

  async function burst(org: ReturnType<typeof client>, name: string, jobs: number) {
    const held = Array.from({ length: jobs }, (_, i) =>
      files.hold(`/${name}-${i}.txt`, `Invoice number ${i}. Total amount due: 10.00`),
    );
    const ids: string[] = [];
    for (const h of held) {
      const res = await org.post('/classify_async', {
        input: h.url,
        classification_schema: SCHEMA,
      });
      expect(res.status).toBe(200);
      ids.push(res.body.job_id as string);
    }
    // On Redis, not in the database queue.
    for (const id of ids) expect(await databaseQueueTasks(t.app.get(DuckDbService), id)).toBe(0);
    const started = () => files.requests.filter((r) => r.startsWith(`/${name}-`)).length;
    return { held, ids, started };
  }

  async function waitCompleted(org: ReturnType<typeof client>, ids: string[]) {
    for (const id of ids) {
      await waitFor(`job ${id} to complete`, async () => {
        const status = (await org.get(`/job/${id}`)).body.status;
        expect(status).not.toBe('Failed');
        return status === 'Completed';
      });
    }
  }

  it('lets a burst alone take every cpu slot', async () => {
    const a = client(t.baseUrl, await keyOf(t, 'org-burst'));
    const { held, ids, started } = await burst(a, 'alone', 3);
    await waitFor('two of the burst running at once', () => started() >= 2);
    for (const h of held) h.release();
    await waitCompleted(a, ids);
  });

  it("answers the other organization's sync request while the burst's jobs still run", async () => {
    const a = client(t.baseUrl, await keyOf(t, 'org-burst'));
    const b = client(t.baseUrl, await keyOf(t, 'org-sync'));
    const document = files.put('/b.txt', 'Invoice number 77. Total amount due: 120.00');
    // B is a sync user: its requests are what the reserve is kept for.
    expect(
      (await b.post('/classify', { input: document, classification_schema: SCHEMA })).status,
    ).toBe(200);

    const { held, ids, started } = await burst(a, 'beside', 3);
    await waitFor("the burst's first job running", () => started() >= 1);
    await negativeWindow(CLAIM_WINDOW_MS);

    const answer = await b.post('/classify', { input: document, classification_schema: SCHEMA });
    expect(answer.status).toBe(200);
    // None of A's jobs could end meanwhile: their downloads are still held.
    for (const id of ids) expect((await a.get(`/job/${id}`)).body.status).toBe('Pending');

    // Jobs given back to Redis are not lost: every one runs once released.
    for (const h of held) h.release();
    await waitCompleted(a, ids);
  });
});
