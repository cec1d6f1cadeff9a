import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { ApiError } from '../../common/api-error.js';
import { ReadinessService } from '../../common/health/readiness.service.js';
import type { AppConfig } from '../../config/app-config.js';
import type { DuckDbService, Transaction } from '../../database/duckdb.service.js';
import type { StorageReserve } from '../../database/storage-reserve.js';
import type { AdmissionService } from '../admission/admission.service.js';
import type { InputResolver } from '../inputs/input-resolver.service.js';
import type { UsageOutboxRelay } from '../outbox/usage-outbox.relay.js';
import type { UsageOutboxRepository } from '../outbox/usage-outbox.repository.js';
import type { ProcessingMetrics } from '../processing.metrics.js';
import { InlineQueueDriver } from '../queue/inline-queue.driver.js';
import type { LegacyWorkers } from '../queue/db/legacy-workers.service.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import type { JobEvents, WaitOutcome } from './job-events.js';
import type { JobExecutor } from './job-executor.js';
import type { JobResults } from './job-results.js';
import type { JobInputStage } from './job-input.stage.js';
import { JobOutcomeRecorder } from './job-outcome.recorder.js';
import type { JobPipeline, Submission } from './job-pipeline.js';
import { JobRunner } from './job-runner.service.js';
import type { JobRecord } from '../core/job.types.js';
import type { JobsRepository } from './jobs.repository.js';
import { SubmissionGate } from './submission-gate.js';
import { SyncRequestDrain } from './sync-request-drain.js';

const tx = {} as Transaction;
const principal = { orgId: 'org_1', keyId: 'pk_1' } as ProcessingPrincipal;
const config = {
  processing: { jobMaxAttempts: 3, syncTimeoutMs: 5000 },
  shutdownDrainMs: 1000,
} as unknown as AppConfig;
const pipeline = {
  taskKind: 'classify.run',
  run: jest.fn(),
  billing: jest.fn(),
  result: jest.fn(),
} as unknown as JobPipeline<unknown>;

function submission(overrides: Partial<Submission> = {}): Submission {
  return {
    type: 'Classify',
    request: { input: 'docproc://file.pdf' },
    isAsync: true,
    metadata: { team: 'risk' },
    persistResult: false,
    lane: 'standard',
    gated: false,
    ...overrides,
  } as Submission;
}

function setUp() {
  const stored = new Map<string, Partial<JobRecord>>();
  const release = jest.fn();
  const jobs = {
    insert: jest.fn(async (_tx: Transaction, job: { jobId: string }) => {
      stored.set(job.jobId, { ...job, state: 'queued' } as Partial<JobRecord>);
    }),
    find: jest.fn(async (jobId: string) => (stored.get(jobId) as JobRecord) ?? null),
    markCancelled: jest.fn(async (_tx: Transaction, jobId: string) => {
      stored.get(jobId)!.state = 'cancelled';
    }),
    delete: jest.fn(async (_tx: Transaction, jobId: string) => {
      stored.delete(jobId);
    }),
    keepForPolling: jest.fn(async (jobId: string) => {
      stored.get(jobId)!.keptForPolling = true;
    }),
  };
  const queue = new InlineQueueDriver();
  const add = jest.spyOn(queue, 'add');
  const admission = { admit: jest.fn(async (..._args: unknown[]) => release) };
  const inputs = { precheck: jest.fn(async (..._args: unknown[]) => undefined) };
  const webhooks = { assertSubmittable: jest.fn(async (..._args: unknown[]) => undefined) };
  let outcome: WaitOutcome = 'finished';
  const events = {
    waitFor: jest.fn(async () => outcome),
    finished: jest.fn(),
    waiting: 0,
    releaseAll: jest.fn(),
  };
  const db = {
    transaction: jest.fn(async (work: (t: Transaction) => Promise<unknown>) => work(tx)),
  };
  const storedResults = new Map<string, Record<string, unknown>>([
    ['results/invoice.json', { category: 'invoice' }],
  ]);
  const results = {
    load: jest.fn(async (job: JobRecord) =>
      job.state === 'completed' && job.resultKey
        ? (storedResults.get(job.resultKey) ?? null)
        : null,
    ),
    remove: jest.fn(async (_keys: readonly (string | null)[]) => undefined),
  } as unknown as JobResults;
  const inputStage = {
    needsDownloads: jest.fn((request: { input?: unknown }) =>
      String(request.input).startsWith('https://'),
    ),
    start: jest.fn((_job: unknown, _kind: string, _release?: () => void) => undefined),
  };
  const drain = new SyncRequestDrain(
    config,
    events as unknown as JobEvents,
    { fatalFailure: null } as DuckDbService,
    new ReadinessService(),
    { onBeforeStop: jest.fn() } as unknown as LegacyWorkers,
  );
  const sut = new JobRunner(
    config,
    db as unknown as DuckDbService,
    jobs as unknown as JobsRepository,
    queue,
    events as unknown as JobEvents,
    new SubmissionGate(
      inputs as unknown as InputResolver,
      webhooks as unknown as WebhooksService,
      admission as unknown as AdmissionService,
      drain,
      { assertRoom: () => undefined } as unknown as StorageReserve,
    ),
    {} as JobExecutor,
    new JobOutcomeRecorder(
      db as unknown as DuckDbService,
      jobs as unknown as JobsRepository,
      results,
      {} as UsageOutboxRepository,
      {} as UsageOutboxRelay,
      webhooks as unknown as WebhooksService,
      events as unknown as JobEvents,
      {} as ProcessingMetrics,
    ),
    results,
    inputStage as unknown as JobInputStage,
  );
  /** What the worker will have done to the job by the time the sync wait ends. */
  const finishWith = (state: Partial<JobRecord>, wait: WaitOutcome = 'finished') => {
    outcome = wait;
    jobs.insert.mockImplementation(async (_tx: Transaction, job: { jobId: string }) => {
      stored.set(job.jobId, { ...job, state: 'queued', ...state } as Partial<JobRecord>);
    });
  };
  return {
    sut,
    jobs,
    queue,
    add,
    admission,
    release,
    inputs,
    webhooks,
    events,
    inputStage,
    finishWith,
    drain,
  };
}

async function apiErrorOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const body = (error as ApiError).getResponse() as { error: { code: string; message: string } };
  return { status: (error as ApiError).getStatus(), ...body.error };
}

describe(JobRunner.name, () => {
  let t: ReturnType<typeof setUp>;

  beforeEach(() => {
    t = setUp();
  });

  describe('submitAsync', () => {
    it('checks inputs and webhook, passes admission, commits the job, then queues its command', async () => {
      const { job_id } = await t.sut.submitAsync(pipeline, principal, submission());
      expect(t.inputs.precheck).toHaveBeenCalledWith('org_1', 'docproc://file.pdf');
      expect(t.webhooks.assertSubmittable).toHaveBeenCalled();
      expect(t.admission.admit).toHaveBeenCalledWith({
        queue: 'cpu',
        lane: 'standard',
        sync: false,
      });
      expect(t.jobs.insert).toHaveBeenCalledWith(
        tx,
        expect.objectContaining({ jobId: job_id, orgId: 'org_1', apiKeyId: 'pk_1', isAsync: true }),
      );
      expect(t.add).toHaveBeenCalledWith(
        { kind: 'classify.run', payload: expect.objectContaining({ jobId: job_id }) },
        expect.objectContaining({
          queue: 'cpu',
          lane: 'standard',
          maxAttempts: 3,
          tenant: 'org_1',
        }),
      );
      expect(t.jobs.insert.mock.invocationCallOrder[0]).toBeLessThan(
        t.add.mock.invocationCallOrder[0],
      );
      expect(t.release).toHaveBeenCalledTimes(1);
      await t.queue.drain();
      // No handler registered in this spec: the command reached the queue validated.
      expect(t.queue.outcomes).toEqual([
        expect.objectContaining({ kind: 'classify.run', status: 'unhandled' }),
      ]);
    });

    it('hands a job with URL inputs to the input stage, its admission slot held until it is queued', async () => {
      const request = { ...submission().request, input: 'https://files.example/a.pdf' };
      const { job_id } = await t.sut.submitAsync(pipeline, principal, {
        ...submission(),
        request,
      });
      expect(t.inputStage.start).toHaveBeenCalledWith(
        expect.objectContaining({ jobId: job_id, orgId: 'org_1', request }),
        'classify.run',
        t.release,
      );
      // Queued by the stage once its downloads are done, not here; the slot is the stage's.
      expect(t.add).not.toHaveBeenCalled();
      expect(t.release).not.toHaveBeenCalled();
    });

    it('removes the job and fails the request when the queue refuses its command', async () => {
      t.add.mockRejectedValueOnce(
        new ApiError(503, 'QUEUE_UNAVAILABLE', 'The job queue is unavailable; retry later'),
      );
      expect(await apiErrorOf(t.sut.submitAsync(pipeline, principal, submission()))).toMatchObject({
        status: 503,
        code: 'QUEUE_UNAVAILABLE',
      });
      const jobId = t.jobs.insert.mock.calls[0][1].jobId;
      expect(t.jobs.delete).toHaveBeenCalledWith(tx, jobId);
      expect(await t.jobs.find(jobId)).toBeNull();
      expect(t.release).toHaveBeenCalledTimes(1);
    });

    it('creates no job when the admission cap refuses', async () => {
      t.admission.admit.mockRejectedValueOnce(
        new ApiError(503, 'QUEUE_FULL', 'The cpu queue is full', {}, { 'Retry-After': '30' }),
      );
      expect(await apiErrorOf(t.sut.submitAsync(pipeline, principal, submission()))).toMatchObject({
        status: 503,
        code: 'QUEUE_FULL',
      });
      expect(t.jobs.insert).not.toHaveBeenCalled();
      expect(t.add).not.toHaveBeenCalled();
    });

    it('releases the admitted slot even when storing the job fails', async () => {
      t.jobs.insert.mockRejectedValueOnce(new Error('disk full'));
      await expect(t.sut.submitAsync(pipeline, principal, submission())).rejects.toThrow(
        'disk full',
      );
      expect(t.release).toHaveBeenCalledTimes(1);
    });
  });

  describe('runSync', () => {
    const sync = () =>
      submission({ isAsync: false, metadata: undefined, gated: true, lane: 'priority' });

    it('answers a completed job with its stored result; a sync job is tried once', async () => {
      t.finishWith({ state: 'completed', resultKey: 'results/invoice.json' });
      await expect(t.sut.runSync(pipeline, principal, sync())).resolves.toEqual({
        category: 'invoice',
      });
      expect(t.admission.admit).toHaveBeenCalledWith({
        queue: 'cpu',
        lane: 'priority',
        sync: true,
      });
      expect(t.add).toHaveBeenCalledWith(
        expect.anything(),
        expect.objectContaining({ queue: 'cpu', maxAttempts: 1 }),
      );
      // The wait starts before the command is queued: a fast worker's signal is not missed.
      expect(t.events.waitFor.mock.invocationCallOrder[0]).toBeLessThan(
        t.add.mock.invocationCallOrder[0],
      );
    });

    it('answers a failed job with the status and code it failed with', async () => {
      t.finishWith({
        state: 'failed',
        errorStatus: 422,
        errorCode: 'DOCUMENT_LIMIT_EXCEEDED',
        reason: 'too many pixels',
      });
      expect(await apiErrorOf(t.sut.runSync(pipeline, principal, sync()))).toMatchObject({
        status: 422,
        code: 'DOCUMENT_LIMIT_EXCEEDED',
        message: 'too many pixels',
      });
    });

    it('answers a job the full data volume failed with 503 STORAGE_FULL, Retry-After and its job_id', async () => {
      t.finishWith({
        state: 'failed',
        errorStatus: 503,
        errorCode: 'STORAGE_FULL',
        reason: 'The server ran out of disk space while processing the document',
      });
      const error = await t.sut.runSync(pipeline, principal, sync()).then(
        () => null,
        (e: unknown) => e as ApiError,
      );
      expect([error?.getStatus(), error?.headers, error?.getResponse()]).toEqual([
        503,
        { 'Retry-After': '60' },
        {
          error: {
            code: 'STORAGE_FULL',
            message: 'The server ran out of disk space while processing the document',
            job_id: expect.any(String),
          },
        },
      ]);
    });

    it('answers 409 for a cancelled job and 504 SYNC_TIMEOUT for one still running', async () => {
      t.finishWith({ state: 'cancelled' });
      expect(await apiErrorOf(t.sut.runSync(pipeline, principal, sync()))).toMatchObject({
        status: 409,
        code: 'JOB_CANCELLED',
      });
      t.finishWith({ state: 'running' }, 'timeout');
      expect(await apiErrorOf(t.sut.runSync(pipeline, principal, sync()))).toMatchObject({
        status: 504,
        code: 'SYNC_TIMEOUT',
      });
    });

    it('cancels a job whose client left before it started, so it never runs or bills', async () => {
      t.finishWith({}, 'aborted');
      expect(await apiErrorOf(t.sut.runSync(pipeline, principal, sync()))).toMatchObject({
        status: 409,
        code: 'JOB_CANCELLED',
      });
      expect(t.jobs.markCancelled).toHaveBeenCalledTimes(1);
      expect(t.events.finished).toHaveBeenCalledTimes(1);
    });

    it('refuses a submission once the stop began with 503 SHUTTING_DOWN and Retry-After, creating nothing', async () => {
      await t.drain.drain();
      for (const request of [
        t.sut.runSync(pipeline, principal, sync()),
        t.sut.submitAsync(pipeline, principal, submission()),
      ]) {
        const error = await request.then(
          () => null,
          (e: unknown) => e as ApiError,
        );
        expect(error?.getStatus()).toBe(503);
        expect(error?.headers).toEqual({ 'Retry-After': '10' });
        expect(error?.code).toBe('SHUTTING_DOWN');
      }
      expect(t.admission.admit).not.toHaveBeenCalled();
      expect(t.jobs.insert).not.toHaveBeenCalled();
    });

    it('answers a wait cut by shutdown with 503 SHUTTING_DOWN, Retry-After and the kept job', async () => {
      t.finishWith({ state: 'running' }, 'finished');
      const error = await t.sut.runSync(pipeline, principal, sync()).then(
        () => null,
        (e: unknown) => e as ApiError,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect(error?.headers).toEqual({ 'Retry-After': '10' });
      const body = error?.getResponse() as { error: { code: string; job_id: string } };
      expect(error?.getStatus()).toBe(503);
      expect(body.error).toMatchObject({ code: 'SHUTTING_DOWN', job_id: expect.any(String) });
      // Kept for polling before the client is told its id (the restart then finishes it).
      expect(t.jobs.keepForPolling).toHaveBeenCalledWith(body.error.job_id);
    });

    it('tells no job id when the store could not keep the job for polling', async () => {
      t.finishWith({ state: 'running' }, 'finished');
      t.jobs.keepForPolling.mockRejectedValueOnce(new Error('store failed'));
      const error = await t.sut.runSync(pipeline, principal, sync()).then(
        () => null,
        (e: unknown) => e as ApiError,
      );
      expect(error?.getStatus()).toBe(503);
      expect(error?.headers).toEqual({ 'Retry-After': '10' });
      const body = error?.getResponse() as { error: Record<string, unknown> };
      expect(body.error.code).toBe('SHUTTING_DOWN');
      expect(body.error.job_id).toBeUndefined();
    });
  });
});
