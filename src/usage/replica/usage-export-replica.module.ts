import { Global, Module } from '@nestjs/common';
import { AccountsModule } from '../../accounts/accounts.module.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import { UsageExportCache } from '../export/usage-export.cache.js';
import { UsageExportController } from '../export/usage-export.controller.js';
import { UsageExportRepository } from '../export/usage-export.repository.js';
import { UsageExportService } from '../export/usage-export.service.js';
import { MetadataKeyRepository } from '../metadata/metadata-key.repository.js';
import { MetadataKeyService } from '../metadata/metadata-key.service.js';
import { UsageWatermarks } from '../usage-watermarks.js';
import { UsageSnapshotFollower } from './usage-snapshot.follower.js';

/**
 * The replica's DuckDB: the current snapshot, read-only, opened by the follower. Global,
 * like the server's DatabaseModule, so it is initialized before the modules reading it
 * (the accounts plane reads its session secret at start).
 */
@Global()
@Module({
  providers: [DuckDbService, UsageWatermarks, UsageSnapshotFollower],
  exports: [DuckDbService, UsageWatermarks],
})
export class ReplicaDatabaseModule {}

/**
 * The usage export served from the writer's published snapshots (`DOCPROC_MODE=
 * export-replica`): the same controller, service, queries and cache as the writer's, over
 * a read-only file. No ingestion, migrations, consumer or background work.
 */
@Module({
  imports: [AccountsModule],
  controllers: [UsageExportController],
  providers: [
    UsageExportService,
    UsageExportRepository,
    UsageExportCache,
    MetadataKeyService,
    MetadataKeyRepository,
  ],
})
export class UsageExportReplicaModule {}
