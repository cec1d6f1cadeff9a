import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { AllExceptionsFilter } from './common/all-exceptions.filter.js';
import { MetricsModule } from './common/metrics/metrics.module.js';
import { ReadinessModule } from './common/health/readiness.module.js';
import { HealthModule } from './operations/health/health.module.js';
import { ReplicaDatabaseModule } from './database/replica-database.module.js';
import { UsageExportReplicaModule } from './usage/replica/usage-export-replica.module.js';
import { USAGE_SNAPSHOT_PREFIX } from './usage/replica/usage-snapshot.publisher.js';
import { httpLoggerModule } from './app.module.js';

/**
 * The HTTP application of an export replica (`DOCPROC_MODE=export-replica`): `/health`,
 * `/ready`, `/metrics` and `GET /api/v1/usage/export`, read from the writer's snapshots
 * in `USAGE_SNAPSHOT_DIR` (docs/scaling.md).
 */
@Module({})
export class ExportReplicaAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ExportReplicaAppModule,
      imports: [
        ConfigModule.forRoot(config),
        httpLoggerModule(config),
        MetricsModule,
        ReadinessModule,
        HealthModule,
        ReplicaDatabaseModule.following({
          dir: config.usage.snapshots.dir,
          prefix: USAGE_SNAPSHOT_PREFIX,
          pollMs: config.usage.snapshots.pollMs,
          firstSnapshotWaitMs: config.usage.snapshots.firstSnapshotWaitMs,
        }),
        UsageExportReplicaModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }],
    };
  }
}
