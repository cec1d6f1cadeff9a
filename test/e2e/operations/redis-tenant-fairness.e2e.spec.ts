import { afterAll, beforeAll, describe, expect, jest } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { HELD_DOWNLOAD_ENV, type FileServer } from '../../support/file-server.js';
import {
  databaseQueueTasks,
  type NewQueueSetup,
  startNewQueueSetup,
} from '../../support/new-queue.js';
import {
  FETCH_LIMIT_MS,
  RESERVE_HOLD_MS,
  SYNC_TIMEOUT_MS,
  tenantFairnessCases,
} from '../../support/tenant-fairness.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

jest.setTimeout(300_000);

/**
 * The database queue's rule (tenant-fairness.e2e.spec.ts) on the new queue system: real Redis,
 * a real worker process with two cpu slots; the jobs it gives back to Redis while the reserve
 * holds must all run once released.
 */
describe("new queue: one organization's async burst and another's sync requests", () => {
  let setup: NewQueueSetup;
  let files: FileServer;
  let t: TestApp;

  beforeAll(async () => {
    setup = await startNewQueueSetup('fairness', {
      REDIS_CPU_WORKER_CONCURRENCY: '2',
      WORKER_PRIORITY_RESERVE: '1',
      WORKER_PRIORITY_RESERVE_HOLD_MS: String(RESERVE_HOLD_MS),
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

  tenantFairnessCases({
    app: () => t,
    files: () => files,
    async queuedWhereExpected(jobIds) {
      // On Redis, not in the database queue.
      const db = t.app.get(DuckDbService);
      for (const id of jobIds) expect(await databaseQueueTasks(db, id)).toBe(0);
    },
  });
});
