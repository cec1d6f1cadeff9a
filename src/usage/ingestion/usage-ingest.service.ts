import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { OrgDirectoryRepository } from './org-directory.repository.js';
import { GroupCommit } from './group-commit.js';
import { UsageStoreRepository } from './usage-store.repository.js';
import { UsageIngestMetrics } from './usage-ingest.metrics.js';
import { MetadataKeyService } from '../metadata/metadata-key.service.js';
import { UsageWatermarks } from '../usage-watermarks.js';
import { normalizeUsageEvent } from './usage-event.normalizer.js';
import type { NormalizedUsageEvent, UsageEventRejection } from './normalized-usage-event.js';

/**
 * Events of one merged write at most (a few Kafka partition batches). A write's fixed cost
 * (statements, commit) is ~90 ms, so a backlog drains fastest in large writes; 30,000
 * events (one fetch of 3 x 4 MiB partitions) measured best (docs/benchmarks.md).
 */
const MAX_EVENTS_PER_WRITE = 30_000;

interface GroupCounts {
  inserted: number;
  duplicates: number;
}

export interface IngestOutcome {
  accepted: number;
  duplicates: number;
  /** Index in the input and why, for every refused event (dead-letter material). */
  rejected: { index: number; rejection: UsageEventRejection }[];
}

export interface SubmittedIngest {
  rejected: IngestOutcome['rejected'];
  /** Settles once the events' transaction committed (or failed). */
  written: Promise<GroupCounts>;
}

/**
 * The one ingestion path: validate and normalize, check the org, then write the batch
 * atomically. The Kafka consumer, the in-process bus and `usage import` all call it.
 */
@Injectable()
export class UsageIngestService {
  private readonly logger = new Logger(UsageIngestService.name);
  private readonly writes = new GroupCommit<NormalizedUsageEvent, GroupCounts>(
    (groups) => this.write(groups),
    MAX_EVENTS_PER_WRITE,
  );

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly orgs: OrgDirectoryRepository,
    private readonly store: UsageStoreRepository,
    private readonly metrics: UsageIngestMetrics,
    private readonly metadataKeys: MetadataKeyService,
    private readonly watermarks: UsageWatermarks,
  ) {}

  /** `payloads` are raw message values (bytes or text) or already-parsed objects. */
  async ingest(payloads: readonly unknown[], now = new Date()): Promise<IngestOutcome> {
    const { rejected, written } = await this.submit(payloads, now);
    const counts = await written;
    return { accepted: counts.inserted, duplicates: counts.duplicates, rejected };
  }

  /**
   * Validates, normalizes and checks the orgs, then queues the accepted events for the
   * writer and returns without waiting for their transaction: `written` settles when it
   * committed. Calls queue in call order, so a caller that awaits each `submit` before the
   * next (the Kafka consumer, per partition) keeps its events' order in the store.
   */
  async submit(payloads: readonly unknown[], now = new Date()): Promise<SubmittedIngest> {
    const rejected: IngestOutcome['rejected'] = [];
    const candidates: { index: number; event: NormalizedUsageEvent }[] = [];
    payloads.forEach((payload, index) => {
      const result = normalizeUsageEvent(payload, now, this.config.usage.normalizer);
      if (result.ok) candidates.push({ index, event: result.event });
      else rejected.push({ index, rejection: result.rejection });
    });

    const known = await this.orgs.existing(new Set(candidates.map((c) => c.event.orgId)));
    const accepted: NormalizedUsageEvent[] = [];
    for (const { index, event } of candidates) {
      if (known.has(event.orgId)) accepted.push(event);
      else
        rejected.push({
          index,
          rejection: { reason: 'unknown_org', detail: `org ${event.orgId} does not exist` },
        });
    }
    rejected.sort((a, b) => a.index - b.index);
    for (const { rejection } of rejected) this.metrics.rejected.inc({ reason: rejection.reason });

    const written =
      accepted.length > 0
        ? this.writes.submit(accepted)
        : Promise.resolve({ inserted: 0, duplicates: 0 });
    return { rejected, written };
  }

  /** One transaction for the groups merged by the group commit. */
  private async write(groups: NormalizedUsageEvent[][]): Promise<GroupCounts[]> {
    const stopTimer = this.metrics.batchWrite.startTimer();
    const written = await this.store.writeBatch(groups, this.config.usage.cardinality);
    stopTimer();
    // After the commit: the export's result cache drops these orgs' answers.
    this.watermarks.advance(written.orgs);
    for (const counts of written.groups) {
      this.metrics.ingested.inc(counts.inserted);
      this.metrics.duplicates.inc(counts.duplicates);
    }
    for (const { orgId, key } of written.newlyRejectedKeys) {
      this.metadataKeys.forgetUsable(orgId, key);
      this.logger.warn(
        { orgId, metadataKey: key },
        'metadata key rejected as identifier-like; grouping by it is refused',
      );
    }
    return written.groups;
  }
}
