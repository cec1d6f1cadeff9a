import { Injectable } from '@nestjs/common';
import {
  TRACKING_DELETED_REASON,
  type MetadataKeyPlaces,
  type RecordedPlaces,
} from '../metadata/metadata-key-places.js';
import { HELD_PLACES_PARAMS, heldPlacesSql, recordRejection } from './clickhouse-metadata-keys.js';
import { ClickHouseService } from './clickhouse.service.js';

/** The metadata rollups of the ClickHouse store, each holding rows per (org, key). */
const METADATA_ROLLUPS = ['usage_daily_metadata', 'usage_quarter_hour_metadata'];

/** The ClickHouse store's places under an org's cap on metadata keys (metadata-key-places.ts). */
@Injectable()
export class ClickHouseMetadataKeyPlaces implements MetadataKeyPlaces {
  constructor(private readonly clickhouse: ClickHouseService) {}

  async recorded(orgId: string): Promise<RecordedPlaces> {
    const db = this.clickhouse.database;
    const held = await this.clickhouse.rows<{ meta_key: string }>(
      `SELECT DISTINCT meta_key FROM (${heldPlacesSql(db)})`,
      { orgs: [orgId], ...HELD_PLACES_PARAMS },
    );
    // One row per shard on a cluster, and per deletion until the table merges: the first.
    const deleted = await this.clickhouse.rows<{ meta_key: string; deleted_at: number | string }>(
      `SELECT meta_key, min(toUnixTimestamp(rejected_at)) AS deleted_at
       FROM ${db}.metadata_key_rejections
       WHERE org_id = {org:String} AND reason = {deletedReason:String}
       GROUP BY meta_key`,
      { org: orgId, ...HELD_PLACES_PARAMS },
    );
    return {
      held: held.map((row) => row.meta_key),
      deleted: deleted.map((row) => ({
        key: row.meta_key,
        deletedAt: new Date(Number(row.deleted_at) * 1000).toISOString(),
      })),
    };
  }

  async claim(orgId: string, key: string): Promise<void> {
    await this.clickhouse.command(
      `INSERT INTO ${this.clickhouse.database}.metadata_keys_tracked (org_id, meta_key, tracked_at)
       VALUES ({org:String}, {key:String}, now())`,
      { org: orgId, key },
      // On a cluster: on the org's shard before the next write counts its places.
      { settings: { insert_distributed_sync: 1 } },
    );
  }

  /**
   * Recorded as a rejection (on every shard), so the rollups' views take none of the key's
   * later entries nor a correction's retraction of its earlier ones, and the place is no
   * longer counted; the key stays in `metadata_keys_tracked`, so a later write does not give
   * it a place again. Its rollup rows are deleted by a mutation on each server holding them,
   * which ClickHouse applies in the background (18.16 has no synchronous mutation).
   */
  async deleteTracking(orgId: string, key: string): Promise<void> {
    await recordRejection(this.clickhouse, orgId, key, TRACKING_DELETED_REASON);
    const { cluster, database } = this.clickhouse;
    const servers =
      cluster === null
        ? [{ db: database, url: undefined }]
        : this.clickhouse.shardUrls.map((url) => ({ db: `${database}_shard`, url }));
    for (const server of servers) {
      for (const table of METADATA_ROLLUPS) {
        await this.clickhouse.command(
          `ALTER TABLE ${server.db}.${table} DELETE WHERE org_id = {org:String} AND meta_key = {key:String}`,
          { org: orgId, key },
          { url: server.url },
        );
      }
    }
  }
}
