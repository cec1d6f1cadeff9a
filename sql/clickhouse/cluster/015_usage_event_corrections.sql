-- The Distributed `usage_events` takes the columns the shards' tables got in
-- sql/clickhouse/015_usage_event_corrections.sql (their views run on the shards).
-- One ALTER: its columns come together. 18.x has no ADD COLUMN IF NOT EXISTS; a file applied
-- again finds them there, which ClickHouseMigrations takes as done.
ALTER TABLE {database}.usage_events
  ADD COLUMN version UInt32 DEFAULT 1,
  ADD COLUMN prev_version UInt32 DEFAULT 0,
  ADD COLUMN prev_event_time DateTime('UTC') DEFAULT toDateTime(0, 'UTC'),
  ADD COLUMN prev_product String DEFAULT '',
  ADD COLUMN prev_feature String DEFAULT '',
  ADD COLUMN prev_api_key_id String DEFAULT '',
  ADD COLUMN prev_file_type String DEFAULT '',
  ADD COLUMN prev_credits Decimal(18, 6) DEFAULT toDecimal64(0, 6),
  ADD COLUMN prev_meta_keys Array(String) DEFAULT emptyArrayString(),
  ADD COLUMN prev_meta_values Array(String) DEFAULT emptyArrayString();
