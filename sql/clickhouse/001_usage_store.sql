-- The ClickHouse usage store (USAGE_STORE=clickhouse), applied by ClickHouseMigrations; each
-- statement on its own (the HTTP interface runs one per request), `{database}` replaced by
-- CLICKHOUSE_DATABASE. Written for the oldest server the tests run (18.16) and checked on a
-- current engine (chDB) by the statement spec.
CREATE DATABASE IF NOT EXISTS {database};

CREATE TABLE IF NOT EXISTS {database}.schema_migrations (
  version String,
  name String,
  applied_at DateTime
) ENGINE = ReplacingMergeTree ORDER BY version;

-- One row per accepted event: the source of truth, deduped on (day, source, id) like the
-- DuckDB store. `event_key` = MD5(source || '\0' || id). A row appears only through one
-- INSERT ... SELECT of a write's new events, which also feeds the rollups below (their
-- materialized views run in the same statement). ReplacingMergeTree on the identity, so
-- a copy that ever slipped in (two writers at once) is merged away in the events table.
CREATE TABLE IF NOT EXISTS {database}.usage_events (
  day Date,
  event_key FixedString(16),
  source String,
  event_id String,
  org_id String,
  event_time DateTime('UTC'),
  event_ms UInt16,
  product String,
  feature String,
  api_key_id String,
  file_type String,
  pages UInt32,
  credits Decimal(18, 6),
  job_id Nullable(String),
  is_async UInt8,
  metadata_json Nullable(String),
  -- The groupable entries (scalar values as text, 256 code points), as the normalizer made them.
  meta_keys Array(String),
  meta_values Array(String),
  ingested_at DateTime('UTC')
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (day, event_key);

-- Keys marked identifier-like for an org: the metadata rollups stop taking their entries.
CREATE TABLE IF NOT EXISTS {database}.metadata_key_rejections (
  org_id String,
  meta_key String,
  rejected_at DateTime('UTC'),
  reason String,
  -- Cluster mode: which shard the row is for (every shard gets one); 0 on one server.
  shard_hint UInt32
) ENGINE = ReplacingMergeTree ORDER BY (org_id, meta_key);

-- The rollups the export reads, as in the DuckDB store; SummingMergeTree adds rows of one
-- key together in the background, so every read still sums (GROUP BY) what it selects.
CREATE TABLE IF NOT EXISTS {database}.usage_daily (
  org_id String,
  day Date,
  product String,
  feature String,
  api_key_id String,
  file_type String,
  credits Decimal(38, 6),
  request_count UInt64
) ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (org_id, day, product, feature, api_key_id, file_type);

CREATE TABLE IF NOT EXISTS {database}.usage_daily_dimension (
  org_id String,
  dimension String,
  day Date,
  value String,
  credits Decimal(38, 6),
  request_count UInt64
) ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (org_id, dimension, day, value);

CREATE TABLE IF NOT EXISTS {database}.usage_daily_metadata (
  org_id String,
  meta_key String,
  day Date,
  meta_value String,
  product String,
  feature String,
  api_key_id String,
  file_type String,
  credits Decimal(38, 6),
  request_count UInt64
) ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (org_id, meta_key, day, meta_value, product, feature, api_key_id, file_type);

CREATE TABLE IF NOT EXISTS {database}.usage_daily_metadata_value (
  org_id String,
  meta_key String,
  day Date,
  meta_value String,
  credits Decimal(38, 6),
  request_count UInt64
) ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (org_id, meta_key, day, meta_value);

CREATE MATERIALIZED VIEW IF NOT EXISTS {database}.usage_daily_mv TO {database}.usage_daily AS
SELECT org_id, day, product, feature, api_key_id, file_type,
       sum(credits) AS credits, count() AS request_count
FROM {database}.usage_events
GROUP BY org_id, day, product, feature, api_key_id, file_type;

CREATE MATERIALIZED VIEW IF NOT EXISTS {database}.usage_daily_dimension_mv TO {database}.usage_daily_dimension AS
SELECT org_id, dimension_value.1 AS dimension, day, dimension_value.2 AS value,
       sum(credits) AS credits, count() AS request_count
FROM {database}.usage_events
ARRAY JOIN [('product', product), ('feature', feature), ('api_key', api_key_id), ('file_type', file_type)] AS dimension_value
GROUP BY org_id, dimension, day, value;

CREATE MATERIALIZED VIEW IF NOT EXISTS {database}.usage_daily_metadata_mv TO {database}.usage_daily_metadata AS
SELECT org_id, meta_key, day, meta_value, product, feature, api_key_id, file_type,
       sum(credits) AS credits, count() AS request_count
FROM {database}.usage_events
ARRAY JOIN meta_keys AS meta_key, meta_values AS meta_value
WHERE (org_id, meta_key) NOT IN (SELECT org_id, meta_key FROM {database}.metadata_key_rejections)
GROUP BY org_id, meta_key, day, meta_value, product, feature, api_key_id, file_type;

CREATE MATERIALIZED VIEW IF NOT EXISTS {database}.usage_daily_metadata_value_mv TO {database}.usage_daily_metadata_value AS
SELECT org_id, meta_key, day, meta_value, sum(credits) AS credits, count() AS request_count
FROM {database}.usage_events
ARRAY JOIN meta_keys AS meta_key, meta_values AS meta_value
WHERE (org_id, meta_key) NOT IN (SELECT org_id, meta_key FROM {database}.metadata_key_rejections)
GROUP BY org_id, meta_key, day, meta_value;
