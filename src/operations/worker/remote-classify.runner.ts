import fs from 'node:fs';
import path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import {
  CLASSIFICATION_RUNNER,
  type ClassificationOutcome,
  type ClassificationRunner,
  type InputDocument,
} from '../../processing/classify-jobs/classification-runner.js';
import { ProcessingError } from '../../processing/jobs/job.types.js';
import { SafeFetcher } from '../../processing/inputs/safe-fetcher.js';
import type { RemoteClassifyTask } from '../redis-queue/redis-queue.types.js';

/**
 * Classification in a Redis worker process: the same runner and SSRF-guarded fetcher as
 * the legacy workers, inputs read from the task itself (URLs) or from the uploads on the
 * DATA_DIR volume the API process shares with its workers; never from DuckDB.
 */
@Injectable()
export class RemoteClassifyRunner {
  private readonly blobDir: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly fetcher: SafeFetcher,
    @Inject(CLASSIFICATION_RUNNER) private readonly runner: ClassificationRunner,
  ) {
    this.blobDir = path.join(config.dataDir, 'blobs');
  }

  async run(task: RemoteClassifyTask): Promise<ClassificationOutcome> {
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
        if (budget <= 0)
          throw new ProcessingError('INPUT_TOO_LARGE', 'Inputs exceed the size limit', 413);
        const fetched = await this.fetcher.fetchDocument(input.url, budget);
        budget -= fetched.bytes.length;
        const name = path.posix.basename(new URL(fetched.finalUrl).pathname) || 'document';
        documents.push({ bytes: fetched.bytes, fileName: name, contentType: fetched.contentType });
      }
    }
    return this.runner.run({
      documents,
      classificationSchema: task.classificationSchema,
      model: task.model,
      pageRange: task.pageRange,
      documentMetadata: task.documentMetadata,
      categoryGroups: task.categoryGroups,
    });
  }
}
