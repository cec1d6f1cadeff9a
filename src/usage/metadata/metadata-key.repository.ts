import { Injectable } from '../../common/nest-decorators.js';
import { duckdb } from '../../database/duckdb-api.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import type { RecordedPlaces } from './metadata-key-places.js';

/**
 * The keys holding places under the caps of the orgs `$1` (a list of ids) on metadata keys
 * (metadata-key-cap.ts), as (org_id, meta_key): keys with statistics (broken out or
 * rejected) whose tracking no manager deleted, and enabled keys.
 */
const HELD_KEYS_SQL = `SELECT org_id, meta_key FROM metadata_key_stats
    WHERE list_contains($1, org_id) AND tracking_deleted_at IS NULL
    UNION
    SELECT org_id, meta_key FROM org_metadata_keys WHERE list_contains($1, org_id)`;

/**
 * The places each of the orgs `$1` holds (HELD_KEYS_SQL), as (org_id, n); an org holding
 * none has no row. Read when enabling and by the ingestion write.
 */
export const HELD_KEYS_PER_ORG_SQL = `SELECT org_id, count(*) AS n FROM (${HELD_KEYS_SQL}) GROUP BY org_id`;

const NOTHING_RECORDED: RecordedPlaces = { held: [], deleted: [] };

/**
 * The org's (`$1`) keys holding places: its own (HELD_KEYS_SQL) but those whose tracking
 * the usage store records as deleted (`deleted`, a JSON array: deleted through another
 * process, whose DuckDB file is not this one), and the keys the store records as held.
 */
function heldWithRecordedSql(held: string, deleted: string): string {
  return `SELECT meta_key FROM (${HELD_KEYS_SQL})
    WHERE meta_key NOT IN (SELECT unnest(from_json(${deleted}, '["VARCHAR"]')))
    UNION SELECT unnest(from_json(${held}, '["VARCHAR"]')) AS meta_key`;
}

function recordedParams(recorded: RecordedPlaces): [string, string] {
  return [JSON.stringify(recorded.held), JSON.stringify(recorded.deleted.map((d) => d.key))];
}

export interface MetadataKeyStatus {
  key: string;
  enabled: boolean;
  enabledAt: string | null;
  eventCount: number;
  distinctValues: number;
  rejectedAt: string | null;
  rejectedReason: string | null;
  /** When a manager deleted the key's usage tracking: it holds no place, never counts again. */
  trackingDeletedAt: string | null;
}

const STATUS_SELECT = `
  SELECT coalesce(e.meta_key, s.meta_key) AS key,
         e.meta_key IS NOT NULL AS enabled,
         epoch_ms(e.enabled_at) AS enabled_at,
         coalesce(s.event_count, 0) AS event_count,
         coalesce(s.distinct_values, 0) AS distinct_values,
         epoch_ms(s.rejected_at) AS rejected_at,
         s.rejected_reason,
         epoch_ms(s.tracking_deleted_at) AS tracking_deleted_at
  FROM (SELECT * FROM org_metadata_keys WHERE org_id = $1) e
  FULL OUTER JOIN (SELECT * FROM metadata_key_stats WHERE org_id = $1) s ON s.meta_key = e.meta_key`;

/** The tables holding rows of one (org, key) beside its statistics and enabled state. */
const METADATA_ROWS_OF_A_KEY = [
  'usage_daily_metadata',
  'usage_daily_metadata_value',
  'usage_quarter_hour_metadata',
  'usage_quarter_hour_metadata_value',
  'metadata_key_values',
  'org_metadata_keys',
];

export interface ObservedKeyStats {
  orgId: string;
  key: string;
  eventCount: number;
  distinctValues: number;
  /** Set when this observation makes the key identifier-like. */
  rejectedReason: string | null;
}

interface StatusRow {
  key: string;
  enabled: boolean;
  enabled_at: bigint | number | null;
  event_count: bigint | number;
  distinct_values: bigint | number;
  rejected_at: bigint | number | null;
  rejected_reason: string | null;
  tracking_deleted_at: bigint | number | null;
}

/** Timestamps leave as RFC 3339 (`2026-11-26T05:49:49.833Z`), not DuckDB's text form. */
function rfc3339(epochMs: bigint | number | null): string | null {
  return epochMs === null ? null : new Date(Number(epochMs)).toISOString();
}

function toStatus(row: StatusRow): MetadataKeyStatus {
  return {
    key: row.key,
    enabled: row.enabled,
    enabledAt: rfc3339(row.enabled_at),
    eventCount: Number(row.event_count),
    distinctValues: Number(row.distinct_values),
    rejectedAt: rfc3339(row.rejected_at),
    rejectedReason: row.rejected_reason,
    trackingDeletedAt: rfc3339(row.tracking_deleted_at),
  };
}

@Injectable()
export class MetadataKeyRepository {
  constructor(private readonly db: DuckDbService) {}

  async status(orgId: string, key: string): Promise<MetadataKeyStatus | null> {
    const rows = await this.db.all<StatusRow>(`SELECT * FROM (${STATUS_SELECT}) WHERE key = $2`, [
      orgId,
      key,
    ]);
    return rows.length > 0 ? toStatus(rows[0]) : null;
  }

  async list(orgId: string): Promise<MetadataKeyStatus[]> {
    const rows = await this.db.all<StatusRow>(`${STATUS_SELECT} ORDER BY key`, [orgId]);
    return rows.map(toStatus);
  }

  /**
   * Records counts observed by a store that keeps them itself (ClickHouse), so status and
   * the export's checks read them here as they do the DuckDB store's. A rejection stays.
   */
  async recordObserved(observed: ObservedKeyStats[]): Promise<void> {
    for (const o of observed) {
      await this.db.run(
        `INSERT INTO metadata_key_stats
           (org_id, meta_key, event_count, distinct_values, rejected_at, rejected_reason)
         VALUES ($1, $2, $3, $4, CASE WHEN $5::VARCHAR IS NULL THEN NULL ELSE now() END, $5)
         ON CONFLICT DO UPDATE SET
           event_count = EXCLUDED.event_count,
           distinct_values = EXCLUDED.distinct_values,
           rejected_at = coalesce(metadata_key_stats.rejected_at, EXCLUDED.rejected_at),
           rejected_reason = coalesce(metadata_key_stats.rejected_reason, EXCLUDED.rejected_reason)`,
        [o.orgId, o.key, o.eventCount, o.distinctValues, o.rejectedReason],
      );
    }
  }

  /**
   * The places an org holds under its cap on metadata keys (HELD_KEYS_SQL), with what the
   * usage store records itself (`recorded`: the ClickHouse store's places).
   */
  async heldKeys(orgId: string, recorded: RecordedPlaces = NOTHING_RECORDED): Promise<number> {
    const rows = await this.db.all<{ n: bigint | number }>(
      `SELECT count(*) AS n FROM (${heldWithRecordedSql('$2', '$3')})`,
      [duckdb.listValue([orgId]), ...recordedParams(recorded)],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** The enabled keys of these orgs, per org. */
  async enabledKeys(orgIds: readonly string[]): Promise<Map<string, Set<string>>> {
    const byOrg = new Map<string, Set<string>>();
    if (orgIds.length === 0) return byOrg;
    const rows = await this.db.all<{ org_id: string; meta_key: string }>(
      'SELECT org_id, meta_key FROM org_metadata_keys WHERE list_contains($1, org_id)',
      [duckdb.listValue([...orgIds])],
    );
    for (const row of rows) {
      let keys = byOrg.get(row.org_id);
      if (!keys) byOrg.set(row.org_id, (keys = new Set()));
      keys.add(row.meta_key);
    }
    return byOrg;
  }

  /**
   * Enables `key` unless that would make the org hold more than `cap` places, counting what
   * the usage store records itself (`recorded`) with its own: one statement, so a write giving new keys places (which holds the one writer)
   * cannot take the last place between the count and the insert. False when refused.
   */
  async enableWithinCap(
    orgId: string,
    key: string,
    cap: number,
    recorded: RecordedPlaces = NOTHING_RECORDED,
  ): Promise<boolean> {
    const rows = await this.db.runReturning<{ enabled: boolean }>(
      `INSERT INTO org_metadata_keys (org_id, meta_key, enabled_at)
       WITH held AS (${heldWithRecordedSql('$4', '$5')})
       SELECT $1[1], $2, now()
       WHERE $2 IN (SELECT meta_key FROM held) OR (SELECT count(*) FROM held) < $3
       ON CONFLICT DO NOTHING
       RETURNING true AS enabled`,
      [duckdb.listValue([orgId]), key, cap, ...recordedParams(recorded)],
    );
    if (rows.length > 0) return true;
    return (await this.status(orgId, key))?.enabled ?? false;
  }

  /**
   * Deletes the key's usage tracking: its rollups and tracked values are dropped, it is
   * disabled and marked rejected (its later entries and a correction of an earlier event are
   * never counted: countedMetadataEntry), and it holds no place under the cap any more. The
   * events keep it in their metadata. False when the org has no statistics for it; an enabled
   * key is disabled all the same (in ClickHouse mode a key enabled here and never written by
   * this process has its place in the store only).
   */
  async deleteTracking(orgId: string, key: string, reason: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const marked = await tx.all<{ meta_key: string }>(
        `UPDATE metadata_key_stats
         SET rejected_at = coalesce(rejected_at, now()),
             rejected_reason = coalesce(rejected_reason, $3),
             tracking_deleted_at = coalesce(tracking_deleted_at, now())
         WHERE org_id = $1 AND meta_key = $2
         RETURNING meta_key`,
        [orgId, key, reason],
      );
      for (const table of METADATA_ROWS_OF_A_KEY) {
        await tx.run(`DELETE FROM ${table} WHERE org_id = $1 AND meta_key = $2`, [orgId, key]);
      }
      return marked.length > 0;
    });
  }

  async disable(orgId: string, key: string): Promise<boolean> {
    const before = await this.status(orgId, key);
    await this.db.run('DELETE FROM org_metadata_keys WHERE org_id = $1 AND meta_key = $2', [
      orgId,
      key,
    ]);
    return before?.enabled ?? false;
  }
}
