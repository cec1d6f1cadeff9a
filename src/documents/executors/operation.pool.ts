import { TaskPool, type TaskPoolOptions } from './task.pool.js';
import type {
  ClassifyOperationTask,
  ClassifyTaskResult,
  DocumentOperationTask,
  ExecutorOutcome,
  FileOperationTask,
  OperationOutcome,
  OperationTask,
  OutcomeFiles,
  PipelineOutcome,
  PipelineTask,
} from './operation.task.js';
import type { WrittenEditOutcome, WrittenOperationOutcome } from './outcome-files.js';

export type OperationPoolOptions = TaskPoolOptions;

/**
 * The executor processes of every operation (classify, parse, extract, split, edit and
 * stored pipelines): pdf.js, OCR and the language models are CPU-bound and must not block
 * the HTTP event loop, and a document that crashes its decoder ends only its executor. A
 * new executor spends 1-2 s loading the sentence encoder (about 80 MB of weights, read once
 * per executor), the language model and pdf.js, so warm executors stay loaded once started;
 * one is kept warm by default, more start under load.
 */
export class OperationPool extends TaskPool<
  OperationTask | FileOperationTask,
  ExecutorOutcome | WrittenOperationOutcome | WrittenEditOutcome
> {
  /** One classification. */
  runClassify(task: ClassifyOperationTask, signal?: AbortSignal): Promise<ClassifyTaskResult> {
    return this.run(task, signal) as Promise<ClassifyTaskResult>;
  }

  /** One parse, extract, split or edit. */
  runOperation(task: DocumentOperationTask, signal?: AbortSignal): Promise<OperationOutcome> {
    return this.run(task, signal) as Promise<OperationOutcome>;
  }

  /**
   * One parse, extract, split or edit whose executor writes a large result (and a parse's
   * lines, an edit's document) to `files` (runOperationTask says what each kind writes):
   * only references to them and the small metadata come back.
   */
  runOperationToFiles(
    task: DocumentOperationTask,
    files: OutcomeFiles,
    signal?: AbortSignal,
  ): Promise<OperationOutcome | WrittenOperationOutcome | WrittenEditOutcome> {
    return this.run({ ...task, files }, signal) as Promise<
      OperationOutcome | WrittenOperationOutcome | WrittenEditOutcome
    >;
  }

  /**
   * A stored pipeline: one read of the document, then its steps. With `files`, the
   * executor writes the parse's and the steps' results to them and their references stand
   * in the outcome where the values were.
   */
  runPipeline(
    task: PipelineTask,
    signal?: AbortSignal,
    files?: OutcomeFiles,
  ): Promise<PipelineOutcome> {
    return this.run(files ? { ...task, files } : task, signal) as Promise<PipelineOutcome>;
  }

  constructor(options: OperationPoolOptions = {}) {
    super(
      {
        workerUrl: new URL('./operation.worker.js', import.meta.url),
        // Imported on first inline use, so a process whose tasks run in executors never
        // loads the engines' libraries (language model, docx, OCR) itself.
        runInline: async (task) => (await import('./operation.run.js')).runOperationTask(task),
        defaultWarmExecutors: 1,
      },
      options,
    );
  }
}
