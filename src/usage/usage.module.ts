import { Inject, Module, OnModuleInit, type Provider, type Type } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { USAGE_EVENT_SINK } from './usage-event.js';
import { OrgDirectoryRepository } from './ingestion/org-directory.repository.js';
import { UsageStoreRepository } from './ingestion/usage-store.repository.js';
import { UsageRollupClusterService } from './ingestion/usage-rollup-cluster.service.js';
import { UsageIngestService } from './ingestion/usage-ingest.service.js';
import { UsageNormalizer } from './ingestion/usage-normalizer.js';
import { InProcessUsageSink } from './ingestion/in-process-usage.sink.js';
import { UsageIngestMetrics } from './ingestion/usage-ingest.metrics.js';
import { UsageKafkaModule } from './ingestion/kafka/usage-kafka.module.js';
import { MetricsModule } from '../common/metrics/metrics.module.js';
import { KafkaUsageSink } from './ingestion/kafka/kafka-usage.sink.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/app-config.js';
import { MetadataKeyRepository } from './metadata/metadata-key.repository.js';
import { MetadataKeyService } from './metadata/metadata-key.service.js';
import { DuckDbMetadataKeyPlaces, METADATA_KEY_PLACES } from './metadata/metadata-key-places.js';
import { ClickHouseMetadataKeyPlaces } from './clickhouse/clickhouse-metadata-key-places.js';
import { MetadataKeyController } from './metadata/metadata-key.controller.js';
import { UsageExportRepository } from './export/usage-export.repository.js';
import { UsageExportEarlyAnswer } from './export/usage-export.early-answer.js';
import { UsageExportService } from './export/usage-export.service.js';
import { UsageExportController } from './export/usage-export.controller.js';
import { UsageImportService } from './import/usage-import.service.js';
import { UsageBackfillService } from './import/usage-backfill.service.js';
import { UsageEventHistoryRepository } from './import/usage-event-history.repository.js';
import { UsageExportCache } from './export/usage-export.cache.js';
import { UsageWatermarks } from './usage-watermarks.js';
import { UsageSnapshotPublisher } from './replica/usage-snapshot.publisher.js';
import {
  USAGE_EVENT_WRITER,
  USAGE_EXPORT_READER,
  USAGE_PERIOD_TOTALS,
} from './core/usage-store.ports.js';
import { ClickHouseService } from './clickhouse/clickhouse.service.js';
import { ClickHouseMigrations } from './clickhouse/clickhouse-migrations.js';
import { ClickHouseUsageStoreRepository } from './clickhouse/clickhouse-usage-store.repository.js';
import { ClickHouseUsageExportRepository } from './clickhouse/clickhouse-usage-export.repository.js';
import { SharedStoreFreshness } from './clickhouse/shared-store-freshness.js';
import { ClickHousePeriodTotalsRepository } from './clickhouse/clickhouse-period-totals.repository.js';
import { UsageAlertController } from './alerts/usage-alert.controller.js';
import { USAGE_ALERT_STORE, UsageAlertRepository } from './alerts/usage-alert.repository.js';
import { UsageAlertService } from './alerts/usage-alert.service.js';
import { UsagePeriodTotalsRepository } from './alerts/usage-period-totals.repository.js';
import { USAGE_ALERT_DESTINATIONS, USAGE_ALERT_OUTBOX } from './usage-alerts.contract.js';
import { SHARED_WEBHOOK_ENDPOINTS } from './webhook-endpoints.contract.js';
import { ClickHouseWebhookEndpointsRepository } from './clickhouse/clickhouse-webhook-endpoints.repository.js';
import { UsageExportMarks } from './export/usage-export-marks.service.js';
import {
  USAGE_EXPORT_MARKS_STORE,
  UsageExportMarksRepository,
} from './export/usage-export-marks.repository.js';
import { ClickHouseAlertRepository } from './clickhouse/clickhouse-alert.repository.js';
import { ClickHouseExportMarksRepository } from './clickhouse/clickhouse-export-marks.repository.js';
import { UsageRevisionsController } from './export/usage-revisions.controller.js';

const usesClickHouse = (config: AppConfig) => config.usage.store.kind === 'clickhouse';

/** `token` served by the DuckDB or the ClickHouse implementation, as USAGE_STORE says. */
function byUsageStore(token: symbol, duckdb: Type, clickhouse: Type): Provider {
  return {
    provide: token,
    inject: [APP_CONFIG, duckdb, clickhouse],
    useFactory: (config: AppConfig, inDuckDb: unknown, inClickHouse: unknown) =>
      usesClickHouse(config) ? inClickHouse : inDuckDb,
  };
}

/**
 * The usage plane: ingestion into the usage store (DuckDB, or ClickHouse with
 * USAGE_STORE=clickhouse), metadata keys, and the export API.
 */
@Module({
  // MetricsModule is global in the server; importing it here also serves docproc-admin's context.
  imports: [MetricsModule, AccountsModule, UsageKafkaModule],
  controllers: [
    UsageExportController,
    MetadataKeyController,
    UsageAlertController,
    UsageRevisionsController,
  ],
  providers: [
    OrgDirectoryRepository,
    UsageStoreRepository,
    ClickHouseService,
    ClickHouseMigrations,
    ClickHouseUsageStoreRepository,
    ClickHouseUsageExportRepository,
    SharedStoreFreshness,
    byUsageStore(USAGE_EVENT_WRITER, UsageStoreRepository, ClickHouseUsageStoreRepository),
    byUsageStore(USAGE_EXPORT_READER, UsageExportRepository, ClickHouseUsageExportRepository),
    UsagePeriodTotalsRepository,
    ClickHousePeriodTotalsRepository,
    byUsageStore(
      USAGE_PERIOD_TOTALS,
      UsagePeriodTotalsRepository,
      ClickHousePeriodTotalsRepository,
    ),
    UsageAlertRepository,
    ClickHouseAlertRepository,
    byUsageStore(USAGE_ALERT_STORE, UsageAlertRepository, ClickHouseAlertRepository),
    UsageAlertService,
    UsageExportMarksRepository,
    ClickHouseExportMarksRepository,
    byUsageStore(
      USAGE_EXPORT_MARKS_STORE,
      UsageExportMarksRepository,
      ClickHouseExportMarksRepository,
    ),
    UsageExportMarks,
    { provide: USAGE_ALERT_OUTBOX, useExisting: UsageAlertService },
    { provide: USAGE_ALERT_DESTINATIONS, useExisting: UsageAlertService },
    ClickHouseWebhookEndpointsRepository,
    {
      // Hosted webhook endpoints every process shares; none with the DuckDB store.
      provide: SHARED_WEBHOOK_ENDPOINTS,
      inject: [APP_CONFIG, ClickHouseWebhookEndpointsRepository],
      useFactory: (config: AppConfig, shared: ClickHouseWebhookEndpointsRepository) =>
        usesClickHouse(config) ? shared : null,
    },
    UsageIngestMetrics,
    UsageRollupClusterService,
    UsageNormalizer,
    UsageIngestService,
    InProcessUsageSink,
    KafkaUsageSink,
    {
      // Kafka mode (KAFKA_BROKERS set): events go to the topic and come back through the
      // consumer; embedded mode: straight into the same ingestion code.
      provide: USAGE_EVENT_SINK,
      inject: [APP_CONFIG, InProcessUsageSink, KafkaUsageSink],
      useFactory: (config: AppConfig, inProcess: InProcessUsageSink, kafka: KafkaUsageSink) =>
        config.kafka ? kafka : inProcess,
    },
    MetadataKeyRepository,
    DuckDbMetadataKeyPlaces,
    ClickHouseMetadataKeyPlaces,
    byUsageStore(METADATA_KEY_PLACES, DuckDbMetadataKeyPlaces, ClickHouseMetadataKeyPlaces),
    MetadataKeyService,
    UsageExportRepository,
    UsageExportService,
    UsageExportEarlyAnswer,
    UsageExportCache,
    UsageWatermarks,
    UsageSnapshotPublisher,
    UsageImportService,
    UsageEventHistoryRepository,
    UsageBackfillService,
  ],
  exports: [
    USAGE_EVENT_SINK,
    UsageIngestService,
    MetadataKeyService,
    UsageImportService,
    UsageBackfillService,
    UsageKafkaModule,
    USAGE_EVENT_WRITER,
    USAGE_ALERT_OUTBOX,
    USAGE_ALERT_DESTINATIONS,
    SHARED_WEBHOOK_ENDPOINTS,
    ClickHouseService,
  ],
})
export class UsageModule implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clickhouseMigrations: ClickHouseMigrations,
  ) {}

  /** The ClickHouse store's tables exist before the consumer or the API use them. */
  async onModuleInit(): Promise<void> {
    if (usesClickHouse(this.config)) await this.clickhouseMigrations.migrate();
  }
}
