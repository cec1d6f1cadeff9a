import type { CardinalityRule } from '../../config/usage.types.js';
import type { UsageExportQuery } from './usage-export-query.types.js';
import type { UsageEventColumns } from './usage-event-columns.types.js';
import type { AlertScope, PeriodTotals } from './usage-period-totals.types.js';

/*
 * The two ports of the usage store: the ingestion writes and the export reads. DuckDB
 * (UsageStoreRepository, UsageExportRepository) and ClickHouse (../clickhouse/)
 * implement both; USAGE_STORE picks one at start (usage.module.ts). Services depend only
 * on these interfaces, so a rule of ingestion or of the export lives once, above them.
 */

export interface BatchWriteResult {
  /** Per group written, in order: events new to the store and events it already had. */
  groups: { inserted: number; duplicates: number }[];
  /** (org, key) pairs that this write turned identifier-like. */
  newlyRejectedKeys: { orgId: string; key: string }[];
  /**
   * Per org, the new metadata keys the write left out of usage: past the org's cap on
   * tracked keys (metadata/metadata-key-cap.ts); their entries stay on the events only.
   */
  untrackedKeys?: UntrackedMetadataKeys[];
  /** Orgs that got new events (the export's result cache forgets their answers). */
  orgs: string[];
  /** The (org, UTC day) pairs of the new or corrected events (revised-day marks). */
  changedDays: { orgId: string; day: string }[];
  /**
   * The write was fenced off: the partitions its batches came from were handed on while it
   * ran, so it stored nothing or (if its statement ran before the fence) everything; either
   * way its batches must not be committed: their next owner reads them again, and the
   * dedupe counts what this write did store.
   */
  superseded?: boolean;
}

/** How many new metadata keys a write left out of one org's usage. */
export interface UntrackedMetadataKeys {
  orgId: string;
  keys: number;
}

/** Where a write's batches come from, and whether that may have been handed to another writer. */
export interface WriteOwnership {
  /** The sources (Kafka topic partitions, as `topic:partition`) of the batches. */
  sources: readonly string[];
  /** True once a rebalance (or a replaced consumer) may have given the batches' partitions on. */
  lost(): boolean;
}

/** Writes batches of normalized usage events: each event counts once, its rollups with it. */
export interface UsageEventWriter {
  /**
   * The most events one write takes (queued Kafka batches merge into writes up to this).
   * Each write has a fixed cost in the store; what it is decides the size.
   */
  readonly maxEventsPerWrite: number;
  /**
   * Writes several groups (e.g. batches of several partitions) as one write; the first
   * occurrence of an event (source, id) wins, later copies and events the store already
   * has count as duplicates. Settles only once the events are durable and queryable.
   * With `ownership` (batches of Kafka partitions), a write whose partitions were handed on
   * before it stored is `superseded` instead of racing their new owner.
   */
  writeBatch(
    groups: readonly UsageEventColumns[],
    rule: CardinalityRule,
    ownership?: WriteOwnership,
  ): Promise<BatchWriteResult>;
  /**
   * This process joined its consumer group again (a Kafka rebalance) and was given
   * `sources`: writes of them that began before this moment, in any process, must not
   * store after it, and the next write waits until those already storing have ended
   * (docs/decisions/0375-*).
   */
  fenceEarlierWrites(sources: readonly string[]): void;
  /** Store upkeep the writer runs periodically (DuckDB: re-clustering the narrow rollups). */
  maintain(): Promise<void>;
  /**
   * Brings the rollups built after the writes up to date (DuckDB: the quarter-hour ones;
   * readers never depend on it for exactness). Returns the events it added.
   */
  rollUp(): Promise<number>;
}

/** One (day, group) of the export; credits as exact decimal text. */
export interface UsageExportRow {
  date: string;
  group: string;
  /** The second dimension's value, when the export groups by two. */
  subgroup?: string;
  credits: string;
  requestCount: number;
}

/** The export's reads: rows (date, group) with exact credits, sorted by date then group. */
export interface UsageExportReader {
  /** The `data` array's elements as JSON text (comma-separated objects, no brackets). */
  jsonData(query: UsageExportQuery, orgId: string): Promise<string>;
  stream(query: UsageExportQuery, orgId: string): AsyncGenerator<UsageExportRow[]>;
}

export const USAGE_EVENT_WRITER = Symbol('USAGE_EVENT_WRITER');
export const USAGE_EXPORT_READER = Symbol('USAGE_EXPORT_READER');

/**
 * A period's totals of one usage-alert scope (all usage, a product, a metadata value, or a
 * product and a metadata value), read from the store's rollups after a write committed.
 */
export interface UsagePeriodTotalsReader {
  periodTotals(
    orgId: string,
    firstDay: string,
    lastDay: string,
    scope: AlertScope,
  ): Promise<PeriodTotals>;
}

export const USAGE_PERIOD_TOTALS = Symbol('USAGE_PERIOD_TOTALS');
