import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { duckdb } from '../../database/duckdb-api.js';
import type { CardinalityRule } from '../../config/usage.types.js';
import type { UntrackedMetadataKeys } from '../core/usage-store.ports.js';
import { ingestionParameters } from '../metadata/cardinality-rule.js';
import { keysToTrack, type NewMetadataKey } from '../metadata/metadata-key-cap.js';
import { HELD_KEYS_PER_ORG_SQL } from '../metadata/metadata-key.repository.js';
import { METADATA_STAGING } from './usage-event-staging.js';

/** What the metadata statements of one write did beyond adding to the rollups. */
export interface AppliedMetadata {
  /** (org, key) pairs that this write turned identifier-like. */
  newlyRejected: { orgId: string; key: string }[];
  /** Per org, the new keys left out of its usage: past its cap on tracked keys. */
  untracked: UntrackedMetadataKeys[];
}

/**
 * Cardinality tracking and the metadata rollups for the new events of one write, from
 * their daily totals per metadata combination (`batch_daily_meta`) and the staged
 * combinations: a few rows per (org, day, combination) instead of one per event and key.
 * A key past its org's cap (metadata-key-cap.ts) gets no statistics row, so neither these
 * rollups nor the quarter-hour ones (which take only keys with one) ever hold its entries.
 * A key's row records the write that gave it its place (`tracked_from_batch`, this write's
 * first batch for a new key): the events stored before, while it was past the cap, stay
 * out of its rollups for good (countedMetadataEntry); this write's events all count.
 */
export async function applyMetadata(
  connection: DuckDBConnection,
  dictionary: DuckDBValue,
  rule: CardinalityRule,
  firstBatchId: bigint,
): Promise<AppliedMetadata> {
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE batch_metadata AS
       SELECT d.org_id, d.day, d.product, d.feature, d.api_key_id, d.file_type, d.credits,
              d.request_count, $1[m.key_c] AS meta_key, $1[m.value_c] AS meta_value
       FROM ${METADATA_STAGING} m JOIN batch_daily_meta d ON d.meta_c = m.combo`,
    [dictionary],
  );
  const untracked = await leaveUntrackedKeysOut(connection, rule.maxKeysPerOrg);
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE batch_keys AS
       SELECT b.org_id, b.meta_key, sum(b.request_count) AS events, any_value(s.rejected_at) AS rejected_at
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
       (org_id, meta_key, event_count, distinct_values, rejected_at, rejected_reason, tracked_from_batch)
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
              END,
              coalesce(s.tracked_from_batch, $4)
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
    [...ingestionParameters(rule), firstBatchId],
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
      'usage_quarter_hour_metadata',
      'usage_quarter_hour_metadata_value',
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
              sum(b.credits), sum(b.request_count)
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
       SELECT md5_number_upper(b.org_id), b.org_id, b.meta_key, b.day, b.meta_value, sum(b.credits), sum(b.request_count)
       FROM batch_metadata b
       SEMI JOIN metadata_key_stats s
         ON s.org_id = b.org_id AND s.meta_key = b.meta_key AND s.rejected_at IS NULL
       GROUP BY ALL
       ON CONFLICT DO UPDATE SET
         credits = usage_daily_metadata_value.credits + EXCLUDED.credits,
         request_count = usage_daily_metadata_value.request_count + EXCLUDED.request_count`,
  );
  return { newlyRejected, untracked };
}

/**
 * Removes from `batch_metadata` the entries of keys the org's usage is not broken out by:
 * new keys (no statistics row) that `keysToTrack` leaves past the cap. A write whose keys
 * are all known already (nearly every write) costs one read that finds nothing new.
 */
async function leaveUntrackedKeysOut(
  connection: DuckDBConnection,
  cap: number,
): Promise<UntrackedMetadataKeys[]> {
  const newKeys = (
    await connection.runAndReadAll(
      `SELECT b.org_id, b.meta_key, sum(b.request_count) AS events,
              bool_or(e.meta_key IS NOT NULL) AS enabled
       FROM batch_metadata b
       LEFT JOIN org_metadata_keys e ON e.org_id = b.org_id AND e.meta_key = b.meta_key
       WHERE NOT EXISTS (
         SELECT 1 FROM metadata_key_stats s WHERE s.org_id = b.org_id AND s.meta_key = b.meta_key
       )
       GROUP BY b.org_id, b.meta_key`,
    )
  ).getRowObjectsJS();
  if (newKeys.length === 0) return [];
  const byOrg = new Map<string, NewMetadataKey[]>();
  for (const row of newKeys) {
    const orgId = String(row.org_id);
    let keys = byOrg.get(orgId);
    if (!keys) byOrg.set(orgId, (keys = []));
    keys.push({
      key: String(row.meta_key),
      events: Number(row.events),
      enabled: row.enabled === true,
    });
  }
  const holds = new Map<string, number>();
  const held = await connection.runAndReadAll(HELD_KEYS_PER_ORG_SQL, [
    duckdb.listValue([...byOrg.keys()]),
  ]);
  for (const row of held.getRowObjectsJS()) holds.set(String(row.org_id), Number(row.n));
  const untrackedOrgs: string[] = [];
  const untrackedKeys: string[] = [];
  const untracked: UntrackedMetadataKeys[] = [];
  for (const [orgId, keys] of byOrg) {
    const left = keysToTrack(holds.get(orgId) ?? 0, keys, cap).untracked;
    if (left.length === 0) continue;
    untracked.push({ orgId, keys: left.length });
    for (const key of left) {
      untrackedOrgs.push(orgId);
      untrackedKeys.push(key);
    }
  }
  if (untracked.length === 0) return [];
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE batch_untracked AS
       SELECT unnest($1) AS org_id, unnest($2) AS meta_key`,
    [duckdb.listValue(untrackedOrgs), duckdb.listValue(untrackedKeys)],
  );
  await connection.run(
    `DELETE FROM batch_metadata
     WHERE (org_id, meta_key) IN (SELECT (org_id, meta_key) FROM batch_untracked)`,
  );
  return untracked;
}
