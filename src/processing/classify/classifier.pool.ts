import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { terminateOcr } from '../documents/ocr.engine.js';
import {
  deserializeError,
  runClassifyTask,
  type ClassifyTask,
  type ClassifyTaskReply,
  type ClassifyTaskResult,
} from './classify.task.js';

export interface ClassifierPoolOptions {
  /** Worker threads (default: CPU cores - 1, at least 1). */
  maxThreads?: number;
  /**
   * Threads kept alive when idle (default: maxThreads). A new thread spends 1-2 s loading
   * the language model, WordNet and pdf.js, so keeping them warm keeps latency flat.
   */
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

const WORKER_URL = new URL('./classify.worker.js', import.meta.url);

function workerAvailable(): boolean {
  return WORKER_URL.protocol === 'file:' && fs.existsSync(fileURLToPath(WORKER_URL));
}

/**
 * Worker-thread pool for classify tasks (document loading + classification), so OCR and
 * NLP never block the event loop. One pool per process; `close()` on shutdown.
 * Typed document errors thrown in a worker are re-thrown here as the same classes.
 */
export class ClassifierPool {
  private readonly pool: Piscina | undefined;
  readonly inline: boolean;

  constructor(options: ClassifierPoolOptions = {}) {
    this.inline = options.inline ?? (Boolean(process.env.JEST_WORKER_ID) || !workerAvailable());
    if (this.inline) return;
    const maxThreads = options.maxThreads ?? Math.max(1, os.availableParallelism() - 1);
    this.pool = new Piscina({
      filename: WORKER_URL.href,
      maxThreads,
      minThreads: Math.min(options.minThreads ?? maxThreads, maxThreads),
      idleTimeout: options.idleTimeout ?? 60_000,
    });
  }

  /** Number of live worker threads (0 inline). */
  get threads(): number {
    return this.pool?.threads.length ?? 0;
  }

  /** Tasks waiting for a free thread. */
  get queueSize(): number {
    return this.pool?.queueSize ?? 0;
  }

  async run(task: ClassifyTask, signal?: AbortSignal): Promise<ClassifyTaskResult> {
    if (!this.pool) {
      signal?.throwIfAborted();
      return runClassifyTask(task);
    }
    const reply = (await this.pool.run(task, { signal })) as ClassifyTaskReply;
    if (!reply.ok) throw deserializeError(reply.error);
    return reply.result;
  }

  /** Stops the worker threads; inline, stops this thread's OCR worker (it keeps Node alive). */
  async close(): Promise<void> {
    if (this.pool) await this.pool.destroy();
    else await terminateOcr();
  }
}
