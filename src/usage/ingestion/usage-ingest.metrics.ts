import { Injectable } from '@nestjs/common';
import type { Counter, Histogram } from 'prom-client';
import { MetricsService } from '../../common/metrics/metrics.service.js';

/** Counters of the shared ingestion path (Kafka consumer, in-process bus and import alike). */
@Injectable()
export class UsageIngestMetrics {
  readonly ingested: Counter;
  readonly duplicates: Counter;
  readonly rejected: Counter<'reason'>;
  readonly batchWrite: Histogram;
  readonly untrackedKeys: Counter;

  constructor(metrics: MetricsService) {
    this.ingested = metrics.counter({
      name: 'docproc_usage_events_ingested_total',
      help: 'Usage events written to the store (first delivery of each (source, id))',
    });
    this.duplicates = metrics.counter({
      name: 'docproc_usage_events_duplicate_total',
      help: 'Usage events skipped because their (source, id) was already stored',
    });
    this.rejected = metrics.counter({
      name: 'docproc_usage_events_rejected_total',
      help: 'Usage events refused by validation, by reason',
      labelNames: ['reason'],
    });
    this.untrackedKeys = metrics.counter({
      name: 'docproc_usage_metadata_keys_untracked_total',
      help: "New async-metadata keys left out of usage: past their organization's cap (METADATA_KEYS_MAX_PER_ORG)",
    });
    this.batchWrite = metrics.histogram({
      name: 'docproc_usage_batch_write_seconds',
      help: 'Time to write one batch of usage events to DuckDB (one transaction)',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    });
  }
}
