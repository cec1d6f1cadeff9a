import { Module, OnModuleInit } from '@nestjs/common';
import { AccountsModule } from '../../accounts/accounts.module.js';
import { SnapshotFollower } from '../../database/snapshot-follower.js';
import { UsageExportCache } from '../export/usage-export.cache.js';
import { UsageExportMarks } from '../export/usage-export-marks.service.js';
import { UsageExportController } from '../export/usage-export.controller.js';
import { UsageExportRepository } from '../export/usage-export.repository.js';
import { UsageExportEarlyAnswer } from '../export/usage-export.early-answer.js';
import { UsageExportService } from '../export/usage-export.service.js';
import { MetadataKeyRepository } from '../metadata/metadata-key.repository.js';
import { MetadataKeyService } from '../metadata/metadata-key.service.js';
import { UsageWatermarks } from '../usage-watermarks.js';
import { USAGE_EXPORT_READER } from '../core/usage-store.ports.js';

/**
 * A replica's file is read-only: the exports it answers are not marked, so a day changed
 * later is listed as revised only when the writer itself exported it.
 */
const EXPORTS_NOT_MARKED: Pick<UsageExportMarks, 'recordExport'> = {
  recordExport: () => undefined,
};

/**
 * The usage export served from the writer's published snapshots (`DOCPROC_MODE=
 * export-replica`): the same controller, service, queries and cache as the writer's, over
 * a read-only file (`database/replica-database.module.ts` opens and swaps it). No
 * ingestion, migrations, consumer or background work.
 */
@Module({
  imports: [AccountsModule],
  controllers: [UsageExportController],
  providers: [
    UsageExportService,
    UsageExportEarlyAnswer,
    UsageExportRepository,
    { provide: USAGE_EXPORT_READER, useExisting: UsageExportRepository },
    UsageExportCache,
    UsageWatermarks,
    MetadataKeyService,
    MetadataKeyRepository,
    { provide: UsageExportMarks, useValue: EXPORTS_NOT_MARKED },
  ],
})
export class UsageExportReplicaModule implements OnModuleInit {
  constructor(
    private readonly follower: SnapshotFollower,
    private readonly watermarks: UsageWatermarks,
  ) {}

  /** Each newer snapshot changes every org's usage: cached export answers are stale. */
  onModuleInit(): void {
    this.follower.onSwap(() => this.watermarks.advanceAll());
  }
}
