import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { loggerParams } from '../../common/logging/log-redaction.js';
import type { AppConfig } from '../../config/app-config.js';
import { ConfigModule } from '../../config/config.module.js';
import { InputDocuments } from '../inputs/input-documents.js';
import { SafeFetcher } from '../inputs/safe-fetcher.js';
import { StagedInputs } from '../inputs/staged-inputs.js';
import { RedisWorkersService } from './redis-workers.service.js';
import { RedisTaskRunner } from './redis-task.runner.js';

/**
 * The Redis worker process: configuration, logs, the executors of every operation
 * (RedisTaskRunner) and the fetcher; no HTTP server, no DuckDB,
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
      providers: [SafeFetcher, StagedInputs, InputDocuments, RedisTaskRunner, RedisWorkersService],
    };
  }
}
