import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import {
  ExecutorCrashedError,
  ExecutorLimitError,
} from '../../src/documents/executors/executor.errors.js';
import {
  type ExecutorMemoryReport,
  TaskPool,
  type TaskPoolOptions,
} from '../../src/documents/executors/task.pool.js';
import type { TestTask } from '../support/test-executor.js';
import { negativeWindow, waitFor } from '../support/wait.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The pool on real child processes running test-executor.ts through the TypeScript loader. */
function pool(options: TaskPoolOptions = {}): TaskPool<TestTask, unknown> {
  return new TaskPool<TestTask, unknown>(
    {
      workerUrl: new URL('file:///nonexistent.js'),
      runInline: () => Promise.reject(new Error('inline is not used here')),
    },
    {
      inline: false,
      entry: path.join(ROOT, 'test/support/test-executor.ts'),
      execArgv: ['--import', path.join(ROOT, 'test/support/ts-register.mjs')],
      ...options,
    },
  );
}

const pools: TaskPool<TestTask, unknown>[] = [];
function track(p: TaskPool<TestTask, unknown>): TaskPool<TestTask, unknown> {
  pools.push(p);
  return p;
}

afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Each executor compiles test-executor.ts through the TypeScript loader as it starts, at a lower
// scheduling priority (nice 10): on a loaded machine that takes far longer than jest's default
// 30 s per test allows.
jest.setTimeout(180_000);

describe('TaskPool executor processes', () => {
  it('runs tasks in a child process, reused while warm', async () => {
    const p = track(pool());
    expect(p.processes).toBe(0);
    expect(await p.run({ kind: 'echo', value: 'hello' })).toBe('hello');
    const pid = (await p.run({ kind: 'pid' })) as number;
    expect(pid).not.toBe(process.pid);
    expect(p.pids).toEqual([pid]);
  });

  it('starts the warm executors before the first task, which runs on one of them', async () => {
    const p = track(pool({ maxExecutors: 3, warmExecutors: 2 }));
    p.warmUp();
    await waitFor('the two warm executors to start', () => p.processes === 2, 30_000, 20);
    const warm = p.pids;
    expect(warm).toHaveLength(2);
    expect(warm).toContain(await p.run({ kind: 'pid' }));
    expect(p.pids).toEqual(warm);
  });

  it('gives a task that arrives while the warm executor loads that executor, not another', async () => {
    const p = track(pool({ maxExecutors: 2, warmExecutors: 1 }));
    p.warmUp();
    const [warm] = p.pids;
    expect(await p.run({ kind: 'pid' })).toBe(warm);
    expect(p.pids).toEqual([warm]);
  });

  it('retries a task that kills its executor once, on a fresh executor', async () => {
    const p = track(pool());
    const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-exec-')), 'crashed');
    expect(await p.run({ kind: 'abort-once', marker })).toBe('second attempt');
  });

  it('fails a task that kills its executor twice with a clear error, and keeps serving', async () => {
    const p = track(pool());
    const error = await p.run({ kind: 'abort' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExecutorCrashedError);
    expect((error as Error).message).toMatch(/ended its executor process twice \(signal SIGABRT/);
    expect(await p.run({ kind: 'echo', value: 'still here' })).toBe('still here');
  });

  it('stops a stuck task at the wall-clock limit and replaces its executor', async () => {
    const p = track(pool({ settings: { taskTimeLimitMs: 1_500 } }));
    const before = (await p.run({ kind: 'pid' })) as number;
    const started = Date.now();
    const error = await p.run({ kind: 'hang' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExecutorLimitError);
    expect(error).toMatchObject({ code: 'TASK_TIME_LIMIT', status: 422 });
    // Stopped by the limit given here (the message names it), not by the default 120 s one.
    expect((error as Error).message).toContain('1500 ms (TASK_TIME_LIMIT_MS)');
    // A hang would never end: the bound stays under the default limit and leaves a loaded
    // machine all the room it needs past the 1.5 s one.
    expect(Date.now() - started).toBeLessThan(60_000);
    const after = (await p.run({ kind: 'pid' })) as number;
    expect(after).not.toBe(before);
    expect(alive(before)).toBe(false);
  });

  it('stops a task past the RSS limit, and one past the heap ceiling, naming the setting', async () => {
    const p = track(pool({ settings: { rssLimitMb: 300, heapMb: 128 } }));
    const native = await p.run({ kind: 'grow-native' }).catch((e: unknown) => e);
    expect(native).toMatchObject({ code: 'EXECUTOR_MEMORY_LIMIT', status: 413 });
    expect((native as Error).message).toContain('EXECUTOR_RSS_LIMIT_MB');
    const heap = await p.run({ kind: 'grow-heap' }).catch((e: unknown) => e);
    expect(heap).toMatchObject({ code: 'EXECUTOR_MEMORY_LIMIT' });
    expect((heap as Error).message).toMatch(/EXECUTOR_(HEAP|RSS_LIMIT)_MB/);
    expect(await p.run({ kind: 'echo', value: 'recovered' })).toBe('recovered');
  }, 60_000);

  it('starts executors that leave no core file when V8 aborts at the heap ceiling', async () => {
    const p = track(pool());
    const pid = (await p.run({ kind: 'pid' })) as number;
    const limits = fs.readFileSync(`/proc/${pid}/limits`, 'utf8');
    expect(limits).toMatch(/^Max core file size\s+0\s+0\s+bytes/m);
    expect(fs.readlinkSync(`/proc/${pid}/exe`)).toBe(fs.realpathSync(process.execPath));
  });

  it('starts executors with two malloc arenas unless the environment says otherwise', async () => {
    const environmentOf = (pid: number) =>
      fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const before = process.env.MALLOC_ARENA_MAX;
    try {
      delete process.env.MALLOC_ARENA_MAX;
      const pid = (await track(pool()).run({ kind: 'pid' })) as number;
      expect(environmentOf(pid)).toContain('MALLOC_ARENA_MAX=2');
      process.env.MALLOC_ARENA_MAX = '4';
      const own = (await track(pool()).run({ kind: 'pid' })) as number;
      expect(environmentOf(own)).toContain('MALLOC_ARENA_MAX=4');
    } finally {
      if (before === undefined) delete process.env.MALLOC_ARENA_MAX;
      else process.env.MALLOC_ARENA_MAX = before;
    }
  });

  it('cancelling a running task ends its executor; a queued one never starts', async () => {
    const p = track(pool({ maxExecutors: 1 }));
    const pid = (await p.run({ kind: 'pid' })) as number;
    const running = new AbortController();
    const queued = new AbortController();
    const first = p.run({ kind: 'hang' }, running.signal).catch((e: unknown) => e);
    const second = p.run({ kind: 'hang' }, queued.signal).catch((e: unknown) => e);
    expect(p.queueSize).toBe(1);
    queued.abort();
    expect(await second).toMatchObject({ name: 'AbortError' });
    expect(p.queueSize).toBe(0);
    running.abort();
    expect(await first).toMatchObject({ name: 'AbortError' });
    await waitFor(`executor ${pid} to exit`, () => !alive(pid), 30_000, 20);
    expect(await p.run({ kind: 'echo', value: 'next' })).toBe('next');
  });

  it('keeps the warm executors after a burst has gone quiet for longer than the idle time', async () => {
    const idleMs = 1_000;
    const p = track(pool({ maxExecutors: 2, warmExecutors: 1, settings: { idleMs } }));
    const pids = (await Promise.all([p.run({ kind: 'pid' }), p.run({ kind: 'pid' })])) as number[];
    expect(new Set(pids).size).toBe(2);
    await waitFor('the executor beyond the warm one to exit', () => p.processes === 1, 30_000, 20);
    // Both idle timers have expired by now; the warm executor must not have followed.
    await negativeWindow(3 * idleMs);
    expect(p.processes).toBe(1);
    const [kept] = p.pids;
    expect(pids).toContain(kept);
    expect(alive(kept)).toBe(true);
    expect(await p.run({ kind: 'pid' })).toBe(kept);
  });

  it('replaces a warm executor recycled for its size before the next task asks for one', async () => {
    const p = track(pool({ maxExecutors: 1, warmExecutors: 1, settings: { recycleRssMb: 1 } }));
    const recycled = (await p.run({ kind: 'pid' })) as number;
    await waitFor(
      'a fresh executor in place of the recycled one',
      () => p.pids.length === 1 && p.pids[0] !== recycled,
      60_000,
      20,
    );
    await waitFor(`recycled executor ${recycled} to exit`, () => !alive(recycled), 30_000, 20);
  });

  it('answers every task that takes its executor past the recycle size, queued ones too, and reports each peak', async () => {
    const reports: ExecutorMemoryReport[] = [];
    const p = track(
      pool({
        maxExecutors: 1,
        warmExecutors: 1,
        settings: { recycleRssMb: 64 },
        onTaskMemory: (report) => reports.push(report),
      }),
    );
    // Started together on one executor: three wait while each one before them is recycled.
    const pids = await Promise.all([1, 2, 3, 4].map(() => p.run({ kind: 'keep-native', mb: 96 })));
    expect(new Set(pids).size).toBe(4);
    // The last report comes once its executor has tried to let go of what it holds.
    await waitFor('every task reported', () => reports.length === 4, 60_000, 20);
    expect(reports.map((r) => r.pid)).toEqual(pids);
    for (const report of reports) {
      expect(report).toMatchObject({ recycled: true, recycleRssMb: 64 });
      expect(report.rssMb).toBeGreaterThan(96);
      expect(report.peakMb).toBeGreaterThanOrEqual(report.rssMb);
    }
    // Below the size an executor is kept, and says so.
    const kept = track(pool({ maxExecutors: 1, onTaskMemory: (report) => reports.push(report) }));
    const first = await kept.run({ kind: 'pid' });
    expect(await kept.run({ kind: 'pid' })).toBe(first);
    await waitFor('both tasks reported', () => reports.length === 6, 60_000, 20);
    expect(reports.slice(4).map((r) => r.recycled)).toEqual([false, false]);
  });

  it('keeps an executor whose release brings it back below the recycle size, its answer unchanged', async () => {
    const reports: ExecutorMemoryReport[] = [];
    const p = track(
      pool({
        maxExecutors: 1,
        settings: { recycleRssMb: 400 },
        execArgv: ['--import', path.join(ROOT, 'test/support/ts-register.mjs'), '--expose-gc'],
        onTaskMemory: (report) => reports.push(report),
      }),
    );
    const first = await p.run({ kind: 'keep-native', mb: 512, releasable: true });
    await waitFor('the first task reported', () => reports.length === 1, 60_000, 20);
    expect(reports[0].rssMb).toBeGreaterThan(512);
    expect(reports[0].restedMb).toBeLessThan(400);
    expect(reports[0].recycled).toBe(false);
    // The same executor takes the next task: it was kept, not replaced.
    expect(await p.run({ kind: 'keep-native', mb: 512 })).toBe(first);
    await waitFor('the second task reported', () => reports.length === 2, 60_000, 20);
    // What it cannot let go of keeps it above: replaced, as before.
    expect(reports[1]).toMatchObject({ recycled: true });
    expect(reports[1].restedMb).toBeGreaterThan(400);
  });

  it('keeps a spare executor loaded beside busy ones, past the idle time, until work ends', async () => {
    const idleMs = 200;
    const p = track(
      pool({ maxExecutors: 3, warmExecutors: 1, spareExecutors: 1, settings: { idleMs } }),
    );
    const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-spare-')), 'done');
    const busy = [p.run({ kind: 'until', marker }), p.run({ kind: 'until', marker })];
    await waitFor('a third executor beside the two busy ones', () => p.processes === 3, 60_000, 20);
    await negativeWindow(3 * idleMs);
    expect(p.processes).toBe(3);
    // The spare takes the next task at once, while both others are still busy.
    const spare = (await p.run({ kind: 'pid' })) as number;
    fs.writeFileSync(marker, '');
    const busyPids = (await Promise.all(busy)) as number[];
    expect(busyPids).not.toContain(spare);
    // Quiet again: back to the warm one.
    await waitFor('the pool back to one executor', () => p.processes === 1, 60_000, 20);
  });
});
