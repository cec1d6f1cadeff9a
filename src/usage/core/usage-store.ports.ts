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
  /** Orgs that got new events (the export's result cache forgets their answers). */
  orgs: string[];
  /** The (org, UTC day) pairs of the new or corrected events (revised-day marks). */
  changedDays: { orgId: string; day: string }[];
}

/** Writes batches of normalized usage events: each event counts once, its rollups with it. */
export interface UsageEventWriter {
  /**
   * Writes several groups (e.g. batches of several partitions) as one write; the first
   * occurrence of an event (source, id) wins, later copies and events the store already
   * has count as duplicates. Settles only once the events are durable and queryable.
   */
  writeBatch(
    groups: readonly UsageEventColumns[],
    rule: CardinalityRule,
  ): Promise<BatchWriteResult>;
  /**
   * This process's share of the input was reassigned (a Kafka rebalance): the next write
   * waits until the writes other processes had in flight at this moment have settled, so
   * a batch that a stopped owner was still storing is seen by the dedupe of its redelivery.
   */
  settleOtherWriters(): void;
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
