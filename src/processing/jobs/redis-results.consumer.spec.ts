import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import type { Transaction } from '../../database/duckdb.service.js';
import type { JobOutcomeRecorder } from './job-outcome.recorder.js';
import type { JobPipeline } from './job-pipeline.js';
import type { JobRunner } from './job-runner.service.js';
import { type JobRecord } from '../core/job.types.js';
import { ProcessingError } from '../core/processing-error.js';
import type { JobsRepository } from './jobs.repository.js';
import { InlineQueueDriver } from '../queue/inline-queue.driver.js';
import type {
  Dispatch,
  RedisDispatchRepository,
} from '../queue/redis/redis-dispatch.repository.js';
import type { RedisQueueClient } from '../queue/redis/redis-queue.client.js';
import type { RedisJobTask } from '../queue/redis/redis-queue.types.js';
import { RedisResultsConsumer } from './redis-results.consumer.js';
import { REDIS_JOB_COMMANDS } from '../queue/redis/redis-job.command.js';

const tx = {} as Transaction;
const task: RedisJobTask = {
  jobId: 'job_1',
  orgId: 'org_1',
  operation: 'split',
  kind: 'operation',
  inputs: [{ url: 'https://files.test/a.pdf' }],
  request: { input: 'https://files.test/a.pdf' },
  versions: {},
};
const dispatch: Dispatch = {
  jobId: 'job_1',
  queue: 'cpu',
  bullJobId: 'split-job_1',
  lane: 'batch',
  payload: task,
  dispatchedAt: new Date(0),
};
const job = { jobId: 'job_1', state: 'running' } as JobRecord;

function setUp({ redis = true } = {}) {
  const pipelines: Record<string, JobPipeline<unknown>> = {
    operation: { taskKind: 'operation' } as JobPipeline<unknown>,
    classify: { taskKind: 'classify' } as JobPipeline<unknown>,
  };
  const runner = { pipeline: jest.fn((kind: string) => pipelines[kind]) };
  const jobs = {
    markStarted: jest.fn(async (_jobId: string) => true),
    markRunning: jest.fn(async (_jobId: string) => true),
    find: jest.fn(async (_jobId: string) => job),
  };
  const outcomes = {
    completed: jest.fn(async (..._args: unknown[]) => undefined),
    failed: jest.fn(async (..._args: unknown[]) => undefined),
    discarded: jest.fn(async (..._args: unknown[]) => undefined),
  };
  const dispatches = {
    has: jest.fn(async (_jobId: string) => true),
    older: jest.fn(async (..._args: unknown[]) => [dispatch]),
    remove: jest.fn(async (..._args: unknown[]) => undefined),
  };
  const client = {
    jobState: jest.fn(
      async (..._args: unknown[]): Promise<{ state: string; failedReason?: string }> => ({
        state: 'unknown',
      }),
    ),
  };
  const queue = new InlineQueueDriver();
  const added = jest.spyOn(queue, 'add');
  const taken: RedisJobTask[] = [];
  queue.work(REDIS_JOB_COMMANDS.split, async (work) => {
    taken.push(work.payload);
  });
  const sut = new RedisResultsConsumer(
    { processing: { jobMaxAttempts: 4 } } as AppConfig,
    redis ? (client as unknown as RedisQueueClient) : null,
    redis ? queue : null,
    jobs as unknown as JobsRepository,
    runner as unknown as JobRunner,
    outcomes as unknown as JobOutcomeRecorder,
    dispatches as unknown as RedisDispatchRepository,
  );
  /** The `also` write an outcome was recorded with, run against the transaction. */
  const alsoOf = async (mock: jest.Mock, at: number) => {
    const also = mock.mock.calls[0][at] as (t: Transaction) => Promise<void>;
    await also(tx);
    return dispatches.remove.mock.calls[0];
  };
  return { sut, runner, jobs, outcomes, dispatches, client, queue, added, taken, alsoOf };
}

describe(RedisResultsConsumer.name, () => {
  let t: ReturnType<typeof setUp>;

  beforeEach(() => {
    t = setUp();
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => {
    jest.restoreAllMocks();
    t.queue.close();
  });

  describe('reports', () => {
    it('ignores a report for a job no longer dispatched to Redis', async () => {
      t.dispatches.has.mockResolvedValueOnce(false);
      await t.sut.consume({ jobId: 'job_1', kind: 'operation', outcome: {} });
      expect(t.jobs.markRunning).not.toHaveBeenCalled();
      expect(t.outcomes.completed).not.toHaveBeenCalled();
    });

    it('shows a started job as running', async () => {
      await t.sut.consume({ jobId: 'job_1', started: true });
      expect(t.jobs.markStarted).toHaveBeenCalledWith('job_1');
      expect(t.outcomes.completed).not.toHaveBeenCalled();
    });

    it("records an outcome with the kind's pipeline, the dispatch row removed in its transaction", async () => {
      await t.sut.consume({ jobId: 'job_1', kind: 'operation', outcome: { pages: 2 } });
      expect(t.outcomes.completed).toHaveBeenCalledWith(
        expect.objectContaining({ taskKind: 'operation' }),
        job,
        { pages: 2 },
        expect.any(Function),
      );
      expect(await t.alsoOf(t.outcomes.completed, 3)).toEqual([tx, 'job_1']);
    });

    it('records a failure with its own code and status; a report without kind is classify', async () => {
      await t.sut.apply({
        jobId: 'job_1',
        failure: { code: 'CORRUPT_DOCUMENT', message: 'bad xref', status: 400 },
      });
      expect(t.runner.pipeline).toHaveBeenCalledWith('classify');
      const failure = t.outcomes.failed.mock.calls[0][1] as ProcessingError;
      expect(failure).toBeInstanceOf(ProcessingError);
      expect(failure).toMatchObject({ code: 'CORRUPT_DOCUMENT', message: 'bad xref', status: 400 });
      expect(await t.alsoOf(t.outcomes.failed, 2)).toEqual([tx, 'job_1']);
    });

    it('discards the outcome of a job that cannot start (cancelled, finished elsewhere)', async () => {
      t.jobs.markRunning.mockResolvedValueOnce(false);
      await t.sut.apply({ jobId: 'job_1', kind: 'operation', outcome: {} });
      expect(t.outcomes.discarded).toHaveBeenCalledWith('job_1', expect.any(Function));
      expect(t.outcomes.completed).not.toHaveBeenCalled();
      expect(await t.alsoOf(t.outcomes.discarded, 1)).toEqual([tx, 'job_1']);
    });
  });

  describe('reconcile', () => {
    it('puts a dispatch Redis lost back through the queue port, as a valid command', async () => {
      await t.sut.reconcile(0);
      expect(t.client.jobState).toHaveBeenCalledWith('cpu', 'split-job_1');
      expect(t.added).toHaveBeenCalledWith(
        { kind: 'split', payload: task },
        { queue: 'cpu', lane: 'batch', maxAttempts: 4, id: 'split-job_1' },
      );
      await t.queue.drain();
      expect(t.taken).toEqual([task]);
    });

    it('marks a job BullMQ runs as started, without adding it again', async () => {
      t.client.jobState.mockResolvedValueOnce({ state: 'active' });
      await t.sut.reconcile(0);
      expect(t.jobs.markStarted).toHaveBeenCalledWith('job_1');
      expect(t.added).not.toHaveBeenCalled();
    });

    it('fails a job BullMQ gave up on with its reason', async () => {
      t.client.jobState.mockResolvedValueOnce({ state: 'failed', failedReason: 'OOM' });
      await t.sut.reconcile(0);
      expect(t.outcomes.failed.mock.calls[0][1]).toMatchObject({
        code: 'PROCESSING_FAILED',
        message: 'OOM',
        status: 500,
      });
      expect(t.added).not.toHaveBeenCalled();
    });

    it('leaves waiting jobs alone, and does nothing without Redis', async () => {
      t.client.jobState.mockResolvedValueOnce({ state: 'waiting' });
      await t.sut.reconcile(0);
      expect(t.added).not.toHaveBeenCalled();
      expect(t.jobs.markStarted).not.toHaveBeenCalled();
      const off = setUp({ redis: false });
      await off.sut.reconcile(0);
      expect(off.dispatches.older).not.toHaveBeenCalled();
    });
  });
});
