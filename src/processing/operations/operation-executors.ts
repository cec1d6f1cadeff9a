import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { databaseQueueWorkers } from '../../config/operations.config.js';
import { logExecutorMemory } from './executor-memory-log.js';
import { poolOptionsFrom } from '../../documents/executors/task.pool.js';
import { OperationPool } from '../../documents/executors/operation.pool.js';
import type {
  ClassifyOperationTask,
  ClassifyTaskResult,
  DocumentOperationTask,
  OperationOutcome,
  OutcomeFiles,
  PipelineOutcome,
  PipelineTask,
} from '../../documents/executors/operation.task.js';
import type {
  WrittenEditOutcome,
  WrittenOperationOutcome,
} from '../../documents/executors/outcome-files.js';

/**
 * Executors of this process: one per database-queue loop taking cpu tasks (the `worker`
 * kind's CPU_WORKER_CONCURRENCY, plus the priority and gpu workers' loops), at least
 * CPU_WORKER_CONCURRENCY. A priority worker's loop sharing the `worker` loops' executors
 * claimed a sync request at once and then waited in the pool for another organization's
 * running task to end (9.3 s beside a backlog: docs/decisions/0547-*), so a loop of its own
 * bought nothing; sized by the loops, a claimed task never waits for an executor.
 */
export function executorCountOf(config: AppConfig): number {
  const cpuLoops = databaseQueueWorkers(
    config.operations.legacyWorkers,
    config.processing.cpuWorkerConcurrency,
    config.processing.ioWorkerConcurrency,
  )
    .filter((pool) => pool.queue === 'cpu')
    .reduce((sum, pool) => sum + pool.loops, 0);
  return Math.max(config.processing.cpuWorkerConcurrency, cpuLoops);
}

/**
 * This process's one executor pool, shared by every kind of job (classify, parse, extract,
 * split, edit, pipelines): one executor per cpu loop (executorCountOf), whatever the mix of
 * kinds.
 */
@Injectable()
export class OperationExecutors implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly pool: OperationPool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = new OperationPool({
      ...poolOptionsFrom(config.processing, executorCountOf(config)),
      // A priority worker's executor is kept loaded beside busy ones: the first sync request
      // after a quiet while would otherwise wait for one to load (seconds on a busy machine).
      spareExecutors: config.operations.legacyWorkers.priorityCount,
      onTaskMemory: logExecutorMemory(new Logger(OperationExecutors.name)),
    });
  }

  runClassify(task: ClassifyOperationTask, signal?: AbortSignal): Promise<ClassifyTaskResult> {
    return this.pool.runClassify(task, signal);
  }

  runOperation(task: DocumentOperationTask, signal?: AbortSignal): Promise<OperationOutcome> {
    return this.pool.runOperation(task, signal);
  }

  /** See OperationPool.runOperationToFiles. */
  runOperationToFiles(
    task: DocumentOperationTask,
    files: OutcomeFiles,
    signal?: AbortSignal,
  ): Promise<OperationOutcome | WrittenOperationOutcome | WrittenEditOutcome> {
    return this.pool.runOperationToFiles(task, files, signal);
  }

  /** See OperationPool.runPipeline. */
  runPipeline(
    task: PipelineTask,
    signal?: AbortSignal,
    files?: OutcomeFiles,
  ): Promise<PipelineOutcome> {
    return this.pool.runPipeline(task, signal, files);
  }

  /** The warm executors load while the service starts, not during its first request. */
  onApplicationBootstrap(): void {
    this.pool.warmUp();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}
