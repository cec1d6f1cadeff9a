import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
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
 * This process's one executor pool, shared by every kind of job (classify, parse, extract,
 * split, edit, pipelines): as many executors as the database-queue workers run cpu tasks at
 * once (CPU_WORKER_CONCURRENCY), whatever the mix of kinds.
 */
@Injectable()
export class OperationExecutors implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly pool: OperationPool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = new OperationPool(
      poolOptionsFrom(config.processing, config.processing.cpuWorkerConcurrency),
    );
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
