import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Worker } from 'bullmq';
import type { AppConfig } from '../../src/config/app-config.js';
import type { RedisQueueConfig } from '../../src/config/operations.config.js';
import type { JobOutcomeRecorder } from '../../src/processing/jobs/job-outcome.recorder.js';
import type { JobRunner } from '../../src/processing/jobs/job-runner.service.js';
import type { JobsRepository } from '../../src/processing/jobs/jobs.repository.js';
import { BullQueueDriver } from '../../src/processing/queue/redis/bull-queue.driver.js';
import { redisConnection } from '../../src/processing/queue/redis/redis-connection.js';
import type {
  Dispatch,
  RedisDispatchRepository,
} from '../../src/processing/queue/redis/redis-dispatch.repository.js';
import { RedisQueueClient } from '../../src/processing/queue/redis/redis-queue.client.js';
import {
  LANE_PRIORITY,
  revokedKey,
  type RedisJobTask,
} from '../../src/processing/queue/redis/redis-queue.types.js';
import { RedisResultsConsumer } from '../../src/processing/jobs/redis-results.consumer.js';
import { REDIS_JOB_COMMANDS } from '../../src/processing/queue/redis/redis-job.command.js';
import { testRedisUrl } from '../support/redis.js';
import { waitFor } from '../support/wait.js';

const task: RedisJobTask = {
  jobId: 'job-1',
  orgId: 'org_1',
  operation: 'parse',
  kind: 'operation',
  inputs: [{ url: 'https://files.test/a.pdf' }],
  request: { input: 'https://files.test/a.pdf' },
  versions: {},
};
const lost: Dispatch = {
  jobId: task.jobId,
  queue: 'cpu',
  bullJobId: 'parse-job-1',
  lane: 'priority',
  payload: task,
  dispatchedAt: new Date(0),
};

/**
 * The results consumer's reconciler against a real Redis: a dispatch whose BullMQ job Redis
 * lost goes back through the queue port (BullQueueDriver), as the first dispatch did, and a
 * worker process's driver runs it. The dispatch store and job recording are fakes: what is
 * under test is the way back to Redis.
 */
describe('re-dispatch of a job Redis lost', () => {
  let client: RedisQueueClient;
  let consumer: RedisResultsConsumer;
  let markStarted: jest.Mock<(jobId: string) => Promise<boolean>>;

  beforeEach(() => {
    const prefix = `docproc-redispatch-${randomUUID()}`;
    client = new RedisQueueClient({
      url: testRedisUrl(),
      prefix,
      enqueueTimeoutMs: 5000,
    } as RedisQueueConfig);
    markStarted = jest.fn(async (_jobId: string) => true);
    consumer = new RedisResultsConsumer(
      { processing: { jobMaxAttempts: 3 } } as AppConfig,
      client,
      new BullQueueDriver(client),
      { markStarted } as unknown as JobsRepository,
      {} as JobRunner,
      {} as JobOutcomeRecorder,
      { older: async () => [lost] } as unknown as RedisDispatchRepository,
    );
  });

  afterEach(async () => {
    await client.get('cpu').obliterate({ force: true });
    await client.close();
  });

  it('adds the stored task again under its own id, lane priority and attempts', async () => {
    expect((await client.jobState('cpu', lost.bullJobId)).state).toBe('unknown');
    await consumer.reconcile(0);
    const job = await client.get('cpu').getJob(lost.bullJobId);
    expect(job).toBeDefined();
    expect(job!.name).toBe('parse');
    expect(job!.data).toEqual(task);
    expect(job!.opts).toMatchObject({ priority: LANE_PRIORITY.priority, attempts: 3 });
    // Still waiting at the next pass: neither added twice nor taken for running.
    await consumer.reconcile(0);
    expect(await client.get('cpu').getJobCounts('prioritized', 'waiting')).toMatchObject({
      prioritized: 1,
    });
    expect(markStarted).not.toHaveBeenCalled();
  });

  it('is run by a worker even after an earlier re-dispatch of it was given up on', async () => {
    // What a timed-out add leaves behind: its id revoked, so a late landing never runs.
    await client.connection.set(revokedKey(client.config.prefix, lost.bullJobId), '1');
    await consumer.reconcile(0);

    const workerDriver = new BullQueueDriver(client);
    const ran: string[] = [];
    workerDriver.work(REDIS_JOB_COMMANDS.parse, async (work) => {
      ran.push(work.payload.jobId);
    });
    const connection = redisConnection(client.config.url, true);
    const worker = new Worker('cpu', (job) => workerDriver.take('cpu', job), {
      connection,
      prefix: client.config.prefix,
    });
    try {
      await waitFor('the worker to run the re-dispatched job', () => ran.length > 0, 60_000);
      expect(ran).toEqual([task.jobId]);
    } finally {
      await worker.close();
      connection.disconnect();
    }
  });
});
