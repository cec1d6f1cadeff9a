import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { ALL_ROLLOUT_KEYS, rolloutEnvName } from '../../../src/config/rollout-keys.js';
import { runPreflight } from '../../../src/operations/preflight/preflight.js';
import { checkDisableLegacy } from '../../../src/operations/upgrade/legacy-disable.check.js';
import { HELD_DOWNLOAD_ENV, type FileServer } from '../../support/file-server.js';
import {
  databaseQueueTasks,
  type NewQueueSetup,
  startNewQueueSetup,
} from '../../support/new-queue.js';
import { type PrivateRedis, runAdmin, startPrivateRedis, until } from '../../support/operations.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { testRedisUrl } from '../../support/redis.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { invoiceClassificationSchema as schema } from '../../support/invoice-fixtures.js';

jest.setTimeout(120_000);

const ALL_ONE = Object.fromEntries(ALL_ROLLOUT_KEYS.map((k) => [rolloutEnvName(k), '1']));

/**
 * The self-hosted upgrade on real Redis and a real worker process: ratios 0 -> 1, legacy
 * work drains, `drained` flips, disabling the legacy workers is refused before and allowed
 * after; preflight passes with the pool up and fails without Redis or without workers.
 */
describe('upgrade to the new queue system', () => {
  let setup: NewQueueSetup;
  let files: FileServer;
  let prefix: string;
  let base: Record<string, string>;

  beforeAll(async () => {
    setup = await startNewQueueSetup('migration');
    ({ files, prefix } = setup);
    base = {
      ...setup.apiEnv,
      CPU_WORKER_CONCURRENCY: '1',
      WORKER_SHUTDOWN_GRACE_MS: '100',
      QUEUE_POLL_INTERVAL_MS: '50',
      REDIS_RECONCILE_INTERVAL_MS: '60000',
      ...HELD_DOWNLOAD_ENV,
    };
  });
  afterAll(async () => {
    await setup?.close();
  });

  it('moves traffic from the database queue to the new queue without losing work', async () => {
    const slow = files.hold('/slow.txt', 'invoice number 1');
    const fast = files.put('/fast.txt', 'invoice number 2');

    // Step 1: legacy only (every ratio 0). Work sits in the database queue.
    let t: TestApp = await startTestApp(base);
    let api = client(t.baseUrl, await keyOf(t, 'org-upgrade'));
    const legacyJobs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.post('/classify_async', {
        input: slow.url,
        classification_schema: schema,
      });
      legacyJobs.push(res.body.job_id);
    }
    expect((await api.get('/rollout')).body.ratios.classify).toBe(0);
    expect((await api.get('/drain_status')).body).toEqual({
      drained: false,
      legacy_active_tasks: 3,
    });
    const before = await checkDisableLegacy(t.baseUrl);
    expect(before.allowed).toBe(false);
    expect(before.reasons.join(' ')).toMatch(/ROLLOUT_RATIO_CLASSIFY=0/);
    expect(before.reasons.join(' ')).toMatch(/not drained/);
    const cli = await runAdmin(['upgrade', 'check-disable-legacy', '--url', t.baseUrl], {});
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/refused/);
    await t.close();

    // Step 2: a separate deploy with every ratio 1.0, legacy workers still on.
    t = await startTestApp({ ...base, ...ALL_ONE });
    api = client(t.baseUrl, await keyOf(t, 'org-upgrade'));
    const rollout = (await api.get('/rollout')).body;
    expect(rollout.all_ratios_one).toBe(true);
    const sync = await api.post('/classify', { input: fast, classification_schema: schema });
    expect(sync.status).toBe(200);
    expect(sync.body.result.category).toBe('invoice');
    const viaRedis = await api.post('/classify_async', {
      input: fast,
      classification_schema: schema,
    });
    const db = t.app.get(DuckDbService);
    // Routed to Redis: no database-queue row, and the job completes through the worker.
    expect(await databaseQueueTasks(db, viaRedis.body.job_id)).toBe(0);
    expect((await waitForJob(api, viaRedis.body.job_id)).status).toBe('Completed');
    expect((await api.get('/drain_status')).body.drained).toBe(false);
    const during = await checkDisableLegacy(t.baseUrl);
    expect(during.allowed).toBe(false);
    expect(during.reasons).toHaveLength(1);
    expect(during.reasons[0]).toMatch(/not drained/);

    // The legacy work drains (the held input is released).
    slow.release();
    for (const jobId of legacyJobs)
      expect((await waitForJob(api, jobId, 30_000)).status).toBe('Completed');
    await until(async () => (await api.get('/drain_status')).body.drained === true, 'drained');
    const after = await checkDisableLegacy(t.baseUrl);
    expect(after).toMatchObject({ allowed: true, reasons: [], drained: true });
    const cliOk = await runAdmin(['upgrade', 'check-disable-legacy', '--url', t.baseUrl], {});
    expect(cliOk.code).toBe(0);
    expect(JSON.parse(cliOk.stdout)).toMatchObject({ allowed: true });
    const usage = await db.all<{ n: bigint }>(`SELECT count(*) AS n FROM usage_outbox`);
    expect(Number(usage[0].n)).toBe(5);
    await t.close();

    // Step 3: the worker-disable deploy starts; traffic keeps flowing through Redis.
    const disabled = {
      WORKER_ENABLED: 'false',
      WORKER_PRIORITY_COUNT: '0',
      GPU_WORKER_ENABLED: 'false',
    };
    t = await startTestApp({ ...base, ...ALL_ONE, ...disabled });
    api = client(t.baseUrl, await keyOf(t, 'org-upgrade'));
    expect((await api.get('/rollout')).body.legacy_workers.enabled).toBe(false);
    const late = await api.post('/classify', { input: fast, classification_schema: schema });
    expect(late.status).toBe(200);
    await t.close();

    // Rollback is re-enabling the legacy workers and restoring the ratios: always allowed.
    t = await startTestApp(base);
    expect((await client(t.baseUrl, 'x').get('/rollout')).body.legacy_workers.enabled).toBe(true);
    await t.close();

    // Disabling while ratios are below 1.0 is refused at start-up.
    await expect(startTestApp({ ...base, ...disabled })).rejects.toThrow(
      /refusing to start with the legacy workers disabled.*ROLLOUT_RATIO/,
    );
  });

  it('preflight sends ping tasks through io and cpu and passes with the pool up', async () => {
    const report = await runPreflight({ REDIS_URL: testRedisUrl(), REDIS_QUEUE_PREFIX: prefix });
    expect(report.reasons).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.name)).toEqual([
      'configuration',
      'store',
      'workers',
      'ping io',
      'ping cpu',
    ]);
    const cli = await runAdmin(['preflight'], {
      REDIS_URL: testRedisUrl(),
      REDIS_QUEUE_PREFIX: prefix,
    });
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: true });
  });

  it('preflight fails when Redis is stopped, a worker is missing or configuration is incomplete', async () => {
    const redis: PrivateRedis = await startPrivateRedis();
    const url = redis.url;
    await redis.stop();
    const stopped = await runAdmin(['preflight'], {
      REDIS_URL: url,
      PREFLIGHT_WORKER_HEALTH_SEC: '1',
    });
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(/preflight failed: store: Redis unreachable/);

    const noWorkers = await runPreflight({
      REDIS_URL: testRedisUrl(),
      REDIS_QUEUE_PREFIX: `${prefix}-nobody`,
      PREFLIGHT_WORKER_HEALTH_SEC: '1',
    });
    expect(noWorkers.ok).toBe(false);
    expect(noWorkers.reasons).toEqual(['workers: no worker serves queue(s) cpu, io']);

    const unconfigured = await runPreflight({});
    expect(unconfigured.reasons[0]).toMatch(/configuration: REDIS_URL is not set/);
  });
});
