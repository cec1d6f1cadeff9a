// Generates the usage-export benchmark data set inside DuckDB with SQL, straight into the
// `usage_events` table of a docproc DATA_DIR, then derives the rollups and metadata-key
// statistics with the same SQL shapes as UsageStoreRepository (one INSERT...SELECT GROUP BY
// over all events instead of one per batch; the end state is the same). The ingestion path
// itself (validation, staging, dedupe, upserts) is measured separately, see
// measureRepositoryIngest below and docs/benchmarks.md.
//
// Randomness comes from DuckDB's hash() of (seed, org, event number), not random(): the
// data set is then identical whatever the thread count, so runs are comparable.
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { importDist } from './options.mjs';

export const PRODUCTS = [
  ['parse', 'parse', '1'],
  ['parse', 'parse_ocr', '1.5'],
  ['extract', 'extract', '2'],
  ['extract', 'deep_extract', '4'],
  ['classify', 'classify', '0.5'],
  ['classify', 'deep_classify', '1.5'],
  ['split', 'split', '1'],
  ['split', 'deep_split', '2.25'],
];
export const FILE_TYPES = ['pdf', 'pdf', 'pdf', 'docx', 'png', 'jpg', 'txt', 'html'];
export const TEAMS = ['risk', 'finance', 'ops', 'legal', 'claims'];
/** Low-cardinality keys enabled for export; `documentId` is identifier-like and ends rejected. */
export const GROUPABLE_KEYS = ['team', 'env', 'batch', 'priority'];

export const ORG_COUNT = 200;
export const DAYS = 400;

export const orgId = (index) => `org_bench_${String(index).padStart(3, '0')}`;

const sqlList = (values) => `[${values.map((v) => `'${v}'`).join(', ')}]`;

/**
 * Org sizes: org 0 holds a fifth of all events (4 M of 20 M); the other 199 follow a
 * Zipf-like curve (weight rank^-0.7), so the median org holds about 47 k events at 20 M.
 * Org 0 has 50 API keys, the others 2 to 5.
 */
function orgTableSql(events) {
  const largest = Math.floor(events / 5);
  return `
    CREATE OR REPLACE TEMP TABLE bench_orgs AS
    WITH w AS (
      SELECT i AS org_idx, CASE WHEN i = 0 THEN NULL ELSE pow(i, -0.7) END AS w FROM range(${ORG_COUNT}) t(i)
    ), sized AS (
      SELECT org_idx,
             CASE WHEN org_idx = 0 THEN ${largest}
                  ELSE CAST(floor(${events - largest} * w / sum(w) OVER ()) AS BIGINT) END AS n
      FROM w
    )
    SELECT org_idx, printf('org_bench_%03d', org_idx) AS org_id,
           CAST(n + CASE WHEN org_idx = 1 THEN ${events} - sum(n) OVER () ELSE 0 END AS BIGINT) AS n,
           CASE WHEN org_idx = 0 THEN 50 ELSE 2 + org_idx % 4 END AS api_keys
    FROM sized`;
}

/**
 * One row per event. Bits of two 64-bit hashes pick the product, file type, pages, async
 * flag (60 %), metadata presence (85 % of async), team/env/batch/priority values, day
 * (uniform over 400 days ending at endDay), time of day and API key. Async events with
 * metadata also carry `documentId`, unique per event (identifier-like).
 * Rows are inserted in event-time order, the order ingestion would append them.
 */
function eventsSql(seed, endDay) {
  return `
    INSERT INTO usage_events
    WITH ev AS (
      SELECT org_idx, org_id, api_keys, unnest(range(n)) AS j FROM bench_orgs
    ), h AS (
      SELECT org_idx, org_id, api_keys, j,
             hash(${seed}, org_idx, j, 1) AS h1, hash(${seed}, org_idx, j, 2) AS h2
      FROM ev
    ), f AS (
      SELECT org_idx, org_id, j,
             CAST(h1 % 8 AS INTEGER) + 1 AS cat,
             ${sqlList(FILE_TYPES)}[CAST((h1 >> 3) % 8 AS INTEGER) + 1] AS file_type,
             CAST(1 + (h1 >> 6) % 12 AS INTEGER) AS pages,
             (h1 >> 10) % 100 < 60 AS is_async,
             (h1 >> 17) % 100 < 85 AS has_meta,
             ${sqlList(TEAMS)}[CAST((h1 >> 24) % 5 AS INTEGER) + 1] AS team,
             CASE WHEN (h1 >> 27) % 2 = 0 THEN 'prod' ELSE 'staging' END AS env,
             CASE WHEN (h1 >> 28) % 2 = 0 THEN CAST(1 + (h1 >> 29) % 20 AS VARCHAR) END AS batch,
             CASE WHEN (h1 >> 34) % 10 < 3 THEN CASE WHEN (h1 >> 38) % 2 = 0 THEN 'true' ELSE 'false' END END AS priority,
             CAST('${endDay}' AS DATE) - CAST(h2 % ${DAYS} AS INTEGER) AS day,
             CAST((h2 >> 9) % 86400000 AS BIGINT) AS ms_of_day,
             printf('%s_key_%02d', org_id, CAST((h2 >> 36) % api_keys AS INTEGER) + 1) AS api_key_id
      FROM h
    ), e AS (
      SELECT f.*,
             ${sqlList(PRODUCTS.map((p) => p[0]))}[cat] AS product,
             ${sqlList(PRODUCTS.map((p) => p[1]))}[cat] AS feature,
             CAST(${sqlList(PRODUCTS.map((p) => p[2]))}[cat] AS DECIMAL(18, 6)) * pages AS credits,
             printf('evt_%s_%d', org_id, j) AS event_id,
             CASE WHEN is_async AND has_meta THEN printf('doc_%d_%d', org_idx, j) END AS document_id
      FROM f
    )
    SELECT md5_number('docproc/processing' || chr(0) || event_id), 'docproc/processing', event_id, org_id,
           CAST(day AS TIMESTAMP) + to_milliseconds(ms_of_day) AS event_time, day, product, feature, api_key_id,
           file_type, pages, CAST(credits AS DECIMAL(18, 6)),
           CASE WHEN is_async THEN printf('job_%s_%d', org_id, j) END, is_async,
           CASE WHEN is_async AND has_meta THEN
             '{"team":"' || team || '","env":"' || env || '"' ||
             coalesce(',"batch":' || batch, '') || coalesce(',"priority":' || priority, '') ||
             ',"documentId":"' || document_id || '"}'
           END,
           -- No stored combination: the metadata is read from the JSON, as for events
           -- written before the write kept their combinations.
           0, now(), 1, NULL
    FROM e
    ORDER BY event_time`;
}

// The rollups, as UsageStoreRepository builds them, in arrival (day) order like ingestion;
// `bucket`: the roll-up pass's bucket of an event row (quarter hour, or whole hour).
const rollupSql = (bucket) => [
  `INSERT INTO usage_daily
   SELECT org_id, day, product, feature, api_key_id, file_type, sum(credits), count(*)
   FROM usage_events GROUP BY ALL ORDER BY day`,
  // The groupable entries of each event's metadata (all of the generated values are scalars).
  // The quarter-hour rollups of local days, bucketed as the roll-up pass does.
  `INSERT INTO usage_quarter_hour
     (org_key, org_id, quarter, product, feature, api_key_id, file_type, credits, request_count)
   SELECT md5_number_upper(org_id), org_id, ${bucket} AS quarter,
          product, feature, api_key_id, file_type, sum(credits), count(*)
   FROM usage_events GROUP BY ALL ORDER BY quarter`,
  `CREATE TEMP TABLE bench_metadata AS
   SELECT org_id, day, ${bucket} AS quarter,
          product, feature, api_key_id, file_type, credits,
          unnest(map_keys(metadata)) AS meta_key, unnest(map_values(metadata)) AS meta_value
   FROM (
     SELECT *, json_transform(metadata_json, '"MAP(VARCHAR, VARCHAR)"') AS metadata
     FROM usage_events WHERE metadata_json IS NOT NULL
   )`,
  // Cardinality statistics with the default rule (1000 distinct values, or more than half
  // of the events once there are 200): documentId ends rejected, the others are groupable.
  `INSERT INTO metadata_key_stats
   SELECT org_id, meta_key, count(*), count(DISTINCT meta_value),
          CASE WHEN count(DISTINCT meta_value) >= 1000
                 OR (count(*) >= 200 AND count(DISTINCT meta_value) > 0.5 * count(*)) THEN now() END,
          CASE WHEN count(DISTINCT meta_value) >= 1000
                 OR (count(*) >= 200 AND count(DISTINCT meta_value) > 0.5 * count(*))
               THEN 'has ' || count(DISTINCT meta_value) || ' distinct values in ' || count(*) || ' events' END
   FROM bench_metadata GROUP BY org_id, meta_key`,
  `INSERT INTO metadata_key_values
   SELECT DISTINCT b.org_id, b.meta_key, b.meta_value FROM bench_metadata b
   SEMI JOIN metadata_key_stats s ON s.org_id = b.org_id AND s.meta_key = b.meta_key AND s.rejected_at IS NULL`,
  `INSERT INTO usage_daily_metadata
   SELECT b.org_id, b.meta_key, b.day, b.meta_value, b.product, b.feature, b.api_key_id, b.file_type,
          sum(b.credits), count(*)
   FROM bench_metadata b
   SEMI JOIN metadata_key_stats s ON s.org_id = b.org_id AND s.meta_key = b.meta_key AND s.rejected_at IS NULL
   GROUP BY ALL ORDER BY day`,
  `INSERT INTO usage_quarter_hour_metadata
     (org_key, org_id, meta_key, quarter, meta_value, product, feature, api_key_id, file_type,
      credits, request_count)
   SELECT md5_number_upper(b.org_id), b.org_id, b.meta_key, b.quarter, b.meta_value, b.product,
          b.feature, b.api_key_id, b.file_type, sum(b.credits), count(*)
   FROM bench_metadata b
   SEMI JOIN metadata_key_stats s ON s.org_id = b.org_id AND s.meta_key = b.meta_key AND s.rejected_at IS NULL
   GROUP BY ALL ORDER BY b.quarter`,
  'DROP TABLE bench_metadata',
  // The narrow rollups, as migration 021 backfills them.
  `INSERT INTO usage_daily_dimension
   SELECT md5_number_upper(org_id), org_id, dimension, day, value, sum(credits), sum(request_count)
   FROM (
     SELECT org_id, day, credits, request_count,
            unnest(['product', 'feature', 'api_key', 'file_type']) AS dimension,
            unnest([product, feature, api_key_id, file_type]) AS value
     FROM usage_daily
   )
   GROUP BY ALL ORDER BY day`,
  `INSERT INTO usage_daily_metadata_value
   SELECT md5_number_upper(org_id), org_id, meta_key, day, meta_value, sum(credits), sum(request_count)
   FROM usage_daily_metadata GROUP BY ALL ORDER BY day`,
];

async function timed(label, timings, work) {
  const start = performance.now();
  const result = await work();
  timings[label] = Math.round(performance.now() - start);
  return result;
}

/** Fills an (already migrated) DuckDB file; returns the load timings in ms and table sizes. */
export async function generateDuckDb(databaseFile, { events, seed, endDay }) {
  const instance = await DuckDBInstance.create(databaseFile);
  const connection = await instance.connect();
  const timings = {};
  try {
    await connection.run(orgTableSql(events));
    await timed('duckdbEvents', timings, () => connection.run(eventsSql(seed, endDay)));
    await timed('duckdbRollups', timings, async () => {
      const { BUCKET_OF_EVENT, NARROW_QUARTER_HOUR_TABLE, insertQuarterHourRows, narrowRowsSql } =
        await importDist('src/usage/core/quarter-hour-rollups.js');
      for (const sql of rollupSql(BUCKET_OF_EVENT)) await connection.run(sql);
      // The narrow quarter-hour rollups, by the server's own projection of the full ones.
      for (const [full, narrow] of Object.entries(NARROW_QUARTER_HOUR_TABLE)) {
        await connection.run(
          insertQuarterHourRows(
            narrow,
            narrowRowsSql(full, `SELECT * EXCLUDE (sorted_run) FROM ${full}`),
          ),
        );
      }
    });
    await timed('duckdbCheckpoint', timings, () => connection.run('CHECKPOINT'));
    const sizes = {};
    for (const table of [
      'usage_events',
      'usage_daily',
      'usage_daily_metadata',
      'usage_quarter_hour',
      'usage_quarter_hour_metadata',
      'usage_quarter_hour_dimension',
      'usage_quarter_hour_metadata_value',
    ]) {
      const reader = await connection.runAndReadAll(`SELECT count(*) AS n FROM ${table}`);
      sizes[table] = Number(reader.getRowObjectsJS()[0].n);
    }
    const orgs = await connection.runAndReadAll(
      'SELECT org_id, n FROM bench_orgs ORDER BY org_idx',
    );
    const orgSizes = Object.fromEntries(
      orgs.getRowObjectsJS().map((r) => [String(r.org_id), Number(r.n)]),
    );
    return { timings, sizes, orgSizes };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Writes the events and rollups as CSV for PostgreSQL's COPY; returns file paths. */
export async function exportCsv(databaseFile, dir) {
  const instance = await DuckDBInstance.create(databaseFile);
  const connection = await instance.connect();
  const files = {
    usage_events: `${dir}/usage_events.csv`,
    usage_daily: `${dir}/usage_daily.csv`,
    usage_daily_metadata: `${dir}/usage_daily_metadata.csv`,
  };
  try {
    // The metadata object as received fills the jsonb column (`->>` reads its scalars as text).
    await connection.run(`COPY (
        SELECT source, event_id, org_id, strftime(event_time AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ'), day,
               product, feature, api_key_id, file_type, pages, credits, job_id, is_async,
               metadata_json
        FROM usage_events
      ) TO '${files.usage_events}' (HEADER false)`);
    await connection.run(
      `COPY (SELECT * FROM usage_daily) TO '${files.usage_daily}' (HEADER false)`,
    );
    await connection.run(
      `COPY (SELECT * FROM usage_daily_metadata) TO '${files.usage_daily_metadata}' (HEADER false)`,
    );
    return files;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
