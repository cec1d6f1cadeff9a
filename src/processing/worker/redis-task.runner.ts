import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { blobRootOf, FileBlobStore } from '../../database/blob-store.js';
import { InputDocuments } from '../inputs/input-documents.js';
import { keepParsedDocument } from '../inputs/parsed-inputs.js';
import { executorTaskFor, jobCommandOf } from '../operations/job-command.js';
import { outcomeFilesFor } from '../jobs/job-results.js';
import { poolOptionsFrom } from '../../documents/executors/task.pool.js';
import { OperationPool } from '../../documents/executors/operation.pool.js';
import type { RedisJobTask } from '../queue/redis/redis-queue.types.js';
import { logExecutorMemory } from '../operations/executor-memory-log.js';

/**
 * One operation in a Redis worker process: the same executors (OperationPool, one task
 * union for every operation), the same validated job command (jobCommandOf, the request's
 * own DTO) and the same input reading (InputDocuments) as the API process's workers;
 * inputs come from the task itself (URLs, or upload blobs on the DATA_DIR volume the API
 * process shares with its workers), never from DuckDB.
 */
@Injectable()
export class RedisTaskRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly operations: OperationPool;
  /** The DATA_DIR volume's file store: a parse keeps the lines it read beside its result. */
  private readonly blobs: FileBlobStore;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly inputs: InputDocuments,
  ) {
    // As many executors as this process takes cpu tasks at once: the small fixed pool.
    this.blobs = new FileBlobStore(blobRootOf(config.dataDir));
    this.operations = new OperationPool({
      ...poolOptionsFrom(config.processing, config.operations.redis?.cpuConcurrency ?? 1),
      onTaskMemory: logExecutorMemory(new Logger(RedisTaskRunner.name)),
    });
  }

  /** The warm executors load while the worker starts, not during its first task. */
  onApplicationBootstrap(): void {
    this.operations.warmUp();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.operations.close();
  }

  /** The operation's outcome, as the job's pipeline on the API side expects it. */
  async run(task: RedisJobTask): Promise<unknown> {
    const { operation, request, versions } = task;
    const command = jobCommandOf({ operation, request, versions });
    const documents = await this.inputs.read(task.inputs);
    // As in the API process: the executor writes a large result to a file on the shared
    // volume, and the report through Redis carries its name, not megabytes.
    const operationTask = executorTaskFor(command, documents);
    const outcome = await this.operations.run({
      ...operationTask,
      files: outcomeFilesFor(this.blobs, task.jobId, operationTask),
    });
    return keepParsedDocument(this.blobs, task.jobId, outcome);
  }
}
