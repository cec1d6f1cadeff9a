import { TaskPool, type TaskPoolOptions } from '../executors/task.pool.js';
import type { ClassifyTask, ClassifyTaskResult } from './classify.task.js';

export type ClassifierPoolOptions = TaskPoolOptions;

/**
 * Worker threads for classify tasks (document loading + classification), so OCR and NLP
 * never block the event loop. Threads stay warm by default (minThreads = maxThreads): a new
 * thread spends 1-2 s loading the language model, WordNet and pdf.js.
 */
export class ClassifierPool extends TaskPool<ClassifyTask, ClassifyTaskResult> {
  constructor(options: ClassifierPoolOptions = {}) {
    super(
      {
        workerUrl: new URL('./classify.worker.js', import.meta.url),
        // Imported on first inline use, so a process whose tasks run on worker threads never
        // loads the classifier's libraries (language model, docx, OCR) on its main thread.
        runInline: async (task) => (await import('./classify.task.js')).runClassifyTask(task),
      },
      options,
    );
  }
}
