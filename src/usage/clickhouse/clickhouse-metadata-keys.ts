import type { CardinalityRule } from '../../config/usage.types.js';
import type { UntrackedMetadataKeys } from '../core/usage-store.ports.js';
import { identifierLikeWhenIngesting } from '../metadata/cardinality-rule.js';
import { keysToTrack, type NewMetadataKey } from '../metadata/metadata-key-cap.js';
import type {
  MetadataKeyRepository,
  ObservedKeyStats,
} from '../metadata/metadata-key.repository.js';
import type { ClickHouseService } from './clickhouse.service.js';
import { escaped, STAGING_COLUMNS } from './clickhouse-staging.js';
import { TRACKING_DELETED_REASON } from '../metadata/metadata-key-places.js';

/** The staged events of a write, for the statements that select from them. */
export const ALL_STAGED = 'usage_staging';

/** Staging columns other than the metadata entries, in STAGING_COLUMNS order. */
const PLAIN_COLUMNS = STAGING_COLUMNS.split(', ')
  .map((column) => column.split(' ')[0])
  .filter((name) => name !== 'meta_keys' && name !== 'meta_values')
  .join(', ');

/**
 * The staged events with the entries of untracked keys (`batch_untracked`) taken out of
 * their `meta_keys` and `meta_values`, as a subquery: the events are stored that way, so
 * the metadata rollups' views, the cardinality tracking and a later correction's
 * retraction never see those entries, while `metadata_json` keeps them whole. (The arrays
 * are renamed first: 18.x reads an alias named as the column it filters as a cycle.)
 */
const TRACKED_STAGED = `(
  SELECT ${PLAIN_COLUMNS},
         arrayFilter((k, v) -> (org_id, k) NOT IN batch_untracked, staged_keys, staged_values) AS meta_keys,
         arrayFilter((v, k) -> (org_id, k) NOT IN batch_untracked, staged_values, staged_keys) AS meta_values
  FROM (SELECT ${PLAIN_COLUMNS}, meta_keys AS staged_keys, meta_values AS staged_values FROM usage_staging)
)`;

/**
 * The (org_id, meta_key) pairs holding places in `metadata_keys_tracked` for the orgs
 * `{orgs:Array(String)}`: every tracked key but those whose tracking a manager deleted
 * (recorded as rejections with TRACKING_DELETED_REASON). The ingestion write and enabling
 * both count these.
 */
export function heldPlacesSql(db: string): string {
  return `SELECT org_id, meta_key FROM ${db}.metadata_keys_tracked
     WHERE has({orgs:Array(String)}, org_id)
       AND (org_id, meta_key) GLOBAL NOT IN (
         SELECT org_id, meta_key FROM ${db}.metadata_key_rejections
         WHERE has({orgs:Array(String)}, org_id) AND reason = {deletedReason:String}
       )`;
}

export const HELD_PLACES_PARAMS = { deletedReason: TRACKING_DELETED_REASON };

export interface UntrackedInWrite {
  untracked: UntrackedMetadataKeys[];
  /** What the write's statements select its staged events from. */
  staged: string;
}

/**
 * The cap on the metadata keys an org's usage is broken out by (metadata-key-cap.ts) for
 * one write of the ClickHouse store, in its session: the keys of `usage_staging` no org
 * holds yet in `metadata_keys_tracked` are given places by `keysToTrack` (recorded there,
 * shared by every ingest process), the rest go to the session's `batch_untracked` and out
 * of the entries the write stores. Kafka keys events by org, so one process at a time
 * decides an org's new keys. A write of known keys only costs the first read.
 */
export async function leaveUntrackedKeysOut(
  clickhouse: ClickHouseService,
  cap: number,
  enabledKeys: (orgIds: string[]) => Promise<Map<string, Set<string>>>,
  session: { sessionId: string },
): Promise<UntrackedInWrite> {
  const db = clickhouse.database;
  const rows = await clickhouse.rows<{ org_id: string; meta_key: string; events: string }>(
    `SELECT org_id, meta_key, count() AS events
     FROM usage_staging ARRAY JOIN meta_keys AS meta_key
     WHERE (org_id, meta_key) NOT IN (
       SELECT org_id, meta_key FROM ${db}.metadata_keys_tracked
       WHERE org_id GLOBAL IN (SELECT org_id FROM usage_staging)
     )
     GROUP BY org_id, meta_key`,
    {},
    session,
  );
  if (rows.length === 0) return { untracked: [], staged: ALL_STAGED };
  const orgIds = [...new Set(rows.map((row) => row.org_id))];
  const enabled = await enabledKeys(orgIds);
  const byOrg = new Map<string, NewMetadataKey[]>();
  for (const row of rows) {
    let keys = byOrg.get(row.org_id);
    if (!keys) byOrg.set(row.org_id, (keys = []));
    keys.push({
      key: row.meta_key,
      events: Number(row.events),
      enabled: enabled.get(row.org_id)?.has(row.meta_key) ?? false,
    });
  }
  // Places an org holds: keys tracked (by any process) and keys enabled here, once each.
  const held = await clickhouse.rows<{ org_id: string; keys: string[] }>(
    `SELECT org_id, groupUniqArray(meta_key) AS keys FROM (${heldPlacesSql(db)}) GROUP BY org_id`,
    { orgs: orgIds, ...HELD_PLACES_PARAMS },
  );
  const holds = new Map<string, number>();
  for (const orgId of orgIds) {
    const keys = new Set([...(enabled.get(orgId) ?? [])]);
    for (const key of held.find((row) => row.org_id === orgId)?.keys ?? []) keys.add(key);
    holds.set(orgId, keys.size);
  }
  const untracked: UntrackedMetadataKeys[] = [];
  const untrackedLines: string[] = [];
  for (const [orgId, keys] of byOrg) {
    const { tracked, untracked: left } = keysToTrack(holds.get(orgId) ?? 0, keys, cap);
    if (tracked.length > 0) {
      await clickhouse.command(
        `INSERT INTO ${db}.metadata_keys_tracked (org_id, meta_key, tracked_at)
         SELECT {org:String}, arrayJoin({keys:Array(String)}), now()`,
        { org: orgId, keys: tracked },
        // On a cluster: stored on the org's shard before the next write counts its places.
        { settings: { insert_distributed_sync: 1 } },
      );
    }
    if (left.length === 0) continue;
    untracked.push({ orgId, keys: left.length });
    for (const key of left) untrackedLines.push(`${escaped(orgId)}\t${escaped(key)}\n`);
  }
  if (untracked.length === 0) return { untracked, staged: ALL_STAGED };
  await clickhouse.command(
    'CREATE TEMPORARY TABLE batch_untracked (org_id String, meta_key String)',
    {},
    session,
  );
  await clickhouse.insertTabSeparated(
    'batch_untracked',
    [Buffer.from(untrackedLines.join(''))],
    session,
  );
  return { untracked, staged: TRACKED_STAGED };
}

/**
 * The identifier-like rule for the keys this write carried, from the store's own counts
 * (shared by every ingest process): keys it turns identifier-like are recorded, and the
 * metadata rollups' views stop taking their entries from the next write on.
 */
export async function trackCardinality(
  clickhouse: ClickHouseService,
  metadataKeys: MetadataKeyRepository,
  rule: CardinalityRule,
  session: { sessionId: string },
): Promise<{ orgId: string; key: string }[]> {
  const db = clickhouse.database;
  const rows = await clickhouse.rows<{
    org_id: string;
    meta_key: string;
    distinct_values: string;
    events: string;
  }>(
    `SELECT org_id, meta_key, uniqExact(meta_value) AS distinct_values, sum(request_count) AS events
     FROM ${db}.usage_daily_metadata
     WHERE (org_id, meta_key) GLOBAL IN (
       SELECT DISTINCT org_id, meta_key FROM batch_new ARRAY JOIN meta_keys AS meta_key
     )
       AND (org_id, meta_key) GLOBAL NOT IN (
         SELECT org_id, meta_key FROM ${db}.metadata_key_rejections
       )
     GROUP BY org_id, meta_key`,
    {},
    session,
  );
  const observed: ObservedKeyStats[] = rows.map((r) => {
    const stats = { eventCount: Number(r.events), distinctValues: Number(r.distinct_values) };
    return {
      orgId: r.org_id,
      key: r.meta_key,
      ...stats,
      rejectedReason: identifierLikeWhenIngesting(rule, stats),
    };
  });
  const rejected = observed.filter((o) => o.rejectedReason !== null);
  for (const o of rejected) {
    await recordRejection(clickhouse, o.orgId, o.key, o.rejectedReason as string);
  }
  await metadataKeys.recordObserved(observed);
  return rejected.map((o) => ({ orgId: o.orgId, key: o.key }));
}

/**
 * Records (org, key) rejected on every shard (the rollups' views on each read their own
 * copy): its later entries, and a correction's retraction of earlier ones, are not taken.
 */
export async function recordRejection(
  clickhouse: ClickHouseService,
  orgId: string,
  key: string,
  reason: string,
): Promise<void> {
  await clickhouse.command(
    `INSERT INTO ${clickhouse.database}.metadata_key_rejections (org_id, meta_key, rejected_at, reason, shard_hint)
     SELECT {org:String}, {key:String}, now(), {reason:String}, toUInt32(number)
     FROM numbers({shards:UInt32})`,
    { org: orgId, key, reason, shards: await shards(clickhouse) },
    { settings: { insert_distributed_sync: 1 } },
  );
}

/** Shards of CLICKHOUSE_CLUSTER (a rejected key is recorded on each), 1 on one server. */
async function shards(clickhouse: ClickHouseService): Promise<number> {
  const { cluster } = clickhouse;
  if (cluster === null) return 1;
  const [row] = await clickhouse.rows<{ n: string }>(
    'SELECT uniqExact(shard_num) AS n FROM system.clusters WHERE cluster = {cluster:String}',
    { cluster },
  );
  return Number(row.n);
}
