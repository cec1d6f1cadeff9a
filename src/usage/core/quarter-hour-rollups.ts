import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { BUCKET_SECONDS, BUCKET_START_QUARTERS } from './time-zone.js';
import { METADATA_KEY_MAX_LENGTH, METADATA_VALUE_MAX_CODE_POINTS } from './metadata-values.js';
import { countedMetadataEntry } from './counted-metadata-entries.js';

/*
 * The quarter-hour rollups (usage_quarter_hour, usage_quarter_hour_metadata) are built from
 * the events table after the ingest write: a maintenance pass adds the events of the batches
 * written since its last run and moves the watermark (`usage_quarter_hour_watermark`) past
 * them; readers add the events beyond the watermark themselves
 * (docs/decisions/0290-quarter-hour-rollups-built-after-the-write.md).
 */

/** The last batch id whose events are in the quarter-hour rollups, as a scalar subquery. */
export const ROLLED_BATCH_ID = '(SELECT max(rolled_batch_id) FROM usage_quarter_hour_watermark)';

/**
 * The columns of each quarter-hour table that readers and writers name (the tables also
 * carry `sorted_run`, the clustering pass's own: rows written without it are unsorted).
 */
export const QUARTER_HOUR_COLUMNS = {
  usage_quarter_hour:
    'org_key, org_id, quarter, product, feature, api_key_id, file_type, credits, request_count',
  usage_quarter_hour_metadata:
    'org_key, org_id, meta_key, quarter, meta_value, product, feature, api_key_id, file_type, credits, request_count',
  usage_quarter_hour_dimension:
    'org_key, org_id, dimension, quarter, value, credits, request_count',
  usage_quarter_hour_metadata_value:
    'org_key, org_id, meta_key, quarter, meta_value, credits, request_count',
} as const;
export type QuarterHourTable = keyof typeof QUARTER_HOUR_COLUMNS;

/**
 * The full quarter-hour tables (every dimension per row) and, for each, its narrow table: the
 * same buckets summed over the other dimensions, one row per value of one dimension (or of
 * one metadata key), so an export in a zone grouped by one dimension reads a few rows per
 * hour instead of one per combination (docs/decisions/0408-narrow-quarter-hour-rollups.md).
 */
export type FullQuarterHourTable = 'usage_quarter_hour' | 'usage_quarter_hour_metadata';
export const NARROW_QUARTER_HOUR_TABLE = {
  usage_quarter_hour: 'usage_quarter_hour_dimension',
  usage_quarter_hour_metadata: 'usage_quarter_hour_metadata_value',
} as const satisfies Record<FullQuarterHourTable, QuarterHourTable>;

/** The dimensions of usage_quarter_hour_dimension, as `groupBy` names them, and their columns. */
const NARROW_DIMENSIONS = {
  product: 'product',
  feature: 'feature',
  api_key: 'api_key_id',
  file_type: 'file_type',
} as const;

/**
 * The narrow table's rows (its columns, in order) of `fullRows`, rows of the full table
 * (its columns, in order): summed over the dimensions the narrow table leaves out.
 */
export function narrowRowsSql(full: FullQuarterHourTable, fullRows: string): string {
  const sums =
    'CAST(sum(credits) AS DECIMAL(38, 6)) AS credits, CAST(sum(request_count) AS BIGINT) AS request_count';
  if (full === 'usage_quarter_hour_metadata') {
    return `SELECT org_key, org_id, meta_key, quarter, meta_value, ${sums}
            FROM (${fullRows}) GROUP BY ALL`;
  }
  const names = Object.keys(NARROW_DIMENSIONS).map((name) => `'${name}'`);
  return `SELECT org_key, org_id, dimension, quarter, value, ${sums}
          FROM (SELECT org_key, org_id, quarter, credits, request_count,
                       unnest([${names.join(', ')}]) AS dimension,
                       unnest([${Object.values(NARROW_DIMENSIONS).join(', ')}]) AS value
                FROM (${fullRows}))
          GROUP BY ALL`;
}

/**
 * Adds rows to a full quarter-hour table and their projection to its narrow one, inside the
 * caller's transaction (the narrow table equals its full one after both), each in the order
 * the clustering pass keeps. `rows` gives the full table's columns, in order, with `params`;
 * it is computed once (a step's events with their metadata unnested cost most of a step).
 */
export async function insertQuarterHourAndNarrowRows(
  connection: DuckDBConnection,
  full: FullQuarterHourTable,
  rows: string,
  params: DuckDBValue[] = [],
): Promise<void> {
  const metadata = full === 'usage_quarter_hour_metadata';
  await connection.run(`CREATE OR REPLACE TEMP TABLE quarter_hour_rows AS ${rows}`, params);
  await connection.run(
    `${insertQuarterHourRows(full, 'SELECT * FROM temp.quarter_hour_rows')}
     ORDER BY org_key, ${metadata ? 'meta_key, ' : ''}quarter`,
  );
  await connection.run(
    `${insertQuarterHourRows(NARROW_QUARTER_HOUR_TABLE[full], narrowRowsSql(full, 'SELECT * FROM temp.quarter_hour_rows'))}
     ORDER BY org_key, ${metadata ? 'meta_key' : 'dimension'}, quarter`,
  );
  await connection.run('DROP TABLE temp.quarter_hour_rows');
}

/** An INSERT of quarter-hour rollup rows (`rows` gives the table's columns, in order). */
export function insertQuarterHourRows(table: QuarterHourTable, rows: string): string {
  return `INSERT INTO ${table} (${QUARTER_HOUR_COLUMNS[table]}) ${rows}`;
}

/** Events the maintenance pass adds per transaction (at least one whole batch each time). */
export const ROLLUP_STEP_EVENTS = 100_000;

/** The quarter hour of an event row: floor(epoch seconds / 900). */
const QUARTER_OF_EVENT = `CAST(floor(epoch(event_time) / ${BUCKET_SECONDS}) AS INTEGER)`;

/**
 * The bucket the rollups keep an event row in, named by its first quarter hour: its whole
 * hour, cut only where a zone in use starts its day within that hour (BUCKET_START_QUARTERS),
 * so a dense org's hour is one to three rows instead of four
 * (docs/decisions/0367-hourly-buckets-cut-where-a-zone-starts-its-day.md).
 */
export const BUCKET_OF_EVENT = `CAST(floor(epoch(event_time) / 3600) * ${3600 / BUCKET_SECONDS}
    + list_extract([${BUCKET_START_QUARTERS.join(', ')}],
                   CAST((${QUARTER_OF_EVENT} % 96 + 96) % 96 AS INTEGER) + 1) AS INTEGER)`;

/** How rows of events are bucketed: as the rollups keep them, or always by quarter hour. */
export type Bucketing = 'stored' | 'quarter';
const bucketOf = (bucketing: Bucketing) =>
  bucketing === 'stored' ? BUCKET_OF_EVENT : QUARTER_OF_EVENT;

/**
 * The rows of `groupedRows` (grouped by their `org_id`, among others) with the org's key
 * in front. The key is a function of the org alone, so it is hashed once per grouped row:
 * grouping by it hashed every event row (half of a roll-up step's CPU, docs/benchmarks.md,
 * "Kafka ingestion from start").
 */
function withOrgKey(groupedRows: string): string {
  return `SELECT md5_number_upper(org_id) AS org_key, * FROM (${groupedRows})`;
}

/**
 * Quarter-hour rollup rows (the table's columns, in order) of the event rows of `source`
 * matching `where`; `sign` -1 gives the rows that take them out again.
 */
export function quarterHourRowsSql(
  source: string,
  where: string,
  sign: 1 | -1 = 1,
  bucketing: Bucketing = 'stored',
): string {
  return withOrgKey(`SELECT org_id, ${bucketOf(bucketing)} AS quarter,
                 product, feature, api_key_id, file_type,
                 CAST(${sign} * sum(credits) AS DECIMAL(38, 6)) AS credits,
                 CAST(${sign} * count(*) AS BIGINT) AS request_count
          FROM ${source} WHERE ${where}
          GROUP BY ALL`);
}

/**
 * The groupable metadata entries of the event rows of `source` matching `where`, one row per
 * (event, key), by the normalizer's rule (metadata-values.ts), for the keys the daily
 * rollups count them under (countedMetadataEntry: not rejected, tracked when written). Events written since migration 122 name their
 * combination of entries as the write stored it (`metadata_combo`, joined to
 * `usage_metadata_combinations`); older ones are read from their JSON.
 */
function metadataEntriesSql(source: string, where: string, bucketing: Bucketing): string {
  return `SELECT e.* FROM (
      SELECT ev.org_id, ev.quarter, ev.product, ev.feature, ev.api_key_id, ev.file_type,
             ev.credits, ev.batch_id, c.meta_key, c.meta_value
      FROM (
        SELECT org_id, ${bucketOf(bucketing)} AS quarter, product, feature, api_key_id, file_type,
               credits, batch_id, metadata_combo
        FROM ${source}
        WHERE (${where}) AND metadata_combo > 0
      ) ev
      JOIN usage_metadata_combinations c
        ON c.batch_id = ev.batch_id AND c.combo = ev.metadata_combo
      UNION ALL
      ${metadataEntriesFromJsonSql(source, `(${where}) AND metadata_combo IS NULL`, bucketing)}
    ) e
    SEMI JOIN metadata_key_stats s
      ON s.org_id = e.org_id AND s.meta_key = e.meta_key AND ${countedMetadataEntry('e.batch_id')}
    WHERE e.meta_value IS NOT NULL`;
}

/**
 * The same entries of events stored before `metadata_combo`, from `metadata_json`: async
 * events only; keys of 1 to 256 UTF-16 units; strings truncated to 256 code points; booleans
 * and numbers as their JSON text. `metadata_json` is the normalizer's JSON.stringify of the
 * object, so a number's token is already its JSON text; DuckDB writes it back the same but
 * for a positive exponent's sign (`1e21` for `1e+21`), restored here.
 */
function metadataEntriesFromJsonSql(source: string, where: string, bucketing: Bucketing): string {
  const utf16Length = `(length(entry.key) + length(regexp_replace(entry.key, '[^\\x{10000}-\\x{10FFFF}]', '', 'g')))`;
  return `SELECT org_id, quarter, product, feature, api_key_id, file_type, credits, batch_id,
             entry.key AS meta_key,
             CASE json_type(entry.value)
               WHEN 'VARCHAR' THEN left(json_extract_string(entry.value, '$'), ${METADATA_VALUE_MAX_CODE_POINTS})
               WHEN 'BOOLEAN' THEN CAST(entry.value AS VARCHAR)
               WHEN 'DOUBLE' THEN regexp_replace(CAST(entry.value AS VARCHAR), 'e([0-9])', 'e+\\1')
               WHEN 'BIGINT' THEN CAST(entry.value AS VARCHAR)
               WHEN 'UBIGINT' THEN CAST(entry.value AS VARCHAR)
             END AS meta_value
      FROM (
        SELECT org_id, ${bucketOf(bucketing)} AS quarter, product, feature, api_key_id, file_type,
               credits, batch_id,
               unnest(map_entries(CAST(CAST(metadata_json AS JSON) AS MAP(VARCHAR, JSON)))) AS entry
        FROM ${source}
        WHERE (${where}) AND is_async AND metadata_json IS NOT NULL
          AND json_type(CAST(metadata_json AS JSON)) = 'OBJECT'
      )
      WHERE ${utf16Length} BETWEEN 1 AND ${METADATA_KEY_MAX_LENGTH}`;
}

/** The same as quarterHourRowsSql per carried metadata key and value. */
export function quarterHourMetadataRowsSql(
  source: string,
  where: string,
  sign: 1 | -1 = 1,
  bucketing: Bucketing = 'stored',
): string {
  return withOrgKey(`SELECT org_id, meta_key, quarter, meta_value,
                 product, feature, api_key_id, file_type,
                 CAST(${sign} * sum(credits) AS DECIMAL(38, 6)) AS credits,
                 CAST(${sign} * count(*) AS BIGINT) AS request_count
          FROM (${metadataEntriesSql(source, where, bucketing)})
          GROUP BY ALL`);
}

/** Reads the watermark (the last batch id the quarter-hour rollups hold). */
export const READ_ROLLED_BATCH_ID = `SELECT CAST(${ROLLED_BATCH_ID} AS VARCHAR) AS rolled`;

/**
 * The events not yet in the quarter-hour rollups. `floor`, a watermark read before (never
 * above the current one), is a constant the scan's zone maps can use: batch ids grow with
 * the table, so only its tail is read. The subquery keeps the condition exact even if the
 * watermark moved since.
 */
export function unrolledEvents(floor: string | bigint): string {
  return `batch_id > ${ROLLED_BATCH_ID} AND batch_id > CAST(${BigInt(floor)} AS BIGINT)`;
}

/**
 * Each quarter-hour table with the events beyond the watermark added: what it holds once the
 * maintenance pass has caught up (export snapshots copy this, so a replica needs no events).
 */
export function currentQuarterHourSql(table: QuarterHourTable, floor: string | bigint): string {
  const fullRows = (full: FullQuarterHourTable) =>
    full === 'usage_quarter_hour'
      ? quarterHourRowsSql('usage_events', unrolledEvents(floor))
      : quarterHourMetadataRowsSql('usage_events', unrolledEvents(floor));
  const unrolled =
    table === 'usage_quarter_hour_dimension'
      ? narrowRowsSql('usage_quarter_hour', fullRows('usage_quarter_hour'))
      : table === 'usage_quarter_hour_metadata_value'
        ? narrowRowsSql('usage_quarter_hour_metadata', fullRows('usage_quarter_hour_metadata'))
        : fullRows(table);
  return `SELECT ${QUARTER_HOUR_COLUMNS[table]} FROM ${table} UNION ALL ${unrolled}`;
}

/**
 * The newest batch id stored (null: none), read when a roll-up pass starts: the pass stops
 * there, so batches written while it runs wait for the next pass instead of each becoming a
 * step of its own.
 */
export async function newestBatchId(connection: DuckDBConnection): Promise<string | null> {
  const [{ newest }] = (
    await connection.runAndReadAll(
      'SELECT CAST(max(batch_id) AS VARCHAR) AS newest FROM usage_events',
    )
  ).getRowObjectsJS() as { newest: string | null }[];
  return newest;
}

/**
 * Adds one step of unrolled events to the quarter-hour rollups inside the caller's
 * transaction: the batches after the watermark, whole, up to about ROLLUP_STEP_EVENTS events
 * (at least one batch) and none after `through` when given, then moves the watermark past
 * them. Returns the events added (0: the rollups were up to date).
 */
export async function rollUpStep(
  connection: DuckDBConnection,
  through: string | null = null,
): Promise<number> {
  const [{ rolled }] = (await connection.runAndReadAll(READ_ROLLED_BATCH_ID)).getRowObjectsJS() as {
    rolled: string;
  }[];
  const unrolled = unrolledEvents(rolled);
  const bound = through === null ? '' : ' AND batch_id <= CAST($2 AS BIGINT)';
  const [step] = (
    await connection.runAndReadAll(
      `SELECT max(batch_id) AS last, CAST(sum(n) AS BIGINT) AS events FROM (
         SELECT batch_id, n,
                sum(n) OVER (ORDER BY batch_id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
         FROM (SELECT batch_id, count(*) AS n FROM usage_events WHERE ${unrolled}${bound} GROUP BY batch_id)
       )
       WHERE before IS NULL OR before < $1`,
      through === null ? [ROLLUP_STEP_EVENTS] : [ROLLUP_STEP_EVENTS, through],
    )
  ).getRowObjectsJS() as { last: bigint | null; events: bigint | null }[];
  if (step.last === null) return 0;
  const where = `${unrolled} AND batch_id <= CAST($1 AS BIGINT)`;
  const last = String(step.last);
  await insertQuarterHourAndNarrowRows(
    connection,
    'usage_quarter_hour',
    quarterHourRowsSql('usage_events', where),
    [last],
  );
  await insertQuarterHourAndNarrowRows(
    connection,
    'usage_quarter_hour_metadata',
    quarterHourMetadataRowsSql('usage_events', where),
    [last],
  );
  await connection.run(
    'UPDATE usage_quarter_hour_watermark SET rolled_batch_id = CAST($1 AS BIGINT)',
    [last],
  );
  return Number(step.events);
}
