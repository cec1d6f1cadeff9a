import { describe, expect, it, jest } from '@jest/globals';
import type { AppConfig } from '../../config/app-config.js';
import { InlineQueueDriver } from '../queue/inline-queue.driver.js';
import { RunJobCommand, commandType } from '../queue/queue-command.js';
import type { LegacyWorkers, StartupStep } from '../queue/db/legacy-workers.service.js';
import { JobReconciler } from './job-reconciler.js';
import type { JobRecord } from '../core/job.types.js';
import type { JobsRepository } from './jobs.repository.js';
import type { SyncJobRecoveryRepository } from './sync-job-recovery.repository.js';

const config = { processing: { jobMaxAttempts: 3 } } as AppConfig;

function orphan(jobId: string, type: JobRecord['type'], request: Record<string, unknown>) {
  return { jobId, orgId: `org_of_${jobId}`, type, isAsync: true, request } as JobRecord;
}

function setUp(orphans: JobRecord[]) {
  const steps: StartupStep[] = [];
  const workers = { onStartup: (step: StartupStep) => steps.push(step) };
  const jobs = {
    withoutTask: jest.fn(async (_kinds: readonly string[]) => orphans),
  };
  const syncJobs = {
    failOrphanedSyncJobs: jest.fn(async () => ['sync_1']),
    allowRetriesOfKeptSyncJobs: jest.fn(async (_kinds: readonly string[], _max: number) => 1),
  };
  const queue = new InlineQueueDriver();
  const add = jest.spyOn(queue, 'add');
  const sut = new JobReconciler(
    config,
    jobs as unknown as JobsRepository,
    syncJobs as unknown as SyncJobRecoveryRepository,
    queue,
    workers as unknown as LegacyWorkers,
  );
  sut.watch({ taskKind: 'classify', jobTypes: ['Classify'] });
  sut.watch({ taskKind: 'operation', jobTypes: ['Parse', 'Extract', 'Split'] });
  return { sut, steps, jobs, syncJobs, queue, add };
}

describe(JobReconciler.name, () => {
  it('fails orphaned sync jobs before recovery and requeues async orphans after it', async () => {
    const t = setUp([
      orphan('j1', 'Classify', {
        input: 'https://a.test/x.pdf',
        model: 'accurate',
        priority: true,
      }),
      orphan('j2', 'Split', {
        input: 'https://a.test/y.pdf',
        __kind: 'split',
        queue_priority: 'batch',
        async: { priority: true },
      }),
    ]);
    expect(t.steps).toHaveLength(1);
    await t.steps[0].beforeRecovery!();
    expect(t.syncJobs.failOrphanedSyncJobs).toHaveBeenCalledTimes(1);
    // Sync jobs kept for polling: their tasks get an async job's attempts before recovery.
    expect(t.syncJobs.allowRetriesOfKeptSyncJobs).toHaveBeenCalledWith(
      ['classify', 'operation'],
      3,
    );
    await t.steps[0].afterRecovery!();
    expect(t.jobs.withoutTask).toHaveBeenCalledWith(['classify', 'operation']);
    expect(t.add.mock.calls).toEqual([
      [
        { kind: 'classify', payload: { jobId: 'j1', operation: 'classify' } },
        { queue: 'cpu', lane: 'standard', maxAttempts: 3, deep: true, tenant: 'org_of_j1' },
      ],
      [
        { kind: 'operation', payload: { jobId: 'j2', operation: 'split' } },
        { queue: 'cpu', lane: 'batch', maxAttempts: 3, deep: false, tenant: 'org_of_j2' },
      ],
    ]);
  });

  it("requeues a sync job kept for polling with an async job's attempts, on its sync lane", async () => {
    const kept = { ...orphan('j4', 'Classify', { input: 'https://a.test/k.pdf' }) };
    kept.isAsync = false;
    kept.keptForPolling = true;
    const t = setUp([kept]);
    await t.steps[0].afterRecovery!();
    expect(t.add.mock.calls).toEqual([
      [
        { kind: 'classify', payload: { jobId: 'j4', operation: 'classify' } },
        { queue: 'cpu', lane: 'priority', maxAttempts: 3, deep: false, tenant: 'org_of_j4' },
      ],
    ]);
  });

  it('hands each requeued job to its pipeline as a validated command', async () => {
    const t = setUp([orphan('j3', 'Parse', { input: 'https://a.test/z.pdf', __kind: 'parse' })]);
    const ran: string[] = [];
    t.queue.work(commandType('operation', RunJobCommand), async (work) => {
      ran.push(work.payload.jobId);
    });
    await expect(t.sut.requeueOrphans()).resolves.toBe(1);
    await t.queue.drain();
    expect(ran).toEqual(['j3']);
  });

  it('queues nothing when every job has its task', async () => {
    const t = setUp([]);
    await expect(t.sut.requeueOrphans()).resolves.toBe(0);
    expect(t.add).not.toHaveBeenCalled();
  });
});
