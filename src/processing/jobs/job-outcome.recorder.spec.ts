import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { DuckDbService, Transaction } from '../../database/duckdb.service.js';
import type { UsageOutboxRelay } from '../outbox/usage-outbox.relay.js';
import type { UsageOutboxRepository } from '../outbox/usage-outbox.repository.js';
import type { ProcessingMetrics } from '../processing.metrics.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import type { JobEvents } from './job-events.js';
import { JobOutcomeRecorder } from './job-outcome.recorder.js';
import type { JobResults } from './job-results.js';
import type { JobPipeline } from './job-pipeline.js';
import type { WrittenJson } from '../../documents/executors/operation.task.js';
import { type JobRecord, type JobState } from '../core/job.types.js';
import { ProcessingError } from '../core/processing-error.js';
import type { JobsRepository } from './jobs.repository.js';

const tx = {} as Transaction;
const billing = { product: 'parse', feature: 'parse', pages: 3, totalPages: 9, fileType: 'pdf' };
const pipeline = {
  billing: jest.fn(() => billing),
  result: jest.fn((job: JobRecord, _o: unknown, credits: string) => ({
    job_id: job.jobId,
    credits,
  })),
} as unknown as JobPipeline<unknown>;

function setUp(state: JobState, cancelRequested = false) {
  let job: JobRecord | null = {
    jobId: 'job_1',
    orgId: 'org_1',
    apiKeyId: 'pk_1',
    type: 'Parse',
    state,
    cancelRequested,
    isAsync: true,
    metadata: { team: 'risk' },
    createdAt: new Date(Date.now() - 2000),
  } as unknown as JobRecord;
  const order: string[] = [];
  const jobs = {
    find: jest.fn(async () => job),
    markCompleted: jest.fn(async (..._args: unknown[]) => undefined),
    markFailed: jest.fn(async (..._args: unknown[]) => undefined),
    markCancelled: jest.fn(async (..._args: unknown[]) => undefined),
    delete: jest.fn(async (_tx: Transaction, _jobId: string) => {
      job = null;
    }),
  };
  const results = {
    save: jest.fn(
      async (jobId: string, _result: Record<string, unknown>, _written?: WrittenJson[]) => {
        order.push('save');
        return { key: `results/${jobId}.json`, bytes: 42, sha256: 'abc' };
      },
    ),
    remove: jest.fn(async (_keys: readonly (string | null)[]) => undefined),
    discardWritten: jest.fn(async (_written: readonly WrittenJson[]) => {
      order.push('discard');
    }),
  };
  const outbox = {
    credits: jest.fn(async (..._args: unknown[]) => '1.500000'),
    insert: jest.fn(async (..._args: unknown[]) => undefined),
  };
  const relay = { kick: jest.fn() };
  const webhooks = {
    scheduleForJob: jest.fn(async (..._args: unknown[]) => ['delivery_1']),
    dispatch: jest.fn(async (..._args: unknown[]) => {
      order.push('dispatch');
    }),
  };
  const events = {
    finished: jest.fn((_jobId: string) => {
      order.push('finished');
    }),
  };
  const metrics = { jobFinished: jest.fn() };
  const db = {
    transaction: jest.fn(async (work: (t: Transaction) => Promise<unknown>) => {
      const result = await work(tx);
      order.push('commit');
      return result;
    }),
  };
  const sut = new JobOutcomeRecorder(
    db as unknown as DuckDbService,
    jobs as unknown as JobsRepository,
    results as unknown as JobResults,
    outbox as unknown as UsageOutboxRepository,
    relay as unknown as UsageOutboxRelay,
    webhooks as unknown as WebhooksService,
    events as unknown as JobEvents,
    metrics as unknown as ProcessingMetrics,
  );
  const also = jest.fn(async (_tx: Transaction) => {
    order.push('also');
  });
  return { sut, job: job!, jobs, results, outbox, relay, webhooks, events, metrics, order, also };
}

describe(JobOutcomeRecorder.name, () => {
  describe('completed', () => {
    let t: ReturnType<typeof setUp>;
    beforeEach(() => {
      t = setUp('running');
    });

    it('stores the result, one usage event and the webhook rows in one transaction', async () => {
      await t.sut.completed(pipeline, t.job, { pages: 3 }, t.also);
      expect(t.outbox.credits).toHaveBeenCalledWith(tx, 'parse', 'parse', 3);
      expect(t.results.save).toHaveBeenCalledWith(
        'job_1',
        { job_id: 'job_1', credits: '1.500000' },
        [],
      );
      expect(t.jobs.markCompleted).toHaveBeenCalledWith(
        tx,
        'job_1',
        { key: 'results/job_1.json', bytes: 42, sha256: 'abc' },
        3,
        9,
        null, // no document: only edit jobs make one
      );
      expect(t.outbox.insert).toHaveBeenCalledTimes(1);
      expect(t.outbox.insert.mock.calls[0][1]).toMatchObject({
        id: 'evt_job_1',
        data: { jobId: 'job_1', pages: 3, credits: '1.500000', metadata: { team: 'risk' } },
      });
      expect(t.webhooks.scheduleForJob).toHaveBeenCalledWith(tx, expect.anything(), 'Completed');
      expect(t.metrics.jobFinished).toHaveBeenCalledWith('Parse', 'completed', t.job.createdAt);
      // The caller's own write joins the transaction; waiters and deliveries come after it.
      // The result file is written before the row that refers to it commits.
      expect(t.order).toEqual(['also', 'save', 'commit', 'discard', 'finished', 'dispatch']);
      expect(t.webhooks.dispatch).toHaveBeenCalledWith(['delivery_1']);
      expect(t.relay.kick).toHaveBeenCalledTimes(1);
    });

    it('bills nothing for a job that is no longer running (a second report)', async () => {
      const done = setUp('completed');
      await done.sut.completed(pipeline, done.job, {});
      expect(done.jobs.markCompleted).not.toHaveBeenCalled();
      expect(done.outbox.insert).not.toHaveBeenCalled();
      expect(done.webhooks.dispatch).not.toHaveBeenCalled();
      expect(done.events.finished).toHaveBeenCalledWith('job_1');
    });

    it('discards the result of a job cancelled while it ran: cancelled, not billed, no webhook', async () => {
      const cancelled = setUp('running', true);
      await cancelled.sut.completed(pipeline, cancelled.job, {});
      expect(cancelled.jobs.markCancelled).toHaveBeenCalledWith(tx, 'job_1');
      expect(cancelled.outbox.insert).not.toHaveBeenCalled();
      expect(cancelled.webhooks.scheduleForJob).not.toHaveBeenCalled();
      expect(cancelled.metrics.jobFinished).toHaveBeenCalledWith(
        'Parse',
        'cancelled',
        expect.any(Date),
      );
    });
  });

  describe('a result its executor wrote to a file', () => {
    const file = { writtenJson: 'results/.job_1.json.staged', bytes: 5_000_000 };
    const writing = {
      ...pipeline,
      written: (outcome: { result: unknown }) => [outcome.result],
      result: (job: JobRecord, outcome: { result: unknown }) => ({
        job_id: job.jobId,
        result: outcome.result,
      }),
    } as unknown as JobPipeline<unknown>;

    it('is stored in the envelope, then its file is let go after the commit', async () => {
      const t = setUp('running');
      await t.sut.completed(writing, t.job, { result: file });
      expect(t.results.save).toHaveBeenCalledWith('job_1', { job_id: 'job_1', result: file }, [
        file,
      ]);
      expect(t.results.discardWritten).toHaveBeenCalledWith([file]);
      expect(t.order).toEqual(['save', 'commit', 'discard', 'finished', 'dispatch']);
    });

    it('has its file removed when the job was cancelled meanwhile', async () => {
      const t = setUp('running', true);
      await t.sut.completed(writing, t.job, { result: file });
      expect(t.results.save).not.toHaveBeenCalled();
      expect(t.results.discardWritten).toHaveBeenCalledWith([file]);
    });
  });

  describe('failed', () => {
    const failure = new ProcessingError('CORRUPT_DOCUMENT', 'bad xref', 400);

    it('records the failure and its webhook, without a usage event', async () => {
      const t = setUp('queued');
      await t.sut.failed('job_1', failure);
      expect(t.jobs.markFailed).toHaveBeenCalledWith(
        tx,
        'job_1',
        'CORRUPT_DOCUMENT',
        'bad xref',
        400,
      );
      expect(t.webhooks.scheduleForJob).toHaveBeenCalledWith(tx, expect.anything(), 'Failed');
      expect(t.outbox.insert).not.toHaveBeenCalled();
      expect(t.webhooks.dispatch).toHaveBeenCalledWith(['delivery_1']);
    });

    it('records a failure of a job whose cancel was requested as cancelled', async () => {
      const t = setUp('running', true);
      await t.sut.failed('job_1', failure);
      expect(t.jobs.markCancelled).toHaveBeenCalledWith(tx, 'job_1');
      expect(t.jobs.markFailed).not.toHaveBeenCalled();
      expect(t.webhooks.scheduleForJob).not.toHaveBeenCalled();
    });

    it('leaves a finished job as it was, still committing the caller’s own write', async () => {
      const t = setUp('completed');
      await t.sut.failed('job_1', failure, t.also);
      expect(t.jobs.markFailed).not.toHaveBeenCalled();
      expect(t.also).toHaveBeenCalledWith(tx);
      expect(t.webhooks.dispatch).not.toHaveBeenCalled();
    });
  });

  describe('jobs that never ran', () => {
    it('discarded: records a cancel requested meanwhile, else changes nothing', async () => {
      const cancelled = setUp('queued', true);
      await cancelled.sut.discarded('job_1', cancelled.also);
      expect(cancelled.jobs.markCancelled).toHaveBeenCalledWith(tx, 'job_1');
      expect(cancelled.also).toHaveBeenCalledWith(tx);
      const finished = setUp('failed', true);
      await finished.sut.discarded('job_1');
      expect(finished.jobs.markCancelled).not.toHaveBeenCalled();
      expect(finished.events.finished).toHaveBeenCalledWith('job_1');
    });

    it('cancelledUnstarted: only a job still queued is cancelled', async () => {
      const queued = setUp('queued');
      await expect(queued.sut.cancelledUnstarted('job_1')).resolves.toBe(true);
      expect(queued.jobs.markCancelled).toHaveBeenCalledWith(tx, 'job_1');
      expect(queued.events.finished).toHaveBeenCalledWith('job_1');
      const running = setUp('running');
      await expect(running.sut.cancelledUnstarted('job_1')).resolves.toBe(false);
      expect(running.jobs.markCancelled).not.toHaveBeenCalled();
      expect(running.events.finished).not.toHaveBeenCalled();
    });

    it('withdrawn: the job no queue took is deleted and its waiter woken', async () => {
      const t = setUp('queued');
      await t.sut.withdrawn('job_1');
      expect(t.jobs.delete).toHaveBeenCalledWith(tx, 'job_1');
      expect(t.order).toEqual(['commit', 'finished']);
    });
  });
});
