import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ExecutorSettings } from '../../config/processing.config.js';
import { setDocumentLimits } from '../readers/document-limits.js';
import { setOcrLanguages } from '../readers/ocr-languages.js';
import { ExecutorCrashedError, ExecutorLimitError } from './executor.errors.js';
import { type ExecutorExit, ExecutorProcess, type TaskOutcome } from './executor.process.js';
import { deserializeError } from './task-reply.js';
import { memoryReport } from './executor-memory.js';
import { DEFAULT_EXECUTOR_SETTINGS, type TaskPoolOptions } from './task-pool.options.js';
export type { ExecutorMemoryReport } from './executor-memory.js';
export { poolOptionsFrom, type TaskPoolOptions } from './task-pool.options.js';

/** How often the parent reads a busy executor's resident size. */
const RSS_WATCH_MS = 200;

interface TaskPoolDefinition<T, R> {
  /** The compiled executor entry (a `serveTasks(...)` module), next to the caller. */
  workerUrl: URL;
  /** The same work in this process (inline mode). */
  runInline: (task: T) => Promise<R>;
  /** warmExecutors when the options give none. */
  defaultWarmExecutors?: number;
}

interface Waiter {
  resolve(executor: ExecutorProcess): void;
  reject(error: unknown): void;
}

function compiledEntry(url: URL): string | undefined {
  if (url.protocol !== 'file:') return undefined;
  const file = fileURLToPath(url);
  return fs.existsSync(file) ? file : undefined;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The task was cancelled', 'AbortError');
}

/**
 * A supervised pool of executor child processes for document work (decoders, OCR, NLP), so
 * a native abort, an out-of-memory or a stuck task ends only that task's process, never
 * the API's. Each executor runs one task at a time under a V8 heap ceiling, an RSS watchdog
 * and a wall-clock limit; past either limit the executor is killed and the task fails with
 * an ExecutorLimitError naming the setting. A task whose executor dies otherwise is retried
 * once on a fresh executor, then fails with ExecutorCrashedError. `warmExecutors` start with
 * the service (warmUp) and stay loaded; others start on demand and exit after `idleMs`, and
 * one whose resident size grew past `recycleRssMb` is replaced after its task, so memory
 * returns to idle.
 * Typed document errors thrown in an executor are re-thrown here as the same classes.
 */
export class TaskPool<T, R> {
  readonly inline: boolean;
  private readonly runInline: (task: T) => Promise<R>;
  private readonly entry: string | undefined;
  private readonly settings: ExecutorSettings;
  private readonly maxExecutors: number;
  private readonly warmExecutors: number;
  private readonly spareExecutors: number;
  private readonly executors = new Set<ExecutorProcess>();
  private readonly idle: ExecutorProcess[] = [];
  private readonly waiters: Waiter[] = [];
  private closed = false;
  /** Warm executors started by warmUp that have not finished loading. */
  private loading = 0;

  constructor(
    definition: TaskPoolDefinition<T, R>,
    private readonly options: TaskPoolOptions = {},
  ) {
    this.runInline = definition.runInline;
    this.entry = options.entry ?? compiledEntry(definition.workerUrl);
    this.inline = options.inline ?? (Boolean(process.env.JEST_WORKER_ID) || !this.entry);
    this.settings = { ...DEFAULT_EXECUTOR_SETTINGS, ...options.settings };
    this.maxExecutors = Math.max(1, options.maxExecutors ?? 1);
    this.warmExecutors = Math.min(
      options.warmExecutors ?? definition.defaultWarmExecutors ?? 1,
      this.maxExecutors,
    );
    this.spareExecutors = Math.min(options.spareExecutors ?? 0, this.maxExecutors);
  }

  /** Live executor processes (0 inline, and before the first task). */
  get processes(): number {
    return this.executors.size;
  }

  /** Process ids of the live executors (operators, tests). */
  get pids(): number[] {
    return [...this.executors].map((e) => e.pid).filter((pid): pid is number => pid !== undefined);
  }

  /** Tasks waiting for a free executor. */
  get queueSize(): number {
    return this.waiters.length;
  }

  async run(task: T, signal?: AbortSignal): Promise<R> {
    if (this.inline) {
      signal?.throwIfAborted();
      setDocumentLimits(this.options.limits);
      setOcrLanguages(this.options.ocrLanguages);
      return this.runInline(task);
    }
    let first: ExecutorExit | undefined;
    for (;;) {
      const attempt = await this.attempt(task, signal);
      if (attempt.kind === 'reply') {
        if (!attempt.reply.ok) throw deserializeError(attempt.reply.error);
        return attempt.reply.result as R;
      }
      if (first) {
        throw new ExecutorCrashedError(
          `Processing the document ended its executor process twice (${describeExit(first)}, ` +
            `then ${describeExit(attempt.exit)}); the document cannot be processed`,
        );
      }
      first = attempt.exit;
    }
  }

  /**
   * Starts the warm executors now, in the background, so the first task after a start does
   * not wait the 1-2 s an executor takes to load. Nothing waits for them; an executor that
   * cannot start is forgotten, and the first task starts one and reports the failure.
   */
  warmUp(): void {
    if (this.inline || this.closed) return;
    for (let started = this.executors.size; started < this.warmExecutors; started++) {
      this.loading++;
      void this.start().then((executor) => {
        this.loading--;
        this.release(executor);
      });
    }
  }

  /**
   * Starts executors in the background until `spareExecutors` are idle or loading (at most
   * maxExecutors in all): the task that next finds the busy ones taken (a priority worker's
   * sync request beside a backlog) takes a loaded one instead of waiting for a start.
   */
  private keepSpare(): void {
    while (
      !this.closed &&
      this.idle.length + this.loading < this.spareExecutors &&
      this.executors.size < this.maxExecutors
    ) {
      this.loading++;
      void this.start().then((executor) => {
        this.loading--;
        this.release(executor);
      });
    }
  }

  /** Ends every executor; tasks waiting for one are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error('The pool is closed'));
    const exits = [...this.executors].map((e) => {
      e.kill();
      return e.exited;
    });
    await Promise.all(exits);
    // Imported only here: the API process, whose tasks run in executors, never loads OCR.
    if (this.inline) await (await import('../readers/ocr.engine.js')).terminateOcr();
  }

  /** One run of the task on one executor, under the pool's limits. */
  private async attempt(task: T, signal?: AbortSignal): Promise<TaskOutcome> {
    const executor = await this.acquire(signal);
    this.keepSpare();
    const { taskTimeLimitMs, rssLimitMb } = this.settings;
    let timer: NodeJS.Timeout | undefined;
    let watch: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    let answered = false;
    try {
      return await new Promise<TaskOutcome>((resolve, reject) => {
        const stop = (error: unknown) => {
          executor.kill();
          reject(error);
        };
        const sent = executor.send(
          task,
          this.options.limits,
          this.options.ocrLanguages,
          this.settings.recycleRssMb,
        );
        void sent.then((outcome) => {
          if (outcome.kind === 'exit' && outcome.exit.heapExhausted) {
            reject(
              new ExecutorLimitError(
                'EXECUTOR_MEMORY_LIMIT',
                `Processing the document needed more than the executor's ${this.settings.heapMb} MB heap (EXECUTOR_HEAP_MB)`,
                413,
              ),
            );
          } else {
            answered = outcome.kind === 'reply';
            resolve(outcome);
          }
        });
        timer = setTimeout(
          () =>
            stop(
              new ExecutorLimitError(
                'TASK_TIME_LIMIT',
                `Processing the document took longer than ${taskTimeLimitMs} ms (TASK_TIME_LIMIT_MS); it was stopped`,
                422,
              ),
            ),
          taskTimeLimitMs,
        );
        watch = setInterval(() => {
          const rss = executor.rss();
          if (rss > rssLimitMb * 1024 * 1024) {
            stop(
              new ExecutorLimitError(
                'EXECUTOR_MEMORY_LIMIT',
                `Processing the document used ${Math.round(rss / 1048576)} MB, more than ${rssLimitMb} MB (EXECUTOR_RSS_LIMIT_MB); it was stopped`,
                413,
              ),
            );
          }
        }, RSS_WATCH_MS);
        if (signal) {
          onAbort = () => stop(abortError(signal));
          if (signal.aborted) onAbort();
          else signal.addEventListener('abort', onAbort, { once: true });
        }
      });
    } finally {
      clearTimeout(timer);
      clearInterval(watch);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      if (answered) this.afterTask(executor);
      else this.release(executor);
    }
  }

  /** A ready executor: an idle one, a new one if below the maximum, else the next one freed. */
  private async acquire(signal?: AbortSignal): Promise<ExecutorProcess> {
    signal?.throwIfAborted();
    if (this.closed) throw new Error('The pool is closed');
    const idle = this.idle.pop();
    if (idle) {
      clearTimeout(idle.idleTimer);
      return idle;
    }
    // A warm executor still loading is nearer than a new one: the task waits for it.
    if (this.loading <= this.waiters.length && this.executors.size < this.maxExecutors) {
      return this.start(signal);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (executor) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(executor);
        },
        reject,
      };
      const onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(abortError(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private async start(signal?: AbortSignal): Promise<ExecutorProcess> {
    const executor = new ExecutorProcess({
      entry: this.entry!,
      heapMb: this.settings.heapMb,
      nice: this.settings.nice,
      execArgv: this.options.execArgv,
    });
    this.executors.add(executor);
    void executor.exited.then(() => this.forget(executor));
    if (signal) {
      const aborted = new Promise<never>((_, reject) =>
        signal.addEventListener('abort', () => reject(abortError(signal)), { once: true }),
      );
      aborted.catch(() => undefined);
      // A warming executor stays: it serves the next task.
      await Promise.race([executor.ready.catch(() => undefined), aborted]).catch((error) => {
        this.release(executor);
        throw error;
      });
    } else {
      await executor.ready.catch(() => undefined);
    }
    // An executor that died while starting is handed out anyway: the attempt sees its exit
    // as a crash, so a broken entry fails tasks instead of respawning forever.
    return executor;
  }

  /** Whether an executor is past the recycle size after its last task (replaced then). */
  private oversized(executor: ExecutorProcess): boolean {
    return executor.alive && executor.lastRss > this.settings.recycleRssMb * 1024 * 1024;
  }

  /**
   * After a task it answered: once the executor has let go of what it holds between tasks
   * (when it was above the recycle size), its memory is reported and it is released, so the
   * recycle is judged on the size it rests at. Meanwhile it takes no task.
   */
  private afterTask(executor: ExecutorProcess): void {
    const done = () => {
      this.options.onTaskMemory?.(memoryReport(executor, this.settings, this.oversized(executor)));
      this.release(executor);
    };
    if (executor.resting) void executor.resting.then(done);
    else done();
  }

  /** After a task: back to work, idle, or replaced when it died or grew too large. */
  private release(executor: ExecutorProcess): void {
    const recycled = this.oversized(executor);
    // Still `alive` right after the kill (its exit is reported later): not handed out again.
    if (recycled || !executor.alive || this.closed) {
      this.forget(executor);
      executor.kill();
      // A freed slot: the next waiting task gets a fresh executor.
      const waiter = this.waiters.shift();
      if (waiter && !this.closed) this.start().then(waiter.resolve, waiter.reject);
      // A recycled warm executor is replaced now, not by the next task's wait for a start.
      // Only a recycled one: an executor that died would make a broken entry respawn forever.
      else if (recycled && !this.closed && this.executors.size < this.warmExecutors) {
        void this.start().then((fresh) => this.release(fresh));
      }
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) return waiter.resolve(executor);
    this.idle.push(executor);
    if (this.executors.size > this.warmExecutors) {
      executor.idleTimer = setTimeout(() => this.retireIdle(executor), this.settings.idleMs);
      executor.idleTimer.unref();
    }
  }

  /**
   * An idle executor past `idleMs` exits unless that would leave fewer than `warmExecutors`:
   * every executor released while others were up has a timer, so without the count at
   * expiry a quiet minute after a burst ended all of them, and the next request waited for
   * a start. Forgotten at once, so timers expiring together count each other's exits.
   */
  private retireIdle(executor: ExecutorProcess): void {
    if (this.executors.size <= this.warmExecutors || this.idle.length <= this.spareExecutors)
      return;
    this.forget(executor);
    executor.kill();
  }

  private forget(executor: ExecutorProcess): void {
    this.executors.delete(executor);
    const index = this.idle.indexOf(executor);
    if (index >= 0) this.idle.splice(index, 1);
  }
}

function describeExit(exit: ExecutorExit): string {
  return exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
}
