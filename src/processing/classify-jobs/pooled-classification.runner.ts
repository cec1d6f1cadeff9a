import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { poolOptionsFrom } from '../../documents/executors/task.pool.js';
import { ClassifierPool } from '../../documents/executors/classifier.pool.js';
import { toProcessingError } from '../core/processing-error.js';
import type {
  ClassificationOutcome,
  ClassificationRunner,
  ClassificationTaskInput,
} from './classification-runner.js';

/**
 * The classification pipeline on the documents/classify library's executor processes:
 * document decoding, OCR and classification never run in the API's process. One executor
 * per concurrent cpu task (CPU_WORKER_CONCURRENCY).
 */
@Injectable()
export class PooledClassificationRunner implements ClassificationRunner, OnApplicationShutdown {
  private readonly pool: ClassifierPool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = new ClassifierPool(
      poolOptionsFrom(config.processing, config.processing.cpuWorkerConcurrency),
    );
  }

  async run(input: ClassificationTaskInput, signal?: AbortSignal): Promise<ClassificationOutcome> {
    try {
      // A jobid:// input is alone (InputResolver): its parsed document replaces reading.
      const parsed = input.documents.find((d) => d.parsed)?.parsed;
      const { document, output } = await this.pool.run(
        {
          documents: parsed
            ? []
            : input.documents.map((d) => ({ bytes: d.bytes, name: d.fileName })),
          ...(parsed && { parsed }),
          pageRange: input.pageRange ?? undefined,
          classificationSchema: input.classificationSchema,
          documentMetadata: input.documentMetadata,
          categoryGroups: input.categoryGroups ?? null,
          model: input.model,
        },
        signal,
      );
      return {
        category: output.result.category,
        categories: output.response_confidence.categories,
        numPages: output.usage.num_pages,
        totalPages: document.totalPages,
        fileType: document.fileType,
        grouping: output.extra_metadata?.grouping,
      };
    } catch (error) {
      throw toProcessingError(error);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}
