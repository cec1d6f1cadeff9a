import { TaskPool, type TaskPoolOptions } from '../worker-pool/task.pool.js';
import { runClassifyTask, type ClassifyTask, type ClassifyTaskResult } from './classify.task.js';

export type ClassifierPoolOptions = TaskPoolOptions;

/**
 * Worker threads for classify tasks (document loading + classification), so OCR and NLP
 * never block the event loop. Threads stay warm by default (minThreads = maxThreads): a new
 * thread spends 1-2 s loading the language model, WordNet and pdf.js.
 */
export class ClassifierPool extends TaskPool<ClassifyTask, ClassifyTaskResult> {
  constructor(options: ClassifierPoolOptions = {}) {
    super(
      { workerUrl: new URL('./classify.worker.js', import.meta.url), runInline: runClassifyTask },
      options,
    );
  }
}
