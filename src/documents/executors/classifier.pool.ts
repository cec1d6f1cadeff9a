import { TaskPool, type TaskPoolOptions } from './task.pool.js';
import type { ClassifyTask, ClassifyTaskResult } from '../classify/classify.task.js';

export type ClassifierPoolOptions = TaskPoolOptions;

/**
 * Executor processes for classify tasks (document loading + classification), so OCR and NLP
 * never block the event loop and a document that crashes its decoder ends only its
 * executor. A new executor spends 1-2 s loading the sentence encoder (about 80 MB of
 * weights, read once per executor), the language model and pdf.js, so `warmExecutors` stay
 * loaded once started.
 */
export class ClassifierPool extends TaskPool<ClassifyTask, ClassifyTaskResult> {
  constructor(options: ClassifierPoolOptions = {}) {
    super(
      {
        workerUrl: new URL('./classify.worker.js', import.meta.url),
        // Imported on first inline use, so a process whose tasks run in executors never
        // loads the classifier's libraries (language model, docx, OCR) itself.
        runInline: async (task) =>
          (await import('../classify/classify.task.js')).runClassifyTask(task),
      },
      options,
    );
  }
}
