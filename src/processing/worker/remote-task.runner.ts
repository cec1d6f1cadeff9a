import fs from 'node:fs';
import path from 'node:path';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import {
  CLASSIFICATION_RUNNER,
  type ClassificationRunner,
  classificationInput,
  type InputDocument,
} from '../classify-jobs/classification-runner.js';
import { fetchInputDocument } from '../inputs/input-resolver.service.js';
import { SafeFetcher } from '../inputs/safe-fetcher.js';
import { ProcessingError } from '../jobs/job.types.js';
import { poolOptionsFrom } from '../../documents/executors/task.pool.js';
import { OperationPool } from '../../documents/executors/operation.pool.js';
import {
  operationTaskOf,
  type StoredOperationRequest,
} from '../../documents/executors/operation.task.js';
import type { ClassifyConfigDto } from '../requests/classify-config.dto.js';
import type { RemoteTask } from '../queue/redis/redis-queue.types.js';

/**
 * One operation in a Redis worker process: the same runners (classification runner,
 * OperationPool's worker threads) and SSRF-guarded fetcher as the legacy workers, with the
 * same request -> runner mappings; inputs read from the task itself (URLs) or from the
 * uploads on the DATA_DIR volume the API process shares with its workers; never from DuckDB.
 */
@Injectable()
export class RemoteTaskRunner implements OnApplicationShutdown {
  private readonly blobDir: string;
  private readonly operations: OperationPool;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly fetcher: SafeFetcher,
    @Inject(CLASSIFICATION_RUNNER) private readonly classifier: ClassificationRunner,
  ) {
    this.blobDir = path.join(config.dataDir, 'blobs');
    // As many threads as this process takes cpu tasks at once: the small fixed pool.
    this.operations = new OperationPool(
      poolOptionsFrom(config.processing, config.operations.redis?.cpuConcurrency ?? 1),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.operations.close();
  }

  /** The operation's outcome, as the job's pipeline on the API side expects it. */
  async run(task: RemoteTask): Promise<unknown> {
    const documents = await this.resolve(task);
    if (task.operation === 'classify') {
      const request = task.request as unknown as ClassifyConfigDto;
      return this.classifier.run(classificationInput(request, documents));
    }
    const request = task.request as StoredOperationRequest;
    return this.operations.run(operationTaskOf(request, documents));
  }

  /** Inputs in order, within one total size budget, as InputResolver does. */
  private async resolve(task: RemoteTask): Promise<InputDocument[]> {
    let budget = this.config.processing.maxUploadBytes;
    const documents: InputDocument[] = [];
    for (const input of task.inputs) {
      if ('blob' in input) {
        const bytes = await fs.promises
          .readFile(path.join(this.blobDir, path.basename(input.blob)))
          .catch(() => {
            throw new ProcessingError('FILE_NOT_FOUND', `No uploaded file ${input.fileName}`, 404);
          });
        documents.push({ bytes, fileName: input.fileName, contentType: null });
        budget -= bytes.length;
      } else {
        const fetched = await fetchInputDocument(this.fetcher, input.url, budget);
        documents.push(fetched);
        budget -= fetched.bytes.length;
      }
    }
    return documents;
  }
}
