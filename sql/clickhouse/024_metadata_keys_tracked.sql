-- The metadata keys each org's usage is broken out by (docs/decisions/0509-*): at most
-- METADATA_KEYS_MAX_PER_ORG per org. A write keeps only these keys in an event's
-- `meta_keys`, so the metadata rollups' views never take another key's entries.
CREATE TABLE IF NOT EXISTS {database}.metadata_keys_tracked (
  org_id String,
  meta_key String,
  tracked_at DateTime('UTC')
) ENGINE = ReplacingMergeTree ORDER BY (org_id, meta_key);

-- The keys broken out before the cap existed hold their places (rejected ones too).
INSERT INTO {database}.metadata_keys_tracked (org_id, meta_key, tracked_at)
SELECT org_id, meta_key, now() FROM (
  SELECT DISTINCT org_id, meta_key FROM {database}.usage_daily_metadata
  UNION ALL
  SELECT DISTINCT org_id, meta_key FROM {database}.metadata_key_rejections
);
