import type { OcrLanguageCode } from '../../config/ocr-language-data.js';
import type { ExecutorSettings, ProcessingConfig } from '../../config/processing.config.js';
import type { DocumentLimits } from '../readers/document-limits.js';
import type { ExecutorMemoryReport } from './executor-memory.js';

export const DEFAULT_EXECUTOR_SETTINGS: Readonly<ExecutorSettings> = {
  heapMb: 1_024,
  rssLimitMb: 1_280,
  recycleRssMb: 640,
  taskTimeLimitMs: 120_000,
  idleMs: 60_000,
  nice: 10,
};

export interface TaskPoolOptions {
  /** Executor processes running tasks at once (default 1). */
  maxExecutors?: number;
  /** Executors kept loaded while idle once started (default: the definition's, else 1). */
  warmExecutors?: number;
  /** Idle executors kept loaded beside busy ones, up to maxExecutors (default 0). */
  spareExecutors?: number;
  settings?: Partial<ExecutorSettings>;
  /** Input limits every task is checked against (default: DEFAULT_DOCUMENT_LIMITS). */
  limits?: DocumentLimits;
  /** Languages OCR may read a page again in besides English (default: every bundled one). */
  ocrLanguages?: readonly OcrLanguageCode[];
  /**
   * Run tasks in this process instead of executors. Default: true under jest (its
   * TypeScript transform does not reach child processes) and when the compiled entry is
   * missing (running from TypeScript sources); false otherwise.
   */
  inline?: boolean;
  /** The executor's entry file (default: the definition's); tests pass a `.ts` with execArgv. */
  entry?: string;
  /** Node flags of the executors (tests: a TypeScript loader). */
  execArgv?: string[];
  /** Told after every task an executor answered: its memory, whether it is recycled. */
  onTaskMemory?: (report: ExecutorMemoryReport) => void;
}

/** A pool's options from the processing settings: `maxExecutors` run tasks at once. */
export function poolOptionsFrom(
  processing: Pick<
    ProcessingConfig,
    'cpuWorkerWarmThreads' | 'executors' | 'documentLimits' | 'ocrLanguages'
  >,
  maxExecutors: number,
): TaskPoolOptions {
  return {
    maxExecutors,
    warmExecutors: processing.cpuWorkerWarmThreads,
    settings: processing.executors,
    limits: processing.documentLimits,
    ocrLanguages: processing.ocrLanguages,
  };
}
