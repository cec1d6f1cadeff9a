-- Usage alerts and export marks in the shared store (docs/decisions/0355-*): with several
-- ingest processes every one of them must see the same rules, crossings and marks, which
-- each process's own DuckDB file cannot give. Times are epoch milliseconds (UInt64): 18.x
-- has no sub-second DateTime, and "changed after it was first exported" compares them.

-- A rule and its deletion: the row of the highest `revision` counts, `deleted` = 1 ends it.
CREATE TABLE IF NOT EXISTS {database}.usage_alert_rules (
  alert_id String,
  org_id String,
  name String,
  measure String,
  period String,
  threshold String,
  product Nullable(String),
  metadata_key Nullable(String),
  metadata_value Nullable(String),
  webhook_url String,
  created_ms UInt64,
  revision UInt64,
  deleted UInt8
) ENGINE = ReplacingMergeTree(revision) ORDER BY (org_id, alert_id);

-- Claims of crossings: every process that finds a crossing of (alert, period) not yet
-- claimed adds one; after a settling pause the claim with the smallest `firing_id` wins,
-- the same answer for every process, and only its process hands it to webhook delivery.
CREATE TABLE IF NOT EXISTS {database}.usage_alert_firings (
  org_id String,
  alert_id String,
  period_start Date,
  period_end Date,
  firing_id String,
  total String,
  fired_ms UInt64,
  payload String
) ENGINE = MergeTree ORDER BY (org_id, alert_id, period_start, firing_id);

-- The days an export answered (first time wins: min) and the changes recorded after.
CREATE TABLE IF NOT EXISTS {database}.usage_export_marks (
  org_id String,
  day Date,
  first_exported_ms UInt64
) ENGINE = ReplacingMergeTree ORDER BY (org_id, day);

CREATE TABLE IF NOT EXISTS {database}.usage_export_changes (
  org_id String,
  day Date,
  changed_ms UInt64
) ENGINE = MergeTree ORDER BY (org_id, day);
