import { Injectable } from '../../common/nest-decorators.js';
import { duckdb } from '../../database/duckdb-api.js';
import { DuckDbService } from '../../database/duckdb.service.js';

/**
 * The places each of the orgs `$1` (a list of ids) holds under its cap on metadata keys
 * (metadata-key-cap.ts): keys with statistics (broken out or rejected) and enabled keys, as
 * (org_id, n); an org holding none has no row. Read when enabling and by the ingestion write.
 */
export const HELD_KEYS_PER_ORG_SQL = `SELECT org_id, count(*) AS n FROM (
    SELECT org_id, meta_key FROM metadata_key_stats WHERE list_contains($1, org_id)
    UNION
    SELECT org_id, meta_key FROM org_metadata_keys WHERE list_contains($1, org_id)
  ) GROUP BY org_id`;

export interface MetadataKeyStatus {
  key: string;
  enabled: boolean;
  enabledAt: string | null;
  eventCount: number;
  distinctValues: number;
  rejectedAt: string | null;
  rejectedReason: string | null;
}

const STATUS_SELECT = `
  SELECT coalesce(e.meta_key, s.meta_key) AS key,
         e.meta_key IS NOT NULL AS enabled,
         epoch_ms(e.enabled_at) AS enabled_at,
         coalesce(s.event_count, 0) AS event_count,
         coalesce(s.distinct_values, 0) AS distinct_values,
         epoch_ms(s.rejected_at) AS rejected_at,
         s.rejected_reason
  FROM (SELECT * FROM org_metadata_keys WHERE org_id = $1) e
  FULL OUTER JOIN (SELECT * FROM metadata_key_stats WHERE org_id = $1) s ON s.meta_key = e.meta_key`;

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

  /** The places an org holds under its cap on metadata keys (HELD_KEYS_PER_ORG_SQL). */
  async heldKeys(orgId: string): Promise<number> {
    const rows = await this.db.all<{ n: bigint | number }>(HELD_KEYS_PER_ORG_SQL, [
      duckdb.listValue([orgId]),
    ]);
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

  async enable(orgId: string, key: string): Promise<void> {
    await this.db.run(
      'INSERT INTO org_metadata_keys (org_id, meta_key, enabled_at) VALUES ($1, $2, now()) ON CONFLICT DO NOTHING',
      [orgId, key],
    );
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
