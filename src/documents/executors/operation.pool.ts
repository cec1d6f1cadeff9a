import { TaskPool, type TaskPoolOptions } from './task.pool.js';
import type {
  DocumentOperationTask,
  OperationOutcome,
  OperationTask,
  PipelineOutcome,
  PipelineTask,
} from './operation.task.js';

export type OperationPoolOptions = TaskPoolOptions;

/**
 * Executor processes for parse/extract/split, as ClassifierPool is for classify: pdf.js and
 * OCR are CPU-bound and must not block the HTTP event loop. One executor is kept warm; more start
 * under load.
 */
export class OperationPool extends TaskPool<OperationTask, OperationOutcome | PipelineOutcome> {
  /** One parse, extract or split. */
  runOperation(task: DocumentOperationTask, signal?: AbortSignal): Promise<OperationOutcome> {
    return this.run(task, signal) as Promise<OperationOutcome>;
  }

  /** A stored pipeline: one read of the document, then its steps. */
  runPipeline(task: PipelineTask, signal?: AbortSignal): Promise<PipelineOutcome> {
    return this.run(task, signal) as Promise<PipelineOutcome>;
  }

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
