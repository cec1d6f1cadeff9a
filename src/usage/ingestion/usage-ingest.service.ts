import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { OrgDirectoryRepository } from './org-directory.repository.js';
import { GroupCommit } from './group-commit.js';
import {
  USAGE_EVENT_WRITER,
  type BatchWriteResult,
  type UsageEventWriter,
  type WriteOwnership,
} from '../core/usage-store.ports.js';
import { UsageIngestMetrics } from './usage-ingest.metrics.js';
import { MetadataKeyService } from '../metadata/metadata-key.service.js';
import { UsageWatermarks } from '../usage-watermarks.js';
import type { UsageEventRejection } from './normalized-usage-event.js';
import type { UsageEventColumns } from '../core/usage-event-columns.types.js';
import { selectRows } from './usage-event-columns.js';
import { UsageNormalizer } from './usage-normalizer.js';
import { UsageAlertService } from '../alerts/usage-alert.service.js';
import { UsageExportMarks } from '../export/usage-export-marks.service.js';

interface GroupCounts {
  inserted: number;
  duplicates: number;
  /** The write was fenced off (see BatchWriteResult.superseded): not to be committed. */
  superseded?: boolean;
}

const NONE: GroupCounts = { inserted: 0, duplicates: 0 };

/** A group of events queued for the group commit, with the ownership of its source. */
interface QueuedGroup {
  columns: UsageEventColumns;
  readonly length: number;
  /** Null for sources no other process writes (the in-process bus, an import). */
  ownership: WriteOwnership | null;
}

export interface IngestOutcome {
  accepted: number;
  duplicates: number;
  /** Index in the input and why, for every refused event (dead-letter material). */
  rejected: { index: number; rejection: UsageEventRejection }[];
}

/**
 * How an ingestion call treats events older than the late-event window: the Kafka topic
 * (anyone's producers) refuses them as `late_event`; an operator's backfill that says so,
 * the processing plane's own events (the in-process bus) and programmatic loads accept
 * them, up to the maximum age every path keeps (docs/decisions/0273-late-event-window.md).
 */
export type LateEvents = 'refuse' | 'accept';

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
  /** Queued groups merge into writes of at most the store's `maxEventsPerWrite` events. */
  private readonly writes: GroupCommit<QueuedGroup, GroupCounts>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly orgs: OrgDirectoryRepository,
    @Inject(USAGE_EVENT_WRITER) private readonly store: UsageEventWriter,
    private readonly metrics: UsageIngestMetrics,
    private readonly metadataKeys: MetadataKeyService,
    private readonly watermarks: UsageWatermarks,
    private readonly normalizer: UsageNormalizer,
    private readonly alerts: UsageAlertService,
    private readonly exportMarks: UsageExportMarks,
  ) {
    this.writes = new GroupCommit((groups) => this.write(groups), store.maxEventsPerWrite);
  }

  /** The most events one write of the store takes. */
  get maxEventsPerWrite(): number {
    return this.store.maxEventsPerWrite;
  }

  /**
   * The consumer joined its group again and was given `sources` (partitions may have moved):
   * writes of them begun before now must not store after it, and the next write waits for
   * those storing (see UsageEventWriter.fenceEarlierWrites).
   */
  partitionsReassigned(sources: readonly string[]): void {
    this.store.fenceEarlierWrites(sources);
  }

  /**
   * A consumer of raw message batches is starting: what it will need (the normalizer's
   * thread) starts beside its connection and group join rather than at its first batch.
   */
  prepareForRawBatches(): void {
    this.normalizer.warmUp();
  }

  /** `payloads` are raw message values (bytes or text) or already-parsed objects. */
  async ingest(
    payloads: readonly unknown[],
    now = new Date(),
    lateEvents: LateEvents = 'accept',
  ): Promise<IngestOutcome> {
    const { rejected, written } = await this.submit(payloads, now, lateEvents);
    const counts = await written;
    return { accepted: counts.inserted, duplicates: counts.duplicates, rejected };
  }

  /**
   * Validates, normalizes and checks the orgs, then queues the accepted events for the
   * writer and returns without waiting for their transaction: `written` settles when it
   * committed. Calls queue in call order, so a caller that awaits each `submit` before the
   * next (the Kafka consumer, per partition) keeps its events' order in the store.
   */
  async submit(
    payloads: readonly unknown[],
    now = new Date(),
    lateEvents: LateEvents = 'refuse',
    ownership: WriteOwnership | null = null,
  ): Promise<SubmittedIngest> {
    const { columns, inputIndex, rejected } = await this.normalizer.normalize(
      payloads,
      now,
      lateEvents === 'accept',
    );
    const accepted = await this.withKnownOrgs(columns, inputIndex, rejected);
    rejected.sort((a, b) => a.index - b.index);
    for (const { rejection } of rejected) this.metrics.rejected.inc({ reason: rejection.reason });

    const written =
      accepted.length > 0
        ? this.writes.submit({ columns: accepted, length: accepted.length, ownership })
        : Promise.resolve({ inserted: 0, duplicates: 0 });
    return { rejected, written };
  }

  /** The rows whose org exists; the others join `rejected` as `unknown_org`. */
  private async withKnownOrgs(
    columns: UsageEventColumns,
    inputIndex: Int32Array,
    rejected: IngestOutcome['rejected'],
  ): Promise<UsageEventColumns> {
    const orgCodes = new Set(columns.org);
    const known = await this.orgs.existing(
      new Set([...orgCodes].map((code) => columns.dictionary[code - 1])),
    );
    const unknownCodes = new Set(
      [...orgCodes].filter((c) => !known.has(columns.dictionary[c - 1])),
    );
    if (unknownCodes.size === 0) return columns;
    for (let row = 0; row < columns.length; row++) {
      if (!unknownCodes.has(columns.org[row])) continue;
      const orgId = columns.dictionary[columns.org[row] - 1];
      rejected.push({
        index: inputIndex[row],
        rejection: { reason: 'unknown_org', detail: `org ${orgId} does not exist` },
      });
    }
    return selectRows(columns, (row) => !unknownCodes.has(columns.org[row]));
  }

  /**
   * One transaction for the groups merged by the group commit. Groups whose partitions may
   * have moved since they were fetched are left out (superseded: fetched again). Groups of
   * an owned source make the write fenced; if it is fenced off, those groups are reported
   * superseded and the others (which no other process writes) are written again alone.
   */
  private async write(queued: QueuedGroup[]): Promise<GroupCounts[]> {
    const current = queued.filter((q) => !q.ownership?.lost());
    const written = current.length > 0 ? await this.writeCurrent(current) : [];
    return queued.map((q) =>
      current.includes(q) ? written[current.indexOf(q)] : { ...NONE, superseded: true },
    );
  }

  private async writeCurrent(queued: QueuedGroup[]): Promise<GroupCounts[]> {
    const owned = queued.filter((q) => q.ownership !== null);
    const ownership: WriteOwnership | undefined =
      owned.length === 0
        ? undefined
        : {
            sources: [...new Set(owned.flatMap((q) => q.ownership?.sources ?? []))],
            lost: () => owned.some((q) => q.ownership?.lost()),
          };
    const groups = queued.map((q) => q.columns);
    const stopTimer = this.metrics.batchWrite.startTimer();
    const written = await this.store.writeBatch(groups, this.config.usage.cardinality, ownership);
    stopTimer();
    const counts = await this.afterWrite(groups, written);
    if (!written.superseded) return counts;
    const unowned = queued.filter((q) => q.ownership === null);
    const rewritten = unowned.length > 0 ? await this.writeCurrent(unowned) : [];
    return queued.map((q) =>
      q.ownership === null ? rewritten[unowned.indexOf(q)] : { ...NONE, superseded: true },
    );
  }

  /**
   * What follows a write: revised-day marks, alerts, the export cache, metrics. Also after
   * a superseded write, which may have stored its events (its statement ran before the
   * fence): the marks and alerts then err on the side of a change.
   */
  private async afterWrite(
    groups: UsageEventColumns[],
    written: BatchWriteResult,
  ): Promise<GroupCounts[]> {
    // Before the write settles (and the Kafka offsets move): a crash in between replays
    // the batch, and the replay's evaluation records a crossing this one did not.
    await this.exportMarks.recordChanges(written.changedDays).catch((error: unknown) => {
      this.logger.error({ err: error }, 'could not record changes of exported usage days');
    });
    await this.alerts.afterWrite(groups).catch((error: unknown) => {
      this.logger.error({ err: error }, 'usage alert evaluation failed; the next write retries it');
    });
    // After the commit: the export's result cache re-reads these orgs' changed days. A key
    // turned identifier-like changes what its exports hold on every day.
    const rejectedOrgs = new Set(written.newlyRejectedKeys.map((k) => k.orgId));
    this.watermarks.advance(
      written.orgs,
      written.changedDays.filter((d) => !rejectedOrgs.has(d.orgId)),
    );
    // A superseded write's counts are not known for sure: its batches' next write counts them.
    for (const counts of written.superseded ? [] : written.groups) {
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
    for (const { orgId, keys } of written.untrackedKeys ?? []) {
      this.metrics.untrackedKeys.inc(keys);
      this.logger.warn(
        { orgId, untrackedKeys: keys, maxKeys: this.config.usage.cardinality.maxKeysPerOrg },
        "new metadata keys past the organization's cap are kept on the events but not broken out in usage",
      );
    }
    return written.groups;
  }
}
