import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { loggerParams } from '../../common/logging/log-redaction.js';
import type { AppConfig } from '../../config/app-config.js';
import { ConfigModule } from '../../config/config.module.js';
import { CLASSIFICATION_RUNNER } from '../classify-jobs/classification-runner.js';
import { PooledClassificationRunner } from '../classify-jobs/pooled-classification.runner.js';
import { InputDocuments } from '../inputs/input-documents.js';
import { SafeFetcher } from '../inputs/safe-fetcher.js';
import { StagedInputs } from '../inputs/staged-inputs.js';
import { RedisWorkersService } from './redis-workers.service.js';
import { RedisTaskRunner } from './redis-task.runner.js';

/**
 * The worker process of the new queue system: configuration, logs, the classification
 * runner, the parse/extract/split thread pool and the fetcher; no HTTP server, no DuckDB,
 * no Kafka.
 */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot(loggerParams(config.logLevel, false)),
      ],
      providers: [
        // Same runner as ProcessingModule's CLASSIFICATION_RUNNER: swap both together.
        { provide: CLASSIFICATION_RUNNER, useClass: PooledClassificationRunner },
        SafeFetcher,
        StagedInputs,
        InputDocuments,
        RedisTaskRunner,
        RedisWorkersService,
      ],
    };
  }
}
