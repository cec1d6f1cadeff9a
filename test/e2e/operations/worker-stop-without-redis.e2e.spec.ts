import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import {
  type ChildRun,
  exited,
  type PrivateRedis,
  startPrivateRedis,
  startWorkerProcess,
} from '../../support/operations.js';

jest.setTimeout(120_000);

/** Far below the 30 s grace period the worker would wait for tasks in flight. */
const STOP_WITHIN_MS = 15_000;

/**
 * A Redis-queue worker process told to stop (SIGTERM) while its Redis is gone: BullMQ's
 * closes wait for Redis, and the process used to stay up for good. It stops within
 * seconds, saying why.
 */
describe('a worker process stopped while Redis is gone', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-worker-stop-'));
  let redis: PrivateRedis | undefined;
  let worker: ChildRun | undefined;

  afterAll(async () => {
    if (worker && worker.child.exitCode === null && worker.child.signalCode === null) {
      worker.child.kill('SIGKILL');
      await exited(worker.child);
    }
    await redis?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits on SIGTERM within seconds', async () => {
    redis = await startPrivateRedis();
    worker = await startWorkerProcess({
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
      WORKER_STATE_FILE: path.join(dataDir, 'worker-state'),
      TERMINATION_GRACE_PERIOD_SECONDS: '30',
    });
    await redis.restart(); // ended, not brought back

    const stoppedAt = Date.now();
    worker.child.kill('SIGTERM');
    const gone = await Promise.race([
      exited(worker.child).then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), STOP_WITHIN_MS)),
    ]);
    expect(gone).toBe(true);
    expect(Date.now() - stoppedAt).toBeLessThan(STOP_WITHIN_MS);
    expect(worker.output()).toContain('Redis does not answer; stopping without waiting');
  });
});
