import { TaskPool, type TaskPoolOptions } from './task.pool.js';
import type { OperationOutcome, OperationTask } from './operation.task.js';

export type OperationPoolOptions = TaskPoolOptions;

/**
 * Executor processes for parse/extract/split, as ClassifierPool is for classify: pdf.js and
 * OCR are CPU-bound and must not block the HTTP event loop. One executor is kept warm; more start
 * under load.
 */
export class OperationPool extends TaskPool<OperationTask, OperationOutcome> {
  constructor(options: OperationPoolOptions = {}) {
    super(
      {
        workerUrl: new URL('./operation.worker.js', import.meta.url),
        // Imported on first inline use, as in ClassifierPool.
        runInline: async (task) => (await import('./operation.run.js')).runOperationTask(task),
        defaultWarmExecutors: 1,
      },
      options,
    );
  }
}
