import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import type { CardinalityRule } from '../../config/usage.types.js';
import type { UsageEventColumns } from '../core/usage-event-columns.types.js';
import { withoutRepeats } from '../ingestion/usage-store.repository.js';
import { MetadataKeyRepository } from '../metadata/metadata-key.repository.js';
import type {
  BatchWriteResult,
  UsageEventWriter,
  WriteOwnership,
} from '../core/usage-store.ports.js';
import { ClickHouseService } from './clickhouse.service.js';
import { stagingRows, STAGING_COLUMNS, type StagingRows } from './clickhouse-staging.js';
import { ALL_STAGED, leaveUntrackedKeysOut, trackCardinality } from './clickhouse-metadata-keys.js';

/** Query-id prefix of the statements that store events (every ingest process's). */
const WRITE_QUERY_PREFIX = 'docproc-write-';
const STORING_WRITES_POLL_MS = 200;
/** Longer than the client's request timeout: a write still running then has gone astray. */
const STORING_WRITES_WAIT_MS = 300_000;

/**
 * Writes batches of usage events to the ClickHouse store, each event once.
 *
 * One write is one HTTP session: the events are staged into a session temporary table,
 * the new ones (not yet stored for their day) are selected into a second one, and a single
 * INSERT ... SELECT moves them into `usage_events`, whose materialized views add them to
 * every rollup in that same statement. Nothing the client sends before that statement is
 * visible to anyone, and the statement runs on the server as a whole: a writer killed at
 * any point leaves either nothing or the whole write, and a redelivered batch finds its
 * events stored and counts them as duplicates (docs/scaling.md, "Exactly once").
 *
 * That dedupe holds while one writer at a time stores a partition's events. Kafka hands
 * partitions on at rebalances while the previous owner may still be writing them (a live
 * process finishing queued batches, a dead one's statement still running on the server),
 * so writes of Kafka batches are fenced (docs/decisions/0375-*): every rebalance records a
 * row in `usage_write_fences`; a fenced write reads their count before it begins and its
 * storing statement stores only while the count is unchanged, evaluated by the server when
 * that statement starts. The process that recorded the fence then waits for the storing
 * statements already running. So a write begun before a rebalance either stored before
 * the new owner's dedupe reads, or stores nothing and is superseded.
 */
@Injectable()
export class ClickHouseUsageStoreRepository implements UsageEventWriter {
  /**
   * Three times DuckDB's: each storing statement writes a part per month it touches to the
   * events table and to each rollup (parts the server merges again later), its dedupe probe
   * reads every stored event of the days it touches, and its other statements are a fixed
   * dozen; fewer, larger writes cost the server less per event (docs/decisions/0481-*).
   */
  readonly maxEventsPerWrite = 90_000;
  /** The query ids of this process's storing statements start with this. */
  private readonly ownWrites = `${WRITE_QUERY_PREFIX}${randomUUID()}-`;
  /** Settles once the fence of the last rebalance is recorded and the writes it found ended. */
  private fenced: Promise<void> = Promise.resolve();
  /** The sources this process was given at its last rebalance. */
  private fencedSources: readonly string[] = [];

  constructor(
    private readonly clickhouse: ClickHouseService,
    private readonly metadataKeys: MetadataKeyRepository,
  ) {}

  fenceEarlierWrites(sources: readonly string[]): void {
    this.fencedSources = sources;
    // After the previous fence: one recorded late would fence off writes made after this one.
    this.fenced = this.fenced
      .catch(() => undefined)
      .then(() => this.recordFence(sources))
      .then(() => this.storingWrites())
      .then((ids) => this.untilEnded(ids));
    // Awaited by the next write; a failure here fails that write, which is retried.
    this.fenced.catch(() => undefined);
  }

  private async recordFence(sources: readonly string[]): Promise<void> {
    if (sources.length === 0) return;
    await this.clickhouse.command(
      `INSERT INTO ${this.clickhouse.database}.usage_write_fences (fenced_at, fence_id, source)
       SELECT now(), {id:String}, arrayJoin({sources:Array(String)})`,
      { id: randomUUID(), sources },
    );
  }

  /** The fences recorded for the sources of parameter `sources`, as a scalar subquery. */
  private get fenceCount(): string {
    return `(SELECT count() FROM ${this.clickhouse.database}.usage_write_fences
      WHERE has({sources:Array(String)}, source))`;
  }

  /** Fences recorded for `sources` (the storing statement compares the same count). */
  private async fences(sources: readonly string[]): Promise<number> {
    const [row] = await this.clickhouse.rows<{ n: string }>(`SELECT ${this.fenceCount} AS n`, {
      sources,
    });
    return Number(row.n);
  }

  /**
   * Every process's storing statements running now, this one's too: a statement whose
   * client gave up (a timeout, a reset connection) still runs, and its batch is about to
   * be fetched again.
   */
  private async storingWrites(): Promise<string[]> {
    // Of this store only: the server may hold other databases (other stores, tests).
    const rows = await this.clickhouse.rows<{ query_id: string }>(
      `SELECT query_id FROM system.processes
       WHERE query_id LIKE {writes:String} AND position(query, {target:String}) > 0`,
      { writes: `${WRITE_QUERY_PREFIX}%`, target: `${this.clickhouse.database}.usage_events ` },
    );
    return rows.map((row) => row.query_id);
  }

  private async untilEnded(ids: string[]): Promise<void> {
    const deadline = Date.now() + STORING_WRITES_WAIT_MS;
    while (ids.length > 0) {
      if (Date.now() > deadline) {
        throw new Error(
          `an ingest write (${ids[0]}) still runs after ${STORING_WRITES_WAIT_MS} ms`,
        );
      }
      await sleep(STORING_WRITES_POLL_MS);
      const running = await this.clickhouse.rows<{ query_id: string }>(
        `SELECT query_id FROM system.processes WHERE has({ids:Array(String)}, query_id)`,
        { ids },
      );
      ids = running.map((row) => row.query_id);
    }
  }

  async writeBatch(
    groups: readonly UsageEventColumns[],
    rule: CardinalityRule,
    ownership?: WriteOwnership,
  ): Promise<BatchWriteResult> {
    const staged = stagingRows(withoutRepeats(groups));
    if (staged.days.length === 0) return noneWritten(groups);
    try {
      await this.fenced;
    } catch (error) {
      // Fenced again before the retry of this write: it must not go ahead unfenced.
      this.fenceEarlierWrites(this.fencedSources);
      throw error;
    }
    // Read before the ownership check: a rebalance after this read changes the count the
    // storing statement compares; one before it is seen by the check.
    const fenced = ownership ? { sources: ownership.sources, count: 0 } : null;
    if (fenced) fenced.count = await this.fences(fenced.sources);
    if (ownership?.lost()) return { ...noneWritten(groups), superseded: true };
    const session = { sessionId: `docproc-write-${randomUUID()}` };
    try {
      const result = await this.writeInSession(groups, staged, rule, session, fenced);
      if (fenced && (await this.fences(fenced.sources)) !== fenced.count) result.superseded = true;
      return result;
    } finally {
      // A session's tables would otherwise hold the write's rows on the server until the
      // session expires (a minute), one set per write.
      for (const table of ['usage_staging', 'batch_new', 'batch_untracked']) {
        await this.clickhouse
          .command(`DROP TEMPORARY TABLE IF EXISTS ${table}`, {}, session)
          .catch(() => undefined);
      }
    }
  }

  private async writeInSession(
    groups: readonly UsageEventColumns[],
    { chunks, days, carriesMetadata, carriesVersions }: StagingRows,
    rule: CardinalityRule,
    session: { sessionId: string },
    fenced: { sources: readonly string[]; count: number } | null,
  ): Promise<BatchWriteResult> {
    const db = this.clickhouse.database;
    await this.clickhouse.command(
      `CREATE TEMPORARY TABLE usage_staging (${STAGING_COLUMNS})`,
      {},
      session,
    );
    await this.clickhouse.insertTabSeparated('usage_staging', chunks, session);
    // Keys past their org's cap leave the staged events' entries (clickhouse-metadata-keys.ts).
    const { untracked, staged } = carriesMetadata
      ? await leaveUntrackedKeysOut(
          this.clickhouse,
          rule.maxKeysPerOrg,
          (orgs) => this.metadataKeys.enabledKeys(orgs),
          session,
        )
      : { untracked: [], staged: ALL_STAGED };
    await this.clickhouse.command(
      `CREATE TEMPORARY TABLE batch_new AS
       SELECT * FROM (
         SELECT grp, day, MD5(concat(source, '\\0', event_id)) AS event_key, source, event_id, org_id,
                toDateTime(event_seconds, 'UTC') AS event_time, event_ms, product, feature, api_key_id,
                file_type, pages, toDecimal64(credits, 6) AS credits, job_id, is_async,
                metadata_json, meta_keys, meta_values, version, ${NO_PREVIOUS_VERSION}
         FROM ${staged}
       )
       WHERE (day, event_key) NOT IN (
         SELECT day, event_key FROM ${db}.usage_events
         WHERE ${STORED_ON_WRITE_DAYS}
           AND event_key GLOBAL IN (SELECT MD5(concat(source, '\\0', event_id)) FROM usage_staging)
       )`,
      { days, first: days[0], last: days[days.length - 1] },
      session,
    );
    if (carriesVersions) await this.addCorrections(days, staged, session);
    const inserted = await this.clickhouse.rows<{
      grp: number;
      n: string;
      orgs: string[];
      org_days: string[];
    }>(
      `SELECT grp, count() AS n, groupUniqArray(org_id) AS orgs,
              groupUniqArray(concat(org_id, '|', toString(day))) AS org_days
       FROM batch_new GROUP BY grp`,
      {},
      session,
    );
    const insertedByGroup = new Map(inserted.map((r) => [Number(r.grp), Number(r.n)]));
    const counts = groups.map((events, group) => {
      const n = insertedByGroup.get(group) ?? 0;
      return { inserted: n, duplicates: events.length - n };
    });
    if (inserted.length === 0) return { ...noneWritten(groups), groups: counts };
    // The fence condition is a scalar subquery: the server reads it once, as the statement
    // starts (after listing it in system.processes, where a fencing process looks).
    await this.clickhouse.command(
      `INSERT INTO ${db}.usage_events (${EVENT_COLUMNS}, ingested_at, ${VERSION_COLUMNS})
       SELECT ${EVENT_COLUMNS}, now(), ${VERSION_COLUMNS}
       FROM batch_new
       ${fenced === null ? '' : `WHERE ${this.fenceCount} = {fences:UInt64}`}`,
      fenced === null ? {} : { sources: fenced.sources, fences: fenced.count },
      // On a cluster the statement returns once every shard stored its part (queryable).
      {
        ...session,
        settings: { insert_distributed_sync: 1 },
        queryId: `${this.ownWrites}${randomUUID()}`,
      },
    );
    const newlyRejectedKeys = carriesMetadata
      ? await trackCardinality(this.clickhouse, this.metadataKeys, rule, session)
      : [];
    return {
      groups: counts,
      newlyRejectedKeys,
      untrackedKeys: untracked,
      orgs: [...new Set(inserted.flatMap((r) => r.orgs))],
      // Org ids hold no '|' (they are the service's own ids); the day is the last 10 characters.
      changedDays: [...new Set(inserted.flatMap((r) => r.org_days))].map((orgDay) => ({
        orgId: orgDay.slice(0, -11),
        day: orgDay.slice(-10),
      })),
    };
  }

  /**
   * Corrections: staged events of a version above 1 whose identity is stored with a lower
   * version join `batch_new`, carrying the stored version's values in their `prev_*`
   * columns; the retraction views of the one INSERT that stores them subtract those.
   */
  private async addCorrections(
    days: string[],
    staged: string,
    session: { sessionId: string },
  ): Promise<void> {
    const db = this.clickhouse.database;
    await this.clickhouse.command(
      `INSERT INTO batch_new
       SELECT s.grp, s.day, s.event_key, s.source, s.event_id, s.org_id, s.event_time, s.event_ms,
              s.product, s.feature, s.api_key_id, s.file_type, s.pages, s.credits, s.job_id,
              s.is_async, s.metadata_json, s.meta_keys, s.meta_values, s.version,
              e.prev_version, e.prev_event_time, e.prev_product, e.prev_feature, e.prev_api_key_id,
              e.prev_file_type, e.prev_credits, e.prev_meta_keys, e.prev_meta_values
       FROM (
         SELECT grp, day, MD5(concat(source, '\\0', event_id)) AS event_key, source, event_id, org_id,
                toDateTime(event_seconds, 'UTC') AS event_time, event_ms, product, feature, api_key_id,
                file_type, pages, toDecimal64(credits, 6) AS credits, job_id, is_async,
                metadata_json, meta_keys, meta_values, version
         FROM ${staged} WHERE version > 1
       ) AS s
       ANY INNER JOIN (
         SELECT day, event_key, max(version) AS prev_version,
                argMax(event_time, version) AS prev_event_time,
                argMax(product, version) AS prev_product, argMax(feature, version) AS prev_feature,
                argMax(api_key_id, version) AS prev_api_key_id,
                argMax(file_type, version) AS prev_file_type,
                argMax(credits, version) AS prev_credits,
                argMax(meta_keys, version) AS prev_meta_keys,
                argMax(meta_values, version) AS prev_meta_values
         FROM ${db}.usage_events
         WHERE ${STORED_ON_WRITE_DAYS}
           AND event_key GLOBAL IN (
             SELECT MD5(concat(source, '\\0', event_id)) FROM usage_staging WHERE version > 1
           )
         GROUP BY day, event_key
       ) AS e USING (day, event_key)
       WHERE s.version > e.prev_version`,
      { days, first: days[0], last: days[days.length - 1] },
      session,
    );
  }

  /** Nothing to do: ClickHouse merges the rollups' rows of one key in the background. */
  async maintain(): Promise<void> {}

  /** ClickHouse's materialized views build its quarter-hour rollups with each insert. */
  rollUp(): Promise<number> {
    return Promise.resolve(0);
  }
}

/**
 * The stored events a write's dedupe and corrections read: those of the days it touches.
 * `IN` a set of those days rather than `has(array, day)`, which scanned the array for
 * every stored row: the probe reads every stored event of those days, and `has` tripled
 * its CPU (docs/benchmarks.md, "ClickHouse mode: the dedupe probe's day filter").
 */
const STORED_ON_WRITE_DAYS = `day BETWEEN {first:Date} AND {last:Date}
  AND day IN (SELECT arrayJoin({days:Array(Date)}))`;
/** The columns of an event as staged and stored. */
const EVENT_COLUMNS = `day, event_key, source, event_id, org_id, event_time, event_ms, product, feature,
  api_key_id, file_type, pages, credits, job_id, is_async, metadata_json, meta_keys, meta_values`;
/** What a correction carries: its version and the values of the version it replaces. */
const VERSION_COLUMNS = `version, prev_version, prev_event_time, prev_product, prev_feature,
  prev_api_key_id, prev_file_type, prev_credits, prev_meta_keys, prev_meta_values`;
/** The `prev_*` columns of an event that replaces nothing. */
const NO_PREVIOUS_VERSION = `toUInt32(0) AS prev_version, toDateTime(0, 'UTC') AS prev_event_time,
  '' AS prev_product, '' AS prev_feature, '' AS prev_api_key_id, '' AS prev_file_type,
  toDecimal64(0, 6) AS prev_credits, emptyArrayString() AS prev_meta_keys,
  emptyArrayString() AS prev_meta_values`;

function noneWritten(groups: readonly UsageEventColumns[]): BatchWriteResult {
  return {
    groups: groups.map(() => ({ inserted: 0, duplicates: 0 })),
    newlyRejectedKeys: [],
    orgs: [],
    changedDays: [],
  };
}
