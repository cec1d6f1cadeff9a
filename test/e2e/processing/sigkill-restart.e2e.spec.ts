import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { seedAccount } from '../../support/accounts.js';
import { buildDist } from '../../support/child-app.js';
import { startServerProcess } from '../../support/server-process.mjs';
import { FileServer, startFileServer, HELD_DOWNLOAD_ENV } from '../../support/file-server.js';
import { client, waitForJob } from '../../support/processing-client.js';
import { startTestApp } from '../../support/test-app.js';

/**
 * The restart check with a real crash: the compiled server runs as a child process,
 * accepts jobs, is SIGKILLed mid-queue (one job mid-run), and a new process on the same
 * data directory completes every one of them, billing each exactly once.
 */
jest.setTimeout(240_000);

describe('restart after SIGKILL', () => {
  let files: FileServer;
  let mainJs: string;
  beforeAll(async () => {
    files = await startFileServer();
    mainJs = path.join(await buildDist('processing-e2e'), 'src', 'main.js');
  });
  afterAll(async () => {
    await files.close();
  });

  it('completes every job accepted before the crash', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-sigkill-'));
    const env = {
      CPU_WORKER_CONCURRENCY: '1',
      ...HELD_DOWNLOAD_ENV,
    };
    try {
      // Seed a processing key while no server holds the DuckDB file.
      const seeding = await startTestApp({ ...env, DATA_DIR: dataDir });
      const key = (await seedAccount(seeding.app, 'Crashy')).processingKey;
      await seeding.app.close();

      const server = await startServerProcess(mainJs, dataDir, env);
      await server.healthy(60_000);
      const api = client(server.baseUrl, key);
      const blocker = files.hold('/kill-blocker.txt', 'invoice number');
      const ids = [
        (await api.post('/classify_async', { input: blocker.url, async: { metadata: { n: 0 } } }))
          .body.job_id,
      ];
      const doc = files.put('/kill-doc.txt', 'invoice number');
      for (let i = 1; i <= 20; i++) {
        const res = await api.post('/classify_async', {
          input: doc,
          async: { metadata: { n: i } },
        });
        expect(res.status).toBe(200);
        ids.push(res.body.job_id);
      }
      expect((await api.get(`/job/${ids[20]}`)).body.status).toBe('Pending');
      server.child.kill('SIGKILL');
      await new Promise((r) => server.child.once('exit', r));
      blocker.release();

      const t = await startTestApp({ ...env, DATA_DIR: dataDir });
      try {
        const api2 = client(t.baseUrl, key);
        for (const id of ids) expect((await waitForJob(api2, id, 60_000)).status).toBe('Completed');
        const rows = await t.app
          .get(DuckDbService)
          .all<{ n: bigint; jobs: bigint }>(
            `SELECT count(*) AS n, count(DISTINCT job_id) AS jobs FROM usage_outbox`,
          );
        expect([Number(rows[0].n), Number(rows[0].jobs)]).toEqual([21, 21]);
      } finally {
        await t.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
