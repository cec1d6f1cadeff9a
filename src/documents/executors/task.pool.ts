import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { terminateOcr } from '../readers/ocr.engine.js';
import { deserializeError, type TaskReply } from './task-reply.js';

export interface TaskPoolOptions {
  /** Worker threads (default: CPU cores - 1, at least 1). */
  maxThreads?: number;
  /** Threads kept alive when idle (default: the pool's own default, at most maxThreads). */
  minThreads?: number;
  /** ms an idle extra thread is kept (default 60 s). */
  idleTimeout?: number;
  /**
   * Run tasks on the calling thread instead of worker threads. Default: true under jest
   * (its TypeScript transform does not reach worker threads) and when the compiled worker
   * file is missing (running from TypeScript sources); false otherwise.
   */
  inline?: boolean;
}

export interface TaskPoolDefinition<T, R> {
  /** The compiled worker entry (a `taskWorker(...)` default export), next to the caller. */
  workerUrl: URL;
  /** The same work on the calling thread (inline mode). */
  runInline: (task: T) => Promise<R>;
  /** minThreads when the options give none; undefined keeps every thread warm. */
  defaultMinThreads?: number;
}

function workerAvailable(url: URL): boolean {
  return url.protocol === 'file:' && fs.existsSync(fileURLToPath(url));
}

/**
 * A piscina worker-thread pool for CPU-bound document work (pdf.js, OCR, NLP), so it never
 * blocks the event loop. Typed document errors thrown in a worker are re-thrown here as the
 * same classes. One pool per kind of work per process; `close()` on shutdown.
 */
export class TaskPool<T, R> {
  private pool: Piscina | undefined;
  private readonly piscinaOptions: ConstructorParameters<typeof Piscina>[0];
  private readonly runInline: (task: T) => Promise<R>;
  readonly inline: boolean;

  constructor(definition: TaskPoolDefinition<T, R>, options: TaskPoolOptions = {}) {
    this.runInline = definition.runInline;
    this.inline =
      options.inline ??
      (Boolean(process.env.JEST_WORKER_ID) || !workerAvailable(definition.workerUrl));
    const maxThreads = options.maxThreads ?? Math.max(1, os.availableParallelism() - 1);
    this.piscinaOptions = {
      filename: definition.workerUrl.href,
      maxThreads,
      minThreads: Math.min(
        options.minThreads ?? definition.defaultMinThreads ?? maxThreads,
        maxThreads,
      ),
      idleTimeout: options.idleTimeout ?? 60_000,
    };
  }

  /** Number of live worker threads (0 inline, and before the first task). */
  get threads(): number {
    return this.pool?.threads.length ?? 0;
  }

  /** Tasks waiting for a free thread. */
  get queueSize(): number {
    return this.pool?.queueSize ?? 0;
  }

  async run(task: T, signal?: AbortSignal): Promise<R> {
    if (this.inline) {
      signal?.throwIfAborted();
      return this.runInline(task);
    }
    // Started on first use: a process that never classifies or parses (e.g. one that only
    // ingests usage) never loads the models, about 100 MB per thread.
    this.pool ??= new Piscina(this.piscinaOptions);
    const reply = (await this.pool.run(task, { signal })) as TaskReply<R>;
    if (!reply.ok) throw deserializeError(reply.error);
    return reply.result;
  }

  /** Stops the worker threads; inline, stops this thread's OCR worker (it keeps Node alive). */
  async close(): Promise<void> {
    if (this.pool) await this.pool.destroy();
    else if (this.inline) await terminateOcr();
  }
}
