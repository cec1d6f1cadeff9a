import { Injectable } from '@nestjs/common';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { duckdb } from '../../database/duckdb-api.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import type { CardinalityRule } from '../../config/usage.types.js';
import type { UsageEventColumns } from '../core/usage-event-columns.types.js';
import { selectRows } from './usage-event-columns.js';
import { EVENT_STAGING, METADATA_STAGING, stageEvents } from './usage-event-staging.js';
import { applyMetadata } from './usage-metadata.writer.js';
import {
  CORRECTION_TEMP_TABLES,
  dropEmptiedRollupRows,
  retractReplaced,
} from './usage-corrections.writer.js';
import type { BatchWriteResult, UsageEventWriter } from '../core/usage-store.ports.js';
import { newestBatchId, rollUpStep } from '../core/quarter-hour-rollups.js';
import {
  KEYED_TABLES,
  rewriteKeyedIfGrown,
  SORTED_RUN_TABLES,
  sortUnsortedRows,
} from './rollup-clustering.js';

export type { BatchWriteResult } from '../core/usage-store.ports.js';

/** The connection-local tables one write creates (staging and intermediate results). */
const WRITE_TEMP_TABLES = [
  EVENT_STAGING,
  METADATA_STAGING,
  'batch_new',
  'batch_daily_meta',
  'batch_daily',
  'batch_metadata',
  'batch_keys',
  'batch_untracked',
  'newly_rejected',
  ...CORRECTION_TEMP_TABLES,
];

/**
 * Writes batches of normalized usage events: the events table (deduped on (source, id))
 * and the daily rollups, in one transaction, so the export never sees a half-written batch
 * and a redelivered batch changes nothing. The quarter-hour rollups follow after the write
 * (rollUp; readers add the events not in them yet).
 */
@Injectable()
export class UsageStoreRepository implements UsageEventWriter {
  /**
   * A transaction's fixed cost (statements, commit) is ~90 ms, so a backlog drains fastest
   * in large writes; 30,000 events (one fetch of 3 x 4 MiB partitions) measured best
   * (docs/benchmarks.md).
   */
  readonly maxEventsPerWrite = 30_000;

  constructor(private readonly db: DuckDbService) {}

  /** One process owns the DuckDB file: no other writer can have a write in flight. */
  fenceEarlierWrites(): void {}

  /**
   * Writes several groups of events (e.g. batches of several partitions) in one
   * transaction; each group gets its own batch id so its counts stay its own. Within the
   * write, the first occurrence of an event wins: later copies count as duplicates. The
   * one writer of its file needs no ownership fence: a batch written twice is deduped.
   */
  async writeBatch(
    groups: readonly UsageEventColumns[],
    rule: CardinalityRule,
  ): Promise<BatchWriteResult> {
    const staged = groups.reduce((n, g) => n + g.length, 0);
    if (staged === 0) {
      return {
        groups: groups.map(() => ({ inserted: 0, duplicates: 0 })),
        newlyRejectedKeys: [],
        orgs: [],
        changedDays: [],
      };
    }
    return this.db.exclusive(async (connection) => {
      // Everything inside one transaction: on its own, taking the batch ids from the
      // sequence was a second commit (and WAL sync) per write.
      await connection.run('BEGIN TRANSACTION');
      try {
        const firstBatchId = await this.reserveBatchIds(connection, groups.length);
        const result = await this.applyStaged(connection, groups, firstBatchId, rule);
        // The temp tables would keep this write's rows in memory until the next write
        // replaced them (~20 MB of DuckDB's in-memory tables in bench:ingest-profile);
        // dropped inside the transaction, they go with its commit.
        for (const table of WRITE_TEMP_TABLES) {
          await connection.run(`DROP TABLE IF EXISTS temp.${table}`);
        }
        // What the write freed (its staging, the dedupe probe's hash table), handed back
        // before the commit that may checkpoint: the statements ran on other threads, whose
        // allocator arenas the checkpoint's allocations would not reuse.
        await this.db.releaseFreedMemory(connection);
        await connection.run('COMMIT');
        return result;
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  /** The periodic upkeep: the quarter-hour rollups caught up, then every rollup re-clustered. */
  async maintain(): Promise<void> {
    await this.rollUp();
    await this.clusterNarrowRollups();
  }

  /**
   * Adds the events written since the last pass to the quarter-hour rollups, one small
   * transaction per step (about ROLLUP_STEP_EVENTS events), releasing the writer between
   * steps so ingestion goes on meanwhile. The pass stops at the newest batch stored when it
   * began: chasing the writes that land between its steps made each of them a step of its
   * own during a backlog, one write's events per step, where a step's rows and its commit
   * cost about as much for a few thousand events as for a hundred thousand over many days.
   * Returns the events added.
   */
  async rollUp(): Promise<number> {
    let total = 0;
    let through: string | null | undefined;
    for (;;) {
      const added = await this.db.exclusive(async (connection) => {
        await connection.run('BEGIN TRANSACTION');
        try {
          through ??= await newestBatchId(connection);
          const events = through === null ? 0 : await rollUpStep(connection, through);
          await connection.run('COMMIT');
          return events;
        } catch (error) {
          await connection.run('ROLLBACK').catch(() => undefined);
          throw error;
        }
      });
      if (added === 0) return total;
      total += added;
    }
  }

  /**
   * Re-clusters the rollups the export reads in org order (rollup-clustering.ts): each
   * quarter-hour table's rows appended since the last pass become one sorted run, merged
   * with its newest runs size-tiered; each keyed narrow daily table is rewritten whole once
   * it grew by a share of itself. One transaction per table, the writer released between
   * tables; readers keep their snapshot and sum every run, so no step changes a total.
   * Returns the rows rewritten.
   */
  async clusterNarrowRollups(): Promise<number> {
    let rewritten = 0;
    const steps = [
      ...KEYED_TABLES.map((table) => (c: DuckDBConnection) => rewriteKeyedIfGrown(c, table)),
      ...SORTED_RUN_TABLES.map((table) => (c: DuckDBConnection) => sortUnsortedRows(c, table)),
    ];
    for (const step of steps) {
      rewritten += await this.db.exclusive(async (connection) => {
        await connection.run('BEGIN TRANSACTION');
        try {
          const rows = await step(connection);
          await connection.run('COMMIT');
          return rows;
        } catch (error) {
          await connection.run('ROLLBACK').catch(() => undefined);
          throw error;
        }
      });
    }
    return rewritten;
  }

  /** The first of `count` consecutive batch ids (the writer connection is exclusive meanwhile). */
  private async reserveBatchIds(connection: DuckDBConnection, count: number): Promise<bigint> {
    const reader = await connection.runAndReadAll(
      "SELECT min(nextval('usage_batch_seq')) AS id FROM range($1)",
      [count],
    );
    return reader.getRowObjectsJS()[0].id as bigint;
  }

  /**
   * Stages the events, keeps those the store does not have yet (`batch_new`), inserts them
   * and adds them to the rollups. The dedupe is an anti-join against the stored keys of
   * only the days the write touches: constant `day BETWEEN` ranges become table filters
   * whose zone maps skip every other day's row groups (an `IN` list of many days became a
   * join over the whole table instead), so its cost and memory follow the events of those
   * days, never the whole history (docs/decisions/0062-dedupe-by-event-day-without-an-index.md).
   */
  private async applyStaged(
    connection: DuckDBConnection,
    groups: readonly UsageEventColumns[],
    firstBatchId: bigint,
    rule: CardinalityRule,
  ): Promise<BatchWriteResult> {
    const staged = await stageEvents(connection, withoutRepeats(groups));
    const dict: DuckDBValue = duckdb.listValue(staged.dictionary);
    const ranges = dayRanges(staged.days);
    // The ranges as parameters numbered from `first` on.
    const dayFilterAt = (first: number) =>
      ranges
        .map(
          (_, i) =>
            `day BETWEEN CAST($${2 * i + first} AS DATE) AND CAST($${2 * i + first + 1} AS DATE)`,
        )
        .join(' OR ');
    const dayFilter = dayFilterAt(2);
    await connection.run(
      `CREATE OR REPLACE TEMP TABLE batch_new AS
       SELECT s.*, e.event_key IS NOT NULL AS replaces FROM (
         SELECT md5_number($1[source_c] || chr(0) || event_id) AS event_key, grp,
                $1[source_c] AS source, event_id, $1[org_c] AS org_id,
                make_timestamptz(CAST(event_time_ms AS BIGINT) * 1000) AS event_time,
                CAST($1[day_c] AS DATE) AS day,
                $1[product_c] AS product, $1[feature_c] AS feature, $1[api_key_c] AS api_key_id,
                $1[file_type_c] AS file_type, pages,
                CAST(CAST(credits_whole AS DECIMAL(18, 0))
                     + CAST(credits_micros AS DECIMAL(18, 0)) * 0.000001 AS DECIMAL(18, 6)) AS credits,
                job_id, is_async, metadata_json, meta_c, version
         FROM ${EVENT_STAGING}
       ) s
       LEFT JOIN (SELECT day, event_key, version FROM usage_events WHERE ${dayFilter}) e
         ON e.day = s.day AND e.event_key = s.event_key
       -- New to the store, or a correction: a higher version of a stored event.
       WHERE e.event_key IS NULL OR s.version > e.version`,
      [dict, ...ranges.flat()],
    );
    // Grouped by (org, day) first: the pair's text is built once per pair, not per event.
    const insertedRows = await connection.runAndReadAll(
      `SELECT grp, sum(n) AS n, list(DISTINCT org_id) AS orgs,
              list(org_id || chr(0) || CAST(day AS VARCHAR)) AS org_days
       FROM (SELECT grp, org_id, day, count(*) AS n FROM batch_new GROUP BY ALL)
       GROUP BY grp`,
    );
    const insertedByGroup = new Map<number, number>();
    const orgs = new Set<string>();
    const orgDays = new Set<string>();
    for (const row of insertedRows.getRowObjectsJS()) {
      insertedByGroup.set(Number(row.grp), Number(row.n));
      for (const org of row.orgs as string[]) orgs.add(org);
      for (const orgDay of row.org_days as string[]) orgDays.add(orgDay);
    }
    const changedDays = [...orgDays].map((orgDay) => {
      const [orgId, day] = orgDay.split('\u0000');
      return { orgId, day };
    });
    const counts = groups.map((events, group) => {
      const inserted = insertedByGroup.get(group) ?? 0;
      return { inserted, duplicates: events.length - inserted };
    });
    if (insertedByGroup.size === 0) {
      return { groups: counts, newlyRejectedKeys: [], orgs: [], changedDays: [] };
    }

    const corrected = staged.carriesVersions
      ? await retractReplaced(connection, dayFilterAt(1), ranges.flat())
      : false;
    await connection.run(
      `INSERT INTO usage_events
       SELECT event_key, source, event_id, org_id, event_time, day, product, feature,
              api_key_id, file_type, pages, credits, job_id, is_async, metadata_json,
              $1 + grp, now(), version, meta_c
       FROM batch_new`,
      [firstBatchId],
    );
    // Each combination of metadata entries the new events carry, once per group, so the
    // roll-up and the export join an event's entries instead of parsing its JSON again.
    if (staged.carriesMetadata) {
      await connection.run(
        `INSERT INTO usage_metadata_combinations
         SELECT $1 + b.grp, m.combo, $2[m.key_c], $2[m.value_c]
         FROM (SELECT DISTINCT grp, meta_c FROM batch_new WHERE meta_c > 0) b
         JOIN ${METADATA_STAGING} m ON m.combo = b.meta_c`,
        [firstBatchId, dict],
      );
    }
    // The write's daily totals once (per metadata combination too); every rollup below
    // derives from them, so the dimension rollup unnests a few rows per (org, day,
    // combination), not four per event, and the metadata ones a few per entry.
    await connection.run(
      `CREATE OR REPLACE TEMP TABLE batch_daily_meta AS
       SELECT org_id, day, product, feature, api_key_id, file_type, meta_c,
              sum(credits) AS credits, count(*) AS request_count
       FROM batch_new
       GROUP BY ALL`,
    );
    await connection.run(
      `CREATE OR REPLACE TEMP TABLE batch_daily AS
       SELECT org_id, day, product, feature, api_key_id, file_type,
              sum(credits) AS credits, sum(request_count) AS request_count
       FROM batch_daily_meta
       GROUP BY ALL`,
    );
    await connection.run(
      `INSERT INTO usage_daily SELECT * FROM batch_daily
       ON CONFLICT DO UPDATE SET
         credits = usage_daily.credits + EXCLUDED.credits,
         request_count = usage_daily.request_count + EXCLUDED.request_count`,
    );
    await connection.run(
      `INSERT INTO usage_daily_dimension
       SELECT md5_number_upper(org_id), org_id, dimension, day, value, sum(credits), sum(request_count)
       FROM (
         SELECT org_id, day, credits, request_count,
                unnest(['product', 'feature', 'api_key', 'file_type']) AS dimension,
                unnest([product, feature, api_key_id, file_type]) AS value
         FROM batch_daily
       )
       GROUP BY ALL
       ON CONFLICT DO UPDATE SET
         credits = usage_daily_dimension.credits + EXCLUDED.credits,
         request_count = usage_daily_dimension.request_count + EXCLUDED.request_count`,
    );
    // Sync usage carries no metadata: a write of only such events skips the metadata
    // statements (about half of a small write's statements).
    const metadata = staged.carriesMetadata
      ? await applyMetadata(connection, dict, rule, firstBatchId)
      : { newlyRejected: [], untracked: [] };
    if (corrected) await dropEmptiedRollupRows(connection);
    return {
      groups: counts,
      newlyRejectedKeys: metadata.newlyRejected,
      untrackedKeys: metadata.untracked,
      orgs: [...orgs],
      changedDays,
    };
  }
}

/** Sorted yyyy-mm-dd days as runs of consecutive days, [first, last] each (at most 8 runs). */
export function dayRanges(days: string[], maxRanges = 8): [string, string][] {
  const ranges: [string, string][] = [];
  for (const day of days) {
    const last = ranges[ranges.length - 1];
    if (last && Date.parse(day) - Date.parse(last[1]) === 86_400_000) last[1] = day;
    else ranges.push([day, day]);
  }
  // Few, wider ranges beyond that: merge across the smallest gaps (a range only reads more).
  const gapBefore = (i: number) => Date.parse(ranges[i][0]) - Date.parse(ranges[i - 1][1]);
  while (ranges.length > maxRanges) {
    let smallest = 1;
    for (let i = 2; i < ranges.length; i++) if (gapBefore(i) < gapBefore(smallest)) smallest = i;
    ranges[smallest - 1][1] = ranges[smallest][1];
    ranges.splice(smallest, 1);
  }
  return ranges;
}

/**
 * The groups with every repeat of a (source, id) of the same write left out: the first copy
 * of the highest version wins (a correction sent right behind its original replaces it),
 * the others count as duplicates. (A window over the staged rows did the
 * same in DuckDB at ~3 µs per event on the writer's thread.)
 */
export function withoutRepeats(groups: readonly UsageEventColumns[]): UsageEventColumns[] {
  if (!repeatsAnEventId(groups)) return [...groups];
  // identity -> [group, row] of the copy kept: the first of the highest version.
  const kept = new Map<string, [number, number]>();
  let repeated = false;
  groups.forEach((group, g) => {
    for (let row = 0; row < group.length; row++) {
      const identity = `${group.dictionary[group.source[row] - 1]}\u0000${group.eventId[row]}`;
      const best = kept.get(identity);
      if (best === undefined) kept.set(identity, [g, row]);
      else {
        repeated = true;
        if (group.version[row] > groups[best[0]].version[best[1]]) kept.set(identity, [g, row]);
      }
    }
  });
  if (!repeated) return [...groups];
  const keep = groups.map(() => new Set<number>());
  for (const [g, row] of kept.values()) keep[g].add(row);
  return groups.map((group, g) =>
    keep[g].size === group.length ? group : selectRows(group, (row) => keep[g].has(row)),
  );
}

/**
 * Whether some event id occurs twice in the write, whatever its source: false for nearly
 * every write, which then needs no identity per event. The ids are the strings the
 * columns already hold, so the check allocates no string and no entry object per event,
 * where a composite identity for every row of every write did, on the thread that runs
 * the consumer and the writer (docs/benchmarks.md, "Kafka ingestion from start").
 */
function repeatsAnEventId(groups: readonly UsageEventColumns[]): boolean {
  const seen = new Set<string>();
  let total = 0;
  for (const group of groups) {
    for (const id of group.eventId) seen.add(id);
    total += group.length;
  }
  return seen.size < total;
}

export type { CardinalityRule } from '../../config/usage.types.js';
