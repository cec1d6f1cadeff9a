import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { countedMetadataEntry } from '../core/counted-metadata-entries.js';
import { groupableEntries } from '../core/metadata-values.js';
import {
  insertQuarterHourAndNarrowRows,
  quarterHourMetadataRowsSql,
  quarterHourRowsSql,
  ROLLED_BATCH_ID,
} from '../core/quarter-hour-rollups.js';

/** The connection-local tables a write with corrections creates. */
export const CORRECTION_TEMP_TABLES = ['batch_retracted', 'batch_retracted_metadata'];

/**
 * The stored events that a write's corrections replace (`batch_new` rows with `replaces`)
 * leave the events table, and every rollup loses exactly what they had added: negative
 * deltas on the keyed daily rollups, negative rows appended to the quarter-hour ones for
 * events the roll-up had already added (quarter-hour-rollups.ts).
 * Runs inside the write's transaction before its new rows are added, so a correction
 * moves the figures by the difference between its version and the one it replaces.
 * Returns whether anything was replaced.
 */
export async function retractReplaced(
  connection: DuckDBConnection,
  dayFilter: string,
  dayParams: DuckDBValue[],
): Promise<boolean> {
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE batch_retracted AS
     SELECT u.org_id, u.day, u.event_key, u.event_time, u.product, u.feature, u.api_key_id,
            u.file_type, u.credits, u.is_async, u.metadata_json, u.metadata_combo,
            u.batch_id
     FROM (SELECT * FROM usage_events WHERE ${dayFilter}) u
     SEMI JOIN (SELECT day, event_key FROM batch_new WHERE replaces) r
       ON r.day = u.day AND r.event_key = u.event_key`,
    dayParams,
  );
  const count = await connection.runAndReadAll('SELECT count(*) AS n FROM batch_retracted');
  if (Number(count.getRowObjectsJS()[0].n) === 0) return false;
  await connection.run(
    `DELETE FROM usage_events u USING batch_retracted r
     WHERE u.day = r.day AND u.event_key = r.event_key`,
  );
  await connection.run(
    `INSERT INTO usage_daily
     SELECT org_id, day, product, feature, api_key_id, file_type, -sum(credits), -count(*)
     FROM batch_retracted GROUP BY ALL
     ON CONFLICT DO UPDATE SET
       credits = usage_daily.credits + EXCLUDED.credits,
       request_count = usage_daily.request_count + EXCLUDED.request_count`,
  );
  await connection.run(
    `INSERT INTO usage_daily_dimension
     SELECT md5_number_upper(org_id), org_id, dimension, day, value, -sum(credits), -count(*)
     FROM (
       SELECT org_id, day, credits,
              unnest(['product', 'feature', 'api_key', 'file_type']) AS dimension,
              unnest([product, feature, api_key_id, file_type]) AS value
       FROM batch_retracted
     )
     GROUP BY ALL
     ON CONFLICT DO UPDATE SET
       credits = usage_daily_dimension.credits + EXCLUDED.credits,
       request_count = usage_daily_dimension.request_count + EXCLUDED.request_count`,
  );
  // Only events the quarter-hour rollups already hold are taken out of them: the others
  // leave the events table before the roll-up reads them.
  const rolledUp = `batch_id <= ${ROLLED_BATCH_ID}`;
  await insertQuarterHourAndNarrowRows(
    connection,
    'usage_quarter_hour',
    quarterHourRowsSql('batch_retracted', rolledUp, -1),
  );
  await insertQuarterHourAndNarrowRows(
    connection,
    'usage_quarter_hour_metadata',
    quarterHourMetadataRowsSql('batch_retracted', rolledUp, -1),
  );
  await retractMetadata(connection);
  return true;
}

/**
 * The metadata rollups' share of the replaced events: their entries follow from the stored
 * JSON by the normalizer's own rule (run here, not re-implemented in SQL), and only the
 * entries countedMetadataEntry allows were ever added: keys not rejected as identifier-like,
 * tracked under the org's cap when the replaced event was written (a key that got its place
 * later, after the cap was raised, never counted that event).
 */
async function retractMetadata(connection: DuckDBConnection): Promise<void> {
  const rows = (
    await connection.runAndReadAll(
      `SELECT org_id, CAST(day AS VARCHAR) AS day, product, feature, api_key_id,
              file_type, CAST(credits AS VARCHAR) AS credits, CAST(batch_id AS VARCHAR) AS batch_id,
              metadata_json
       FROM batch_retracted WHERE is_async AND metadata_json IS NOT NULL`,
    )
  ).getRowObjectsJS();
  const entries: DuckDBValue[][] = [];
  for (const row of rows) {
    const metadata = JSON.parse(String(row.metadata_json)) as Record<string, unknown>;
    for (const [key, value] of Object.entries(groupableEntries(metadata))) {
      entries.push([
        row.org_id as string,
        row.day as string,
        row.product as string,
        row.feature as string,
        row.api_key_id as string,
        row.file_type as string,
        row.credits as string,
        row.batch_id as string,
        key,
        value,
      ]);
    }
  }
  if (entries.length === 0) return;
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE batch_retracted_metadata (
       org_id VARCHAR, day DATE, product VARCHAR, feature VARCHAR,
       api_key_id VARCHAR, file_type VARCHAR, credits DECIMAL(18, 6), batch_id BIGINT,
       meta_key VARCHAR, meta_value VARCHAR)`,
  );
  for (const entry of entries) {
    await connection.run(
      `INSERT INTO batch_retracted_metadata VALUES ($1, CAST($2 AS DATE), $3, $4, $5, $6,
         CAST($7 AS DECIMAL(18, 6)), CAST($8 AS BIGINT), $9, $10)`,
      entry,
    );
  }
  const counted = `FROM batch_retracted_metadata b
     SEMI JOIN metadata_key_stats s
       ON s.org_id = b.org_id AND s.meta_key = b.meta_key AND ${countedMetadataEntry('b.batch_id')}`;
  await connection.run(
    `INSERT INTO usage_daily_metadata
     SELECT b.org_id, b.meta_key, b.day, b.meta_value, b.product, b.feature, b.api_key_id,
            b.file_type, -sum(b.credits), -count(*)
     ${counted} GROUP BY ALL
     ON CONFLICT DO UPDATE SET
       credits = usage_daily_metadata.credits + EXCLUDED.credits,
       request_count = usage_daily_metadata.request_count + EXCLUDED.request_count`,
  );
  await connection.run(
    `INSERT INTO usage_daily_metadata_value
     SELECT md5_number_upper(b.org_id), b.org_id, b.meta_key, b.day, b.meta_value,
            -sum(b.credits), -count(*)
     ${counted} GROUP BY ALL
     ON CONFLICT DO UPDATE SET
       credits = usage_daily_metadata_value.credits + EXCLUDED.credits,
       request_count = usage_daily_metadata_value.request_count + EXCLUDED.request_count`,
  );
}

/**
 * Keyed rollup rows a correction emptied (its event moved to another product, key or
 * value): gone, as if never written, so the export lists no zero row for them. Runs after
 * the write's own rows were added.
 */
export async function dropEmptiedRollupRows(connection: DuckDBConnection): Promise<void> {
  for (const table of [
    'usage_daily',
    'usage_daily_dimension',
    'usage_daily_metadata',
    'usage_daily_metadata_value',
  ]) {
    await connection.run(
      `DELETE FROM ${table} t USING (SELECT DISTINCT org_id, day FROM batch_retracted) r
       WHERE t.org_id = r.org_id AND t.day = r.day AND t.request_count = 0`,
    );
  }
}
