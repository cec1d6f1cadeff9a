import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { FileServer, startFileServer, HELD_DOWNLOAD_ENV } from '../../support/file-server.js';
import { until } from '../../support/operations.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { negativeWindow } from '../../support/wait.js';
import {
  invoiceClassificationSchema as schema,
  invoiceExtractSchema as extractSchema,
  invoiceSplitDescription as splitDescription,
} from '../../support/invoice-fixtures.js';

/**
 * The database-queue worker kinds on the real app: the priority worker takes only
 * priority-lane work, the gpu worker only deep work (Deep Classify, deep extract, deep
 * split), and while a gpu worker is configured the others leave deep work to it. A task
 * nobody may take stays `queued` in the database queue (its input is never fetched).
 */
describe('database-queue worker kinds', () => {
  let files: FileServer;
  let t: TestApp | undefined;

  beforeAll(async () => {
    files = await startFileServer();
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  afterAll(async () => {
    await files.close();
  });

  async function start(env: Record<string, string>) {
    t = await startTestApp({
      ...HELD_DOWNLOAD_ENV,
      QUEUE_POLL_INTERVAL_MS: '50',
      WORKER_SHUTDOWN_GRACE_MS: '100',
      ...env,
    });
    const app = t;
    const api = client(app.baseUrl, await keyOf(app, 'org-kinds'));
    const db = app.app.get(DuckDbService);
    /** The database-queue state of a job's task (`queued`, `running`), null once done. */
    const taskState = async (jobId: string): Promise<string | null> => {
      const rows = await db.all<{ state: string }>(
        `SELECT state FROM queue_tasks WHERE payload->>'jobId' = $1`,
        [jobId],
      );
      return rows[0]?.state ?? null;
    };
    const submit = async (path: string, body: Record<string, unknown>): Promise<string> => {
      const res = await api.post(path, body);
      expect(res.status).toBe(200);
      return res.body.job_id as string;
    };
    const classify = (input: string, options: { accurate?: boolean; priority?: boolean } = {}) =>
      submit('/classify_async', {
        input,
        classification_schema: schema,
        model: options.accurate ? 'accurate' : 'default',
        async: { priority: options.priority ?? false },
      });
    const fetched = (url: string) => files.requests.includes(new URL(url).pathname);
    return { api, taskState, submit, classify, fetched };
  }

  /**
   * A deliberate negative window: what is checked after it is that an idle loop did NOT take
   * a task. No later event can stand in for "every loop has looked again": loops claim by
   * lane and FIFO, so a barrier job of their own would be taken first, and the queue shows no
   * poll count. 600 ms is twelve 50 ms polls.
   */
  const settle = () => negativeWindow(600);

  it('priority worker: priority lane only; gpu worker: deep work only, in either lane', async () => {
    const { api, taskState, classify, fetched } = await start({
      WORKER_ENABLED: 'false',
      WORKER_PRIORITY_COUNT: '1',
      GPU_WORKER_ENABLED: 'true',
      GPU_WORKER_CONCURRENCY: '1',
    });
    // The one gpu loop is kept busy by a deep job whose input is held.
    const held = files.hold('/kinds-1/held.txt', 'invoice number 1');
    const busy = await classify(held.url, { accurate: true });
    await until(() => fetched(held.url), 'the gpu worker to take the deep job');

    const priorityDefault = await classify(files.put('/kinds-1/p.txt', 'invoice number 2'), {
      priority: true,
    });
    const priorityDeepDoc = files.put('/kinds-1/pd.txt', 'invoice number 3');
    const priorityDeep = await classify(priorityDeepDoc, { accurate: true, priority: true });
    const standardDoc = files.put('/kinds-1/s.txt', 'invoice number 4');
    const standardDefault = await classify(standardDoc);

    expect((await waitForJob(api, priorityDefault)).status).toBe('Completed');
    await settle();
    // The idle priority worker leaves deep work to the gpu worker and the standard lane alone.
    expect(await taskState(priorityDeep)).toBe('queued');
    expect(fetched(priorityDeepDoc)).toBe(false);
    expect(await taskState(standardDefault)).toBe('queued');
    // The gpu worker will take the deep job; no worker kind here takes the standard one.
    expect((await api.get(`/job/${priorityDeep}`)).body.status).toBe('Pending');
    expect((await api.get(`/job/${standardDefault}`)).body.status).toBe('Idle');

    held.release();
    expect((await waitForJob(api, busy)).status).toBe('Completed');
    expect((await waitForJob(api, priorityDeep)).status).toBe('Completed');
    await settle();
    // Standard, non-deep work is the worker kind's, which is off: the gpu worker leaves it.
    expect(await taskState(standardDefault)).toBe('queued');
    expect(fetched(standardDoc)).toBe(false);
    expect((await api.get(`/job/${standardDefault}`)).body.status).toBe('Idle');
  });

  it('worker: leaves deep classify, extract and split to a configured gpu worker', async () => {
    const { api, taskState, submit, classify, fetched } = await start({
      WORKER_ENABLED: 'true',
      CPU_WORKER_CONCURRENCY: '1',
      GPU_WORKER_ENABLED: 'true',
      GPU_WORKER_CONCURRENCY: '1',
    });
    const held = files.hold('/kinds-2/held.txt', 'Invoice number INV-1');
    const busy = await submit('/extract_async', {
      input: held.url,
      instructions: { schema: extractSchema },
      settings: { deep_extract: true },
    });
    await until(() => fetched(held.url), 'the gpu worker to take the deep extract');

    const deepDocs = ['/kinds-2/c.txt', '/kinds-2/s.txt'].map((p) =>
      files.put(p, 'Invoice number INV-2'),
    );
    const deepClassify = await classify(deepDocs[0], { accurate: true });
    const deepSplit = await submit('/split_async', {
      input: deepDocs[1],
      split_description: splitDescription,
      settings: { deep_split: true },
    });
    const plainExtract = await submit('/extract_async', {
      input: files.put('/kinds-2/e.txt', 'Invoice number INV-3'),
      instructions: { schema: extractSchema },
    });
    const plainClassify = await classify(files.put('/kinds-2/d.txt', 'invoice number 4'));

    expect((await waitForJob(api, plainExtract)).status).toBe('Completed');
    expect((await waitForJob(api, plainClassify)).status).toBe('Completed');
    await settle();
    for (const jobId of [deepClassify, deepSplit]) expect(await taskState(jobId)).toBe('queued');
    expect(deepDocs.filter(fetched)).toEqual([]);

    held.release();
    for (const jobId of [busy, deepClassify, deepSplit])
      expect((await waitForJob(api, jobId)).status).toBe('Completed');
  });

  it('without a gpu worker, the worker and priority worker take deep work as before', async () => {
    const { api, classify } = await start({
      WORKER_ENABLED: 'false',
      WORKER_PRIORITY_COUNT: '1',
    });
    const deep = await classify(files.put('/kinds-3/pd.txt', 'invoice number 5'), {
      accurate: true,
      priority: true,
    });
    expect((await waitForJob(api, deep)).status).toBe('Completed');
    await t!.close();
    t = undefined;

    const second = await start({ CPU_WORKER_CONCURRENCY: '1' });
    const standardDeep = await second.classify(files.put('/kinds-3/d.txt', 'invoice number 6'), {
      accurate: true,
    });
    expect((await waitForJob(second.api, standardDeep)).status).toBe('Completed');
  });
});
