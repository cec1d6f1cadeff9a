import { Module } from '@nestjs/common';
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
import { MetadataKeyController } from './metadata/metadata-key.controller.js';
import { UsageExportRepository } from './export/usage-export.repository.js';
import { UsageExportService } from './export/usage-export.service.js';
import { UsageExportController } from './export/usage-export.controller.js';
import { UsageImportService } from './import/usage-import.service.js';
import { UsageExportCache } from './export/usage-export.cache.js';
import { UsageWatermarks } from './usage-watermarks.js';
import { UsageSnapshotPublisher } from './replica/usage-snapshot.publisher.js';

/** The usage plane: ingestion into the DuckDB store, metadata keys, and the export API. */
@Module({
  // MetricsModule is global in the server; importing it here also serves docproc-admin's context.
  imports: [MetricsModule, AccountsModule, UsageKafkaModule],
  controllers: [UsageExportController, MetadataKeyController],
  providers: [
    OrgDirectoryRepository,
    UsageStoreRepository,
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
    MetadataKeyService,
    UsageExportRepository,
    UsageExportService,
    UsageExportCache,
    UsageWatermarks,
    UsageSnapshotPublisher,
    UsageImportService,
  ],
  exports: [
    USAGE_EVENT_SINK,
    UsageIngestService,
    MetadataKeyService,
    UsageImportService,
    UsageKafkaModule,
  ],
})
export class UsageModule {}
