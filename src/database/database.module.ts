import { Global, Module, OnModuleInit, Optional } from '@nestjs/common';
import { ReadinessService } from '../common/health/readiness.service.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import type { AppConfig } from '../config/app-config.js';
import { BlobStore, FileBlobStore, blobRootOf } from './blob-store.js';
import { DatabaseMetrics } from './database.metrics.js';
import { DuckDbService } from './duckdb.service.js';
import { MigrationRunner } from './migration-runner.js';
import { FREE_SPACE_PROBE, StorageReserve, statfsFreeBytes } from './storage-reserve.js';

@Global()
@Module({
  providers: [
    DuckDbService,
    MigrationRunner,
    DatabaseMetrics,
    StorageReserve,
    { provide: FREE_SPACE_PROBE, useValue: statfsFreeBytes },
    {
      provide: BlobStore,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new FileBlobStore(blobRootOf(config.dataDir)),
    },
  ],
  exports: [DuckDbService, BlobStore, StorageReserve],
})
export class DatabaseModule implements OnModuleInit {
  constructor(
    private readonly db: DuckDbService,
    private readonly migrations: MigrationRunner,
    private readonly storage: StorageReserve,
    @Optional() private readonly readiness?: ReadinessService,
  ) {}

  async onModuleInit(): Promise<void> {
    this.readiness?.register(this.db);
    this.readiness?.register(this.storage);
    await this.db.open();
    await this.migrations.migrate();
  }
}
