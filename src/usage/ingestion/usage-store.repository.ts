import { Injectable } from '@nestjs/common';
import {
  BIGINT,
  BOOLEAN,
  DuckDBConnection,
  DuckDBDataChunk,
  INTEGER,
  JSToDuckDBValueConverter,
  LIST,
  VARCHAR,
} from '@duckdb/node-api';
import { DuckDbService } from '../../database/duckdb.service.js';
import type { CardinalityRule } from '../../config/usage.types.js';
import type { NormalizedUsageEvent } from './normalized-usage-event.js';

export interface BatchWriteResult {
  /** Per group written, in order: events new to the store and events it already had. */
  groups: { inserted: number; duplicates: number }[];
  /** (org, key) pairs that this write turned identifier-like. */
  newlyRejectedKeys: { orgId: string; key: string }[];
}

const STAGING_COLUMNS: [string, string][] = [
  ['batch_id', 'BIGINT'],
  ['source', 'VARCHAR'],
  ['event_id', 'VARCHAR'],
  ['org_id', 'VARCHAR'],
  ['event_time', 'VARCHAR'],
  ['day', 'VARCHAR'],
  ['product', 'VARCHAR'],
  ['feature', 'VARCHAR'],
  ['api_key_id', 'VARCHAR'],
  ['file_type', 'VARCHAR'],
  ['pages', 'INTEGER'],
  ['credits', 'VARCHAR'],
  ['job_id', 'VARCHAR'],
  ['is_async', 'BOOLEAN'],
  ['metadata_json', 'VARCHAR'],
  ['meta_keys', 'VARCHAR[]'],
  ['meta_values', 'VARCHAR[]'],
];
const STAGING_TABLE_COLUMNS = STAGING_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ');
const STAGING_TYPES = [
  BIGINT,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  INTEGER,
  VARCHAR,
  VARCHAR,
  BOOLEAN,
  VARCHAR,
  LIST(VARCHAR),
  LIST(VARCHAR),
];

/**
 * The narrow rollups the export reads for unfiltered groupings, with the sort key that
 * makes one org's rows contiguous, so DuckDB's zone maps skip every other org's row groups.
 */
const CLUSTERED_ROLLUPS = [
  {
    table: 'usage_daily_dimension',
    order: 'org_key, dimension, day, value',
    primaryKey: 'org_id, dimension, day, value',
  },
  {
    table: 'usage_daily_metadata_value',
    order: 'org_key, meta_key, day, meta_value',
    primaryKey: 'org_id, meta_key, day, meta_value',
  },
];

/**
 * Writes batches of normalized usage events: the events table (deduped on (source, id))
 * and the rollups, in one transaction, so the export never sees a half-written batch and
 * a redelivered batch changes nothing.
 */
@Injectable()
export class UsageStoreRepository {
  constructor(private readonly db: DuckDbService) {}

  /**
   * Writes several groups of events (e.g. batches of several partitions) in one
   * transaction; each group gets its own batch id so its counts stay its own. Within the
   * write, the first occurrence of an event wins: later copies count as duplicates.
   */
  async writeBatch(
    groups: NormalizedUsageEvent[][],
    rule: CardinalityRule,
  ): Promise<BatchWriteResult> {
    const staged = groups.reduce((n, g) => n + g.length, 0);
    if (staged === 0) {
      return { groups: groups.map(() => ({ inserted: 0, duplicates: 0 })), newlyRejectedKeys: [] };
    }
    return this.db.exclusive(async (connection) => {
      // Everything inside one transaction: on its own, taking the batch ids from the
      // sequence was a second commit (and WAL sync) per write.
      await connection.run('BEGIN TRANSACTION');
      try {
        const batchIds = await this.reserveBatchIds(connection, groups.length);
        await this.stage(connection, withoutRepeats(groups), batchIds);
        const result = await this.applyStaged(connection, groups, batchIds, rule);
        await connection.run('COMMIT');
        return result;
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  /**
   * Rewrites the narrow rollups in (org key, dimension or metadata key, day) order. Ingestion appends
   * rows in arrival order, which spreads an org over every row group; rewritten, an
   * export scans about one row group whatever the store's size (measured in
   * docs/benchmarks.md, "Usage export"). A new sorted copy replaces each table in one
   * transaction (cheaper than deleting and re-inserting every key of its index); readers
   * keep their snapshot, ingestion waits on the writer lock meanwhile.
   */
  async clusterNarrowRollups(): Promise<void> {
    await this.db.exclusive(async (connection) => {
      for (const { table, order, primaryKey } of CLUSTERED_ROLLUPS) {
        await connection.run('BEGIN TRANSACTION');
        try {
          await connection.run(
            `CREATE TABLE ${table}_clustered AS SELECT * FROM ${table} ORDER BY ${order}`,
          );
          await connection.run(`ALTER TABLE ${table}_clustered ADD PRIMARY KEY (${primaryKey})`);
          for (const column of ['org_key', 'credits', 'request_count']) {
            await connection.run(
              `ALTER TABLE ${table}_clustered ALTER COLUMN ${column} SET NOT NULL`,
            );
          }
          await connection.run(`DROP TABLE ${table}`);
          await connection.run(`ALTER TABLE ${table}_clustered RENAME TO ${table}`);
          await connection.run('COMMIT');
        } catch (error) {
          await connection.run('ROLLBACK').catch(() => undefined);
          throw error;
        }
      }
    });
  }

  /** Consecutive batch ids (the writer connection is exclusive while it takes them). */
  private async reserveBatchIds(connection: DuckDBConnection, count: number): Promise<bigint[]> {
    const reader = await connection.runAndReadAll(
      "SELECT nextval('usage_batch_seq') AS id FROM range($1) ORDER BY id",
      [count],
    );
    return reader.getRowObjectsJS().map((row) => row.id as bigint);
  }

  /** Loads the groups into a connection-local temp table through one data chunk per 2048 rows. */
  private async stage(
    connection: DuckDBConnection,
    groups: NormalizedUsageEvent[][],
    batchIds: bigint[],
  ): Promise<void> {
    // Replaced, not emptied: the temp database is never checkpointed, so rows deleted
    // from a kept table stayed in memory, and a long-running consumer's RSS grew with
    // every event it had ever staged.
    await connection.run(`CREATE OR REPLACE TEMP TABLE usage_staging (${STAGING_TABLE_COLUMNS})`);
    const appender = await connection.createAppender('usage_staging', 'main', 'temp');
    const chunkSize = 2048;
    groups.forEach((events, group) => {
      for (let start = 0; start < events.length; start += chunkSize) {
        const slice = events.slice(start, start + chunkSize);
        const chunk = DuckDBDataChunk.create(STAGING_TYPES, slice.length);
        chunk.setRowsConverted(
          slice.map((e) => {
            const keys = Object.keys(e.metadata);
            return [
              batchIds[group],
              e.source,
              e.eventId,
              e.orgId,
              e.eventTime,
              e.day,
              e.product,
              e.feature,
              e.apiKeyId,
              e.fileType,
              e.pages,
              e.credits,
              e.jobId,
              e.isAsync,
              e.metadataJson,
              keys,
              keys.map((k) => e.metadata[k]),
            ];
          }),
          JSToDuckDBValueConverter,
        );
        appender.appendDataChunk(chunk);
      }
    });
    appender.closeSync();
  }

  private async applyStaged(
    connection: DuckDBConnection,
    groups: NormalizedUsageEvent[][],
    batchIds: bigint[],
    rule: CardinalityRule,
  ): Promise<BatchWriteResult> {
    const range = [batchIds[0], batchIds[batchIds.length - 1]];
    const inBatch = 'batch_id BETWEEN $1 AND $2';
    await connection.run(
      `INSERT INTO usage_events
       SELECT md5_number(source || chr(0) || event_id), source, event_id, org_id,
              CAST(event_time AS TIMESTAMPTZ), CAST(day AS DATE), product, feature, api_key_id, file_type,
              pages, CAST(credits AS DECIMAL(18, 6)), job_id, is_async, metadata_json,
              map(meta_keys, meta_values), batch_id, now()
       FROM usage_staging
       ON CONFLICT DO NOTHING`,
    );
    const insertedRows = await connection.runAndReadAll(
      `SELECT batch_id, count(*) AS n FROM usage_events WHERE ${inBatch} GROUP BY batch_id`,
      range,
    );
    const insertedByBatch = new Map(
      insertedRows.getRowObjectsJS().map((r) => [r.batch_id as bigint, Number(r.n)]),
    );
    const counts = groups.map((events, group) => {
      const inserted = insertedByBatch.get(batchIds[group]) ?? 0;
      return { inserted, duplicates: events.length - inserted };
    });
    if (insertedByBatch.size === 0) return { groups: counts, newlyRejectedKeys: [] };

    // The batch's daily totals once; both rollups below derive from them, so the
    // dimension rollup unnests a few rows per (org, day, combination), not four per event.
    await connection.run(
      `CREATE OR REPLACE TEMP TABLE batch_daily AS
       SELECT org_id, day, product, feature, api_key_id, file_type,
              sum(credits) AS credits, count(*) AS request_count
       FROM usage_events WHERE ${inBatch}
       GROUP BY ALL`,
      range,
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
    const carriesMetadata = groups.some((events) =>
      events.some((e) => Object.keys(e.metadata).length > 0),
    );
    const newlyRejectedKeys = carriesMetadata
      ? await this.applyMetadata(connection, range, rule)
      : [];
    return { groups: counts, newlyRejectedKeys };
  }

  /** Cardinality tracking and the metadata rollup for the events of one batch. */
  private async applyMetadata(
    connection: DuckDBConnection,
    batchRange: bigint[],
    rule: CardinalityRule,
  ): Promise<{ orgId: string; key: string }[]> {
    await connection.run(
      `CREATE OR REPLACE TEMP TABLE batch_metadata AS
       SELECT org_id, day, product, feature, api_key_id, file_type, credits,
              unnest(map_keys(metadata)) AS meta_key, unnest(map_values(metadata)) AS meta_value
       FROM usage_events
       WHERE batch_id BETWEEN $1 AND $2 AND cardinality(metadata) > 0`,
      batchRange,
    );
    await connection.run(
      `CREATE OR REPLACE TEMP TABLE batch_keys AS
       SELECT b.org_id, b.meta_key, count(*) AS events, any_value(s.rejected_at) AS rejected_at
       FROM batch_metadata b
       LEFT JOIN metadata_key_stats s ON s.org_id = b.org_id AND s.meta_key = b.meta_key
       GROUP BY b.org_id, b.meta_key`,
    );
    await connection.run(
      `INSERT INTO metadata_key_values
       SELECT DISTINCT b.org_id, b.meta_key, b.meta_value
       FROM batch_metadata b
       JOIN batch_keys k ON k.org_id = b.org_id AND k.meta_key = b.meta_key AND k.rejected_at IS NULL
       ON CONFLICT DO NOTHING`,
    );
    const rejectedRows = await connection.runAndReadAll(
      `INSERT INTO metadata_key_stats
       SELECT k.org_id, k.meta_key, coalesce(s.event_count, 0) + k.events,
              CASE WHEN k.rejected_at IS NOT NULL THEN s.distinct_values ELSE v.n END,
              CASE
                WHEN k.rejected_at IS NOT NULL THEN k.rejected_at
                WHEN v.n >= $1 THEN now()
                WHEN coalesce(s.event_count, 0) + k.events >= $2
                 AND v.n > $3 * (coalesce(s.event_count, 0) + k.events) THEN now()
              END,
              CASE
                WHEN k.rejected_at IS NOT NULL THEN s.rejected_reason
                WHEN v.n >= $1 THEN 'has ' || v.n || ' distinct values (limit ' || $1 || ')'
                WHEN coalesce(s.event_count, 0) + k.events >= $2
                 AND v.n > $3 * (coalesce(s.event_count, 0) + k.events)
                THEN 'has ' || v.n || ' distinct values in ' || (coalesce(s.event_count, 0) + k.events) || ' events'
              END
       FROM batch_keys k
       LEFT JOIN metadata_key_stats s ON s.org_id = k.org_id AND s.meta_key = k.meta_key
       LEFT JOIN (
         SELECT v.org_id, v.meta_key, count(*) AS n
         FROM metadata_key_values v SEMI JOIN batch_keys k ON k.org_id = v.org_id AND k.meta_key = v.meta_key
         GROUP BY ALL
       ) v ON v.org_id = k.org_id AND v.meta_key = k.meta_key
       ON CONFLICT DO UPDATE SET
         event_count = EXCLUDED.event_count,
         distinct_values = EXCLUDED.distinct_values,
         rejected_at = EXCLUDED.rejected_at,
         rejected_reason = EXCLUDED.rejected_reason
       RETURNING org_id, meta_key, rejected_at`,
      [rule.maxDistinctValues, rule.minEventsForRatio, rule.maxDistinctRatio],
    );
    const wasRejected = new Set(
      (
        await connection.runAndReadAll(
          'SELECT org_id, meta_key FROM batch_keys WHERE rejected_at IS NOT NULL',
        )
      )
        .getRowObjectsJS()
        .map((r) => `${String(r.org_id)}\u0000${String(r.meta_key)}`),
    );
    const newlyRejected = rejectedRows
      .getRowObjectsJS()
      .filter(
        (r) =>
          r.rejected_at !== null &&
          !wasRejected.has(`${String(r.org_id)}\u0000${String(r.meta_key)}`),
      )
      .map((r) => ({ orgId: String(r.org_id), key: String(r.meta_key) }));

    if (newlyRejected.length > 0) {
      await connection.run(
        `CREATE OR REPLACE TEMP TABLE newly_rejected AS
         SELECT org_id, meta_key FROM metadata_key_stats
         SEMI JOIN batch_keys USING (org_id, meta_key)
         WHERE rejected_at IS NOT NULL`,
      );
      for (const table of [
        'usage_daily_metadata',
        'usage_daily_metadata_value',
        'metadata_key_values',
      ]) {
        await connection.run(
          `DELETE FROM ${table} WHERE (org_id, meta_key) IN (SELECT (org_id, meta_key) FROM newly_rejected)`,
        );
      }
    }
    await connection.run(
      `INSERT INTO usage_daily_metadata
       SELECT b.org_id, b.meta_key, b.day, b.meta_value, b.product, b.feature, b.api_key_id, b.file_type,
              sum(b.credits), count(*)
       FROM batch_metadata b
       SEMI JOIN metadata_key_stats s
         ON s.org_id = b.org_id AND s.meta_key = b.meta_key AND s.rejected_at IS NULL
       GROUP BY ALL
       ON CONFLICT DO UPDATE SET
         credits = usage_daily_metadata.credits + EXCLUDED.credits,
         request_count = usage_daily_metadata.request_count + EXCLUDED.request_count`,
    );
    await connection.run(
      `INSERT INTO usage_daily_metadata_value
       SELECT md5_number_upper(b.org_id), b.org_id, b.meta_key, b.day, b.meta_value, sum(b.credits), count(*)
       FROM batch_metadata b
       SEMI JOIN metadata_key_stats s
         ON s.org_id = b.org_id AND s.meta_key = b.meta_key AND s.rejected_at IS NULL
       GROUP BY ALL
       ON CONFLICT DO UPDATE SET
         credits = usage_daily_metadata_value.credits + EXCLUDED.credits,
         request_count = usage_daily_metadata_value.request_count + EXCLUDED.request_count`,
    );
    return newlyRejected;
  }
}

/** The groups with every repeat of an earlier (source, id) of the same write left out. */
function withoutRepeats(groups: NormalizedUsageEvent[][]): NormalizedUsageEvent[][] {
  const seen = new Set<string>();
  return groups.map((events) =>
    events.filter((e) => {
      const key = `${e.source}\u0000${e.eventId}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    }),
  );
}

export type { CardinalityRule } from '../../config/usage.types.js';
