import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { loggerParams } from './common/logging/log-redaction.js';
import type { AppConfig } from './config/app-config.js';
import type { Clock } from './common/clock.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { AccountsModule } from './accounts/accounts.module.js';
import { UsageModule } from './usage/usage.module.js';
import { UsageKafkaConsumerModule } from './usage/ingestion/kafka/usage-kafka-consumer.module.js';
import { AdminModule } from './admin/admin.module.js';
import { DashboardModule } from './dashboard/dashboard.module.js';
import { AllExceptionsFilter } from './common/all-exceptions.filter.js';
import { ProcessingModule } from './processing/processing.module.js';
import { HealthModule } from './operations/health/health.module.js';
import { MetricsModule } from './common/metrics/metrics.module.js';
import { ReadinessModule } from './common/health/readiness.module.js';
import { OperationsModule } from './operations/operations.module.js';
import { ClockModule } from './common/clock.module.js';

/** Replacements tests make to providers of the real app (e.g. a fixed clock). */
export interface AppOverrides {
  clock?: Clock;
}

/** Request logging of every HTTP application (the server and an export replica). */
/** Request logs with secrets, signed URLs and authorization redacted (log-redaction.ts). */
export function httpLoggerModule(config: AppConfig): DynamicModule {
  return LoggerModule.forRoot(loggerParams(config.logLevel, true));
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, overrides: AppOverrides = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        httpLoggerModule(config),
        MetricsModule,
        ReadinessModule,
        HealthModule,
        DatabaseModule,
        AccountsModule,
        UsageModule,
        UsageKafkaConsumerModule,
        AdminModule,
        DashboardModule,
        ProcessingModule,
        ClockModule.forRoot(overrides.clock),
        OperationsModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }],
    };
  }
}
