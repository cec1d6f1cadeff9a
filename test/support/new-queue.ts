import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDbService } from '../../src/database/duckdb.service.js';
import { type FileServer, startFileServer } from './file-server.js';
import { type ChildRun, startWorkerProcess } from './operations.js';
import { testRedisUrl } from './redis.js';

/**
 * What a spec of the new queue system needs around its API process: a private data dir and
 * queue prefix on the test Redis, a file server for inputs and one worker process
 * (`src/worker.ts`, given `workerEnv` besides). `apiEnv` is the API process's share of the
 * settings; add the spec's own.
 */
export interface NewQueueSetup {
  dataDir: string;
  prefix: string;
  files: FileServer;
  worker: ChildRun;
  apiEnv: Record<string, string>;
  close(): Promise<void>;
}

export async function startNewQueueSetup(
  name: string,
  workerEnv: Record<string, string> = {},
): Promise<NewQueueSetup> {
  const prefix = `docproc-${name}-${randomUUID()}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `docproc-${name}-`));
  const files = await startFileServer();
  const shared = {
    REDIS_URL: testRedisUrl(),
    REDIS_QUEUE_PREFIX: prefix,
    DATA_DIR: dataDir,
    FETCH_ALLOW_HOSTS: '127.0.0.1',
  };
  const worker = await startWorkerProcess({
    ...workerEnv,
    ...shared,
    WORKER_STATE_FILE: path.join(dataDir, 'worker-state'),
  });
  return {
    dataDir,
    prefix,
    files,
    worker,
    apiEnv: { ...shared, WORKER_STATE_FILE: path.join(dataDir, 'api-worker-state') },
    async close() {
      await worker.stop();
      await files.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The database-queue tasks the API process holds for a job: none for one the new queue runs. */
export async function databaseQueueTasks(db: DuckDbService, jobId: string): Promise<number> {
  const rows = await db.all<{ n: bigint }>(
    `SELECT count(*) AS n FROM queue_tasks WHERE payload->>'jobId' = $1`,
    [jobId],
  );
  return Number(rows[0].n);
}

/** The data of the usage events the API process recorded for a job, from its outbox. */
export async function usageEventsOf(
  db: DuckDbService,
  jobId: string,
): Promise<Record<string, unknown>[]> {
  const rows = await db.all<{ event: string }>(
    `SELECT CAST(event AS VARCHAR) AS event FROM usage_outbox WHERE job_id = $1`,
    [jobId],
  );
  return rows.map((row) => (JSON.parse(row.event) as { data: Record<string, unknown> }).data);
}
