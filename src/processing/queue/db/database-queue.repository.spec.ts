import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../../config/app-config.js';
import { DuckDbService } from '../../../database/duckdb.service.js';
import { MigrationRunner } from '../../../database/migration-runner.js';
import { DatabaseQueueRepository } from './database-queue.repository.js';
import type { ClaimFilter } from '../../../config/queue.types.js';

/** The database queue against a real DuckDB file with the migrations applied. */
describe(DatabaseQueueRepository.name, () => {
  let dir: string;
  let db: DuckDbService;
  let sut: DatabaseQueueRepository;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-queue-'));
    db = new DuckDbService(loadConfig({ DATA_DIR: dir }));
    await db.open();
    await new MigrationRunner(db).migrate();
    sut = new DatabaseQueueRepository(db);
  });
  afterEach(() => {
    db.onApplicationShutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('claims priority before standard before batch, oldest first within a lane', async () => {
    await sut.enqueue('cpu', 'k', { n: 'batch' }, { lane: 'batch' });
    await sut.enqueue('cpu', 'k', { n: 'standard-1' }, { lane: 'standard' });
    await sut.enqueue('cpu', 'k', { n: 'standard-2' }, { lane: 'standard' });
    await sut.enqueue('cpu', 'k', { n: 'priority' }, { lane: 'priority' });
    await sut.enqueue('io', 'k', { n: 'other-queue' }, { lane: 'priority' });
    const order: unknown[] = [];
    for (let task = await sut.claim('cpu'); task; task = await sut.claim('cpu')) {
      order.push((task.payload as { n: string }).n);
    }
    expect(order).toEqual(['priority', 'standard-1', 'standard-2', 'batch']);
  });

  it('shares the workers between tenants: the tenant with the fewest tasks running goes first', async () => {
    for (let n = 1; n <= 5; n++) {
      await sut.enqueue('cpu', 'k', { n: `a-${n}` }, { lane: 'priority', tenant: 'org-a' });
    }
    const taken = async () => ((await sut.claim('cpu'))?.payload as { n: string }).n;
    // org-a alone: its oldest tasks, as many as there are workers.
    expect([await taken(), await taken()]).toEqual(['a-1', 'a-2']);
    // Queued behind org-a's backlog, org-b's task (and the service's own, without a
    // tenant) is the next one taken, then the lane's order resumes.
    await sut.enqueue('cpu', 'k', { n: 'b-1' }, { lane: 'priority', tenant: 'org-b' });
    await sut.enqueue('cpu', 'k', { n: 'own' }, { lane: 'priority' });
    await sut.enqueue('cpu', 'k', { n: 'b-2' }, { lane: 'priority', tenant: 'org-b' });
    expect(await taken()).toBe('b-1');
    expect(await taken()).toBe('own');
    // org-b now runs one task, org-a two: org-b's next one still goes first.
    expect(await taken()).toBe('b-2');
    expect([await taken(), await taken(), await taken()]).toEqual(['a-3', 'a-4', 'a-5']);
    // A better lane still wins over a tenant with fewer tasks running.
    await sut.enqueue('cpu', 'k', { n: 'c-standard' }, { lane: 'standard', tenant: 'org-c' });
    await sut.enqueue('cpu', 'k', { n: 'a-priority' }, { lane: 'priority', tenant: 'org-a' });
    expect([await taken(), await taken()]).toEqual(['a-priority', 'c-standard']);
  });

  it('reports depth per queue and lane (queued + running) and drained', async () => {
    await sut.enqueue('cpu', 'k', {}, { lane: 'standard' });
    await sut.enqueue('cpu', 'k', {}, { lane: 'priority' });
    await sut.enqueue('io', 'k', {}, { lane: 'batch' });
    const running = await sut.claim('cpu');
    const depth = await sut.depth('cpu');
    expect(depth.active).toBe(2);
    expect(depth.lanes).toEqual({
      priority: { queued: 0, running: 1 },
      standard: { queued: 1, running: 0 },
      batch: { queued: 0, running: 0 },
    });
    expect((await sut.depth('io')).active).toBe(1);
    expect(await sut.drained()).toBe(false);
    await sut.complete(running!);
    for (const q of ['cpu', 'io'] as const)
      for (let t = await sut.claim(q); t; t = await sut.claim(q)) await sut.complete(t);
    expect(await sut.drained()).toBe(true);
  });

  it('delays retried tasks until their time', async () => {
    await sut.enqueue('io', 'k', {}, { lane: 'standard' });
    const task = (await sut.claim('io'))!;
    await sut.fail(task, 'HTTP 500', new Date(Date.now() + 60_000));
    expect(await sut.claim('io')).toBeNull();
    expect((await sut.nextAvailableAt('io'))!.getTime()).toBeGreaterThan(Date.now());
  });

  it('re-queues tasks left running while attempts remain, and returns the exhausted ones', async () => {
    await sut.enqueue('cpu', 'k', { n: 'retry' }, { lane: 'standard', maxAttempts: 2 });
    await sut.enqueue('cpu', 'k', { n: 'give-up' }, { lane: 'standard', maxAttempts: 1 });
    await sut.claim('cpu');
    await sut.claim('cpu');
    const exhausted = await sut.recoverInterrupted();
    expect(exhausted.map((t) => t.payload)).toEqual([{ n: 'give-up' }]);
    const again = await sut.claim('cpu');
    expect(again).toMatchObject({ payload: { n: 'retry' }, attempts: 2 });
    expect(await sut.claim('cpu')).toBeNull();
  });

  describe('worker kinds (claim filters)', () => {
    async function enqueueMix(): Promise<void> {
      await sut.enqueue('cpu', 'k', { n: 'standard' }, { lane: 'standard' });
      await sut.enqueue('cpu', 'k', { n: 'standard-deep' }, { lane: 'standard', deep: true });
      await sut.enqueue('cpu', 'k', { n: 'priority' }, { lane: 'priority' });
      await sut.enqueue('cpu', 'k', { n: 'priority-deep' }, { lane: 'priority', deep: true });
      await sut.enqueue('cpu', 'k', { n: 'batch' }, { lane: 'batch' });
    }

    async function drain(filter: ClaimFilter): Promise<unknown[]> {
      const taken: unknown[] = [];
      for (let task = await sut.claim('cpu', filter); task; task = await sut.claim('cpu', filter))
        taken.push((task.payload as { n: string }).n);
      return taken;
    }

    it('gives the gpu worker deep work only, priority lane first', async () => {
      await enqueueMix();
      expect(await drain({ deep: 'only' })).toEqual(['priority-deep', 'standard-deep']);
      expect(await drain({})).toEqual(['priority', 'standard', 'batch']);
    });

    it('keeps deep work from the worker while a gpu worker runs', async () => {
      await enqueueMix();
      expect(await drain({ deep: 'exclude' })).toEqual(['priority', 'standard', 'batch']);
      expect(await drain({ deep: 'only' })).toEqual(['priority-deep', 'standard-deep']);
    });

    it('gives the priority worker the priority lane only', async () => {
      await enqueueMix();
      expect(await drain({ lanes: ['priority'], deep: 'exclude' })).toEqual(['priority']);
      expect(await drain({ lanes: ['priority'] })).toEqual(['priority-deep']);
      expect(await sut.nextAvailableAt('cpu', { lanes: ['priority'] })).toBeNull();
      expect(await sut.nextAvailableAt('cpu')).not.toBeNull();
      expect(await drain({})).toEqual(['standard', 'standard-deep', 'batch']);
    });

    it('hands handlers their payload without the deep mark', async () => {
      await sut.enqueue('cpu', 'k', { jobId: 'j1' }, { lane: 'standard', deep: true });
      const task = await sut.claim('cpu', { deep: 'only' });
      expect(task?.payload).toEqual({ jobId: 'j1' });
    });
  });
});
