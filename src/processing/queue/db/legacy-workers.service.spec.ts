import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { loadConfig } from '../../../config/app-config.js';
import type { DatabaseQueueRepository } from './database-queue.repository.js';
import type { QueueTask } from '../queue-task.js';
import type { ClaimFilter, Lane, QueueName } from '../../../config/queue.types.js';
import { LegacyWorkers } from './legacy-workers.service.js';

/** An in-memory queue that counts how often the workers ask it for work. */
class CountingDriver {
  claims = 0;
  private readonly tasks: { queue: QueueName; task: QueueTask; availableAt: number }[] = [];

  add(queue: QueueName, taskId: string, availableAt = Date.now(), lane: Lane = 'standard'): void {
    const task = { taskId, queue, lane, kind: 'work', payload: {}, attempts: 0 };
    this.tasks.push({ queue, task: task as unknown as QueueTask, availableAt });
  }

  /** Priority lane first, as the store claims; `filter.lanes` honoured. */
  claim(queue: QueueName, filter: ClaimFilter = {}): Promise<QueueTask | null> {
    this.claims++;
    const claimable = (t: (typeof this.tasks)[number]) =>
      t.queue === queue &&
      t.availableAt <= Date.now() &&
      (filter.lanes === undefined || filter.lanes.includes(t.task.lane));
    let i = this.tasks.findIndex((t) => claimable(t) && t.task.lane === 'priority');
    if (i < 0) i = this.tasks.findIndex(claimable);
    return Promise.resolve(i < 0 ? null : this.tasks.splice(i, 1)[0].task);
  }

  /** How long a read of the next due time takes (a slow store). */
  readDelayMs = 0;

  async nextAvailableAt(queue: QueueName, filter: ClaimFilter = {}): Promise<Date | null> {
    if (this.readDelayMs > 0) await sleep(this.readDelayMs);
    const times = this.tasks
      .filter((t) => t.queue === queue)
      .filter((t) => filter.lanes === undefined || filter.lanes.includes(t.task.lane))
      .map((t) => t.availableAt);
    return times.length ? new Date(Math.min(...times)) : null;
  }

  recoverInterrupted(): Promise<QueueTask[]> {
    return Promise.resolve([]);
  }

  complete(): Promise<void> {
    return Promise.resolve();
  }

  fail(): Promise<void> {
    return Promise.resolve();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Moves the fake clock, running every timer and the promises they settle on the way. */
const elapse = (ms: number) => jest.advanceTimersByTimeAsync(ms);

describe(LegacyWorkers.name, () => {
  let workers: LegacyWorkers | null = null;

  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  });

  afterEach(async () => {
    const stopping = workers?.onModuleDestroy();
    await elapse(2_000);
    await stopping;
    workers = null;
    jest.useRealTimers();
  });

  function start(
    driver: CountingDriver,
    running: { now: number; max: number },
    pollIntervalMs = 20,
    handle?: () => Promise<void>,
  ) {
    const config = loadConfig({
      QUEUE_POLL_INTERVAL_MS: String(pollIntervalMs),
      CPU_WORKER_CONCURRENCY: '2',
      IO_WORKER_CONCURRENCY: '8',
      WORKER_SHUTDOWN_GRACE_MS: '1000',
    });
    workers = new LegacyWorkers(driver as unknown as DatabaseQueueRepository, config);
    workers.register({
      kind: 'work',
      handle:
        handle ??
        (async () => {
          running.max = Math.max(running.max, ++running.now);
          await sleep(100);
          running.now--;
        }),
    });
    return workers.onApplicationBootstrap();
  }

  it('polls the store with one loop per worker kind while idle, not with every loop', async () => {
    const driver = new CountingDriver();
    await start(driver, { now: 0, max: 0 });
    await elapse(400);
    // 10 loops at a 20 ms interval would ask about 200 times; two pollers about 40.
    expect(driver.claims).toBeLessThan(80);
    expect(driver.claims).toBeGreaterThanOrEqual(10);
  });

  it('backs off to eight intervals between polls of an empty store, still finding work added without a wake', async () => {
    const driver = new CountingDriver();
    const running = { now: 0, max: 0 };
    await start(driver, running);
    await elapse(1_000);
    const before = driver.claims;
    await elapse(1_600);
    // Every 20 ms, each poller would ask 80 times in 1.6 s; at eight intervals, about 10.
    const pollers = 2; // the cpu and io worker kinds of this configuration
    expect(driver.claims - before).toBeLessThanOrEqual(pollers * 12);
    expect(driver.claims - before).toBeGreaterThanOrEqual(pollers * 8);
    // A task written without an enqueue's wake is found within eight intervals.
    driver.add('io', 'unannounced');
    await elapse(8 * 20 + 20);
    expect(running.max).toBe(1);
  });

  it('still runs work that comes due without an enqueue on several loops at once', async () => {
    const driver = new CountingDriver();
    const dueAt = Date.now() + 60;
    for (let i = 0; i < 5; i++) driver.add('io', `retry-${i}`, dueAt);
    const running = { now: 0, max: 0 };
    await start(driver, running);
    await elapse(250);
    expect(running.max).toBe(5);
  });

  it('wakes every loop of a queue on an enqueue', async () => {
    const driver = new CountingDriver();
    const running = { now: 0, max: 0 };
    await start(driver, running);
    await elapse(50);
    for (let i = 0; i < 8; i++) driver.add('io', `new-${i}`);
    workers!.notify('io');
    await elapse(50);
    expect(running.max).toBe(8);
  });

  it('runs a retry a task scheduled sooner than the poller will look, on time', async () => {
    const driver = new CountingDriver();
    const ranAt: number[] = [];
    const handle = () => {
      ranAt.push(Date.now());
      // The first attempt fails and asks for a retry in 50 ms (webhook back-off).
      if (ranAt.length === 1) driver.add('io', 'retry', Date.now() + 50);
      return Promise.resolve();
    };
    await start(driver, { now: 0, max: 0 }, 2_000, handle);
    await elapse(50); // every loop idle, one of them polling with a 2 s timer
    driver.add('io', 'first');
    workers!.notify('io');
    await elapse(300);
    expect(ranAt).toHaveLength(2);
    expect(ranAt[1] - ranAt[0]).toBeLessThan(200);
  });

  it('keeps a cpu loop for priority work while it arrives, and gives it back when the hold lapses', async () => {
    const driver = new CountingDriver();
    const config = loadConfig({
      QUEUE_POLL_INTERVAL_MS: '20',
      CPU_WORKER_CONCURRENCY: '2',
      WORKER_PRIORITY_RESERVE_HOLD_MS: '1000',
      WORKER_SHUTDOWN_GRACE_MS: '1000',
    });
    workers = new LegacyWorkers(driver as unknown as DatabaseQueueRepository, config);
    const running = new Map<string, number>();
    const started: string[] = [];
    workers.register({
      kind: 'work',
      handle: async (task) => {
        started.push(task.taskId);
        running.set(task.lane, (running.get(task.lane) ?? 0) + 1);
        await sleep(task.lane === 'priority' ? 10 : 400);
        running.set(task.lane, running.get(task.lane)! - 1);
      },
    });
    await workers.onApplicationBootstrap();
    const add = (taskId: string, lane: Lane) => {
      driver.add('cpu', taskId, Date.now(), lane);
      workers!.notify('cpu', lane);
    };
    let standardAtOnce = 0;
    const watch = setInterval(
      () => (standardAtOnce = Math.max(standardAtOnce, running.get('standard') ?? 0)),
      5,
    );

    add('sync-1', 'priority');
    await elapse(50);
    for (let i = 0; i < 4; i++) add(`async-${i}`, 'standard');
    await elapse(100);
    // Within the hold, standard work holds one loop of two; a priority task starts at once.
    expect(running.get('standard')).toBe(1);
    add('sync-2', 'priority');
    await elapse(30);
    expect(started).toContain('sync-2');
    expect(running.get('standard')).toBe(1);
    // Once no priority work came for the hold, standard work takes both loops again.
    await elapse(1_500);
    expect(standardAtOnce).toBe(2);
    clearInterval(watch);
  });

  it('stops at once even when shutdown comes while idle loops are reading the store', async () => {
    const driver = new CountingDriver();
    driver.readDelayMs = 50;
    await start(driver, { now: 0, max: 0 }, 10_000);
    await elapse(10); // loops are inside their first read
    let stopped = false;
    const stopping = workers!.onModuleDestroy().then(() => (stopped = true));
    workers = null;
    // The reads end 40 ms later; the shutdown must not wait for a 10 s poll timer.
    await elapse(100);
    expect(stopped).toBe(true);
    await stopping;
  });
});
