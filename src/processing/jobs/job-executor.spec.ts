import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { InputResolver } from '../inputs/input-resolver.service.js';
import { JobExecutor, type WorkerShutdown } from './job-executor.js';
import type { JobInputStage } from './job-input.stage.js';
import type { JobOutcomeRecorder } from './job-outcome.recorder.js';
import type { JobPipeline } from './job-pipeline.js';
import { type JobRecord } from '../core/job.types.js';
import { ProcessingError } from '../core/processing-error.js';
import type { JobsRepository } from './jobs.repository.js';
import { RunningJobs } from './running-jobs.js';

const job = {
  jobId: 'job_1',
  orgId: 'org_1',
  type: 'Classify',
  request: { input: 'docproc://file.pdf' },
} as unknown as JobRecord;
const documents = [{ fileName: 'file.pdf' }];

function setUp() {
  const jobs = {
    markRunning: jest.fn(async (_jobId: string) => true),
    find: jest.fn(async (_jobId: string) => job),
  };
  const inputs = { resolve: jest.fn(async (..._args: unknown[]) => documents) };
  const outcomes = {
    completed: jest.fn(async (..._args: unknown[]) => undefined),
    failed: jest.fn(async (_jobId: string, _failure: ProcessingError) => undefined),
    discarded: jest.fn(async (_jobId: string) => undefined),
  };
  const running = new RunningJobs();
  const inputStage = {
    pending: jest.fn(async (_job: unknown) => false),
    start: jest.fn((_job: unknown, _kind: string) => undefined),
  };
  const shutdown: { stopping: boolean } = { stopping: false };
  const pipeline = {
    taskKind: 'classify',
    run: jest.fn(async (..._args: unknown[]): Promise<unknown> => ({ category: 'invoice' })),
  };
  const sut = new JobExecutor(
    jobs as unknown as JobsRepository,
    inputs as unknown as InputResolver,
    running,
    outcomes as unknown as JobOutcomeRecorder,
    inputStage as unknown as JobInputStage,
    shutdown as WorkerShutdown,
  );
  const execute = () => sut.execute(pipeline as unknown as JobPipeline<unknown>, 'job_1');
  return { sut, jobs, inputs, outcomes, running, inputStage, shutdown, pipeline, execute };
}

describe(JobExecutor.name, () => {
  let t: ReturnType<typeof setUp>;

  beforeEach(() => {
    t = setUp();
  });

  it('runs a started job on its resolved inputs and records its outcome', async () => {
    await t.execute();
    expect(t.inputs.resolve).toHaveBeenCalledWith('org_1', 'docproc://file.pdf', 'job_1');
    expect(t.pipeline.run).toHaveBeenCalledWith(job, documents, expect.any(AbortSignal));
    expect(t.outcomes.completed).toHaveBeenCalledWith(t.pipeline, job, { category: 'invoice' });
    expect(t.outcomes.failed).not.toHaveBeenCalled();
    // No longer registered as running: a later cancel has nothing to abort.
    expect(t.running.abort('job_1')).toBe(false);
  });

  it('never starts a job that is no longer queued or running', async () => {
    t.jobs.markRunning.mockResolvedValueOnce(false);
    await t.execute();
    expect(t.outcomes.discarded).toHaveBeenCalledWith('job_1');
    expect(t.pipeline.run).not.toHaveBeenCalled();
    expect(t.outcomes.completed).not.toHaveBeenCalled();
  });

  it("records a client's error as the job's failure", async () => {
    t.pipeline.run.mockRejectedValueOnce(new ProcessingError('CORRUPT_DOCUMENT', 'bad xref', 400));
    await t.execute();
    expect(t.outcomes.failed).toHaveBeenCalledWith('job_1', expect.any(ProcessingError));
    expect(t.outcomes.failed.mock.calls[0][1]).toMatchObject({
      code: 'CORRUPT_DOCUMENT',
      status: 400,
    });
  });

  it('hides an internal error behind PROCESSING_FAILED and logs it', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    t.pipeline.run.mockRejectedValueOnce(new TypeError('x is undefined'));
    await t.execute();
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ jobId: 'job_1', kind: 'classify' }),
      'job failed',
    );
    logged.mockRestore();
    expect(t.outcomes.failed.mock.calls[0][1]).toMatchObject({
      code: 'PROCESSING_FAILED',
      message: 'Internal error while processing the document',
      status: 500,
    });
  });

  it('records a job the full data volume failed as STORAGE_FULL (503), logged, not as an internal error', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    // As an executor's write error arrives: rebuilt from its name and message only.
    t.pipeline.run.mockRejectedValueOnce(new Error('ENOSPC: no space left on device, write'));
    await t.execute();
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ jobId: 'job_1', kind: 'classify' }),
      'out of disk space: job failed STORAGE_FULL',
    );
    logged.mockRestore();
    expect(t.outcomes.failed.mock.calls[0][1]).toMatchObject({
      code: 'STORAGE_FULL',
      message: expect.stringMatching(/^The server ran out of disk space/),
      status: 503,
    });
  });

  it('records a job cancelled while it ran as cancelled', async () => {
    t.pipeline.run.mockImplementationOnce(async (...args: unknown[]) => {
      t.running.abort('job_1');
      (args[2] as AbortSignal).throwIfAborted();
    });
    await t.execute();
    expect(t.outcomes.failed.mock.calls[0][1]).toMatchObject({
      code: 'JOB_CANCELLED',
      status: 409,
    });
  });

  it('leaves a failure caused by shutdown to the queue (the task runs again at next start)', async () => {
    const stopped = new Error('executor ended by shutdown');
    t.pipeline.run.mockImplementationOnce(async () => {
      t.shutdown.stopping = true;
      throw stopped;
    });
    await expect(t.execute()).rejects.toBe(stopped);
    expect(t.outcomes.failed).not.toHaveBeenCalled();
    expect(t.outcomes.completed).not.toHaveBeenCalled();
  });

  it('sends a queued job whose URL inputs are not downloaded back to the input stage, unstarted', async () => {
    t.jobs.find.mockResolvedValue({ ...job, state: 'queued' } as JobRecord);
    t.inputStage.pending.mockResolvedValue(true);
    await t.execute();
    expect(t.inputStage.start).toHaveBeenCalledWith(
      expect.objectContaining({ jobId: 'job_1' }),
      'classify',
    );
    expect(t.jobs.markRunning).not.toHaveBeenCalled();
    expect(t.pipeline.run).not.toHaveBeenCalled();
    expect(t.outcomes.failed).not.toHaveBeenCalled();
  });
});
