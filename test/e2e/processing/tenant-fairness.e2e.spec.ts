import { afterAll, beforeAll, describe, jest } from '@jest/globals';
import { FileServer, HELD_DOWNLOAD_ENV, startFileServer } from '../../support/file-server.js';
import {
  FETCH_LIMIT_MS,
  RESERVE_HOLD_MS,
  SYNC_TIMEOUT_MS,
  tenantFairnessCases,
} from '../../support/tenant-fairness.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

jest.setTimeout(300_000);

/** The database queue's two cpu loops, one kept for priority work while it arrives. */
describe("one organization's async burst and another's sync requests", () => {
  let t: TestApp;
  let files: FileServer;

  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp({
      ...HELD_DOWNLOAD_ENV,
      CPU_WORKER_CONCURRENCY: '2',
      WORKER_PRIORITY_RESERVE: '1',
      WORKER_PRIORITY_RESERVE_HOLD_MS: String(RESERVE_HOLD_MS),
      SYNC_TIMEOUT_MS: String(SYNC_TIMEOUT_MS),
      FETCH_TIMEOUT_MS: FETCH_LIMIT_MS,
      FETCH_DEADLINE_MS: FETCH_LIMIT_MS,
    });
  });
  afterAll(async () => {
    await t?.close();
    await files.close();
  });

  tenantFairnessCases({ app: () => t, files: () => files });
});
