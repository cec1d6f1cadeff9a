import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { deserializeError } from '../classify/classify.task.js';
import { terminateOcr } from '../documents/ocr.engine.js';
import { runOperationTask, type OperationOutcome, type OperationTask } from './operation.task.js';
import type { OperationTaskReply } from './operation.worker.js';

const WORKER_URL = new URL('./operation.worker.js', import.meta.url);

function workerAvailable(): boolean {
  return WORKER_URL.protocol === 'file:' && fs.existsSync(fileURLToPath(WORKER_URL));
}

export interface OperationPoolOptions {
  maxThreads?: number;
  /** Inline (calling thread) under jest and when running from TypeScript sources. */
  inline?: boolean;
}

/**
 * Worker threads for parse/extract/split, as ClassifierPool is for classify: pdf.js and OCR
 * are CPU-bound and must not block the HTTP event loop.
 */
export class OperationPool {
  private readonly pool: Piscina | undefined;
  readonly inline: boolean;

  constructor(options: OperationPoolOptions = {}) {
    this.inline = options.inline ?? (Boolean(process.env.JEST_WORKER_ID) || !workerAvailable());
    if (this.inline) return;
    const maxThreads = options.maxThreads ?? Math.max(1, os.availableParallelism() - 1);
    this.pool = new Piscina({
      filename: WORKER_URL.href,
      maxThreads,
      minThreads: 1,
      idleTimeout: 60_000,
    });
  }

  async run(task: OperationTask, signal?: AbortSignal): Promise<OperationOutcome> {
    if (!this.pool) {
      signal?.throwIfAborted();
      return runOperationTask(task);
    }
    const reply = (await this.pool.run(task, { signal })) as OperationTaskReply;
    if (!reply.ok) throw deserializeError(reply.error);
    return reply.result;
  }

  async close(): Promise<void> {
    if (this.pool) await this.pool.destroy();
    else await terminateOcr();
  }
}
