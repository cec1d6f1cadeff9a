-- Usage store. `usage_events` is the source of truth: one row per accepted event, deduped
-- on (source, id) through `event_key` = md5 of both, a compact 128-bit key for the index.
-- The two rollups are derived from it in the same transaction as each insert, and are what
-- the export reads (see docs/decisions/0004-usage-events-deduped-by-a-primary-key.md and
-- docs/decisions/0005-usage-rollups-with-exact-credits.md).
CREATE TABLE usage_events (
  event_key UHUGEINT PRIMARY KEY,
  source VARCHAR NOT NULL,
  event_id VARCHAR NOT NULL,
  org_id VARCHAR NOT NULL,
  event_time TIMESTAMPTZ NOT NULL,
  day DATE NOT NULL,
  product VARCHAR NOT NULL,
  feature VARCHAR NOT NULL,
  api_key_id VARCHAR NOT NULL,
  file_type VARCHAR NOT NULL,
  pages INTEGER NOT NULL,
  credits DECIMAL(18, 6) NOT NULL,
  job_id VARCHAR,
  is_async BOOLEAN NOT NULL,
  -- The async.metadata object as received (JSON text), kept whole.
  metadata_json VARCHAR,
  -- Its groupable entries: scalar values as text, truncated to 256 code points.
  metadata MAP(VARCHAR, VARCHAR),
  batch_id BIGINT NOT NULL,
  ingested_at TIMESTAMPTZ NOT NULL
);

-- Credits and requests per org, day and every non-metadata dimension.
CREATE TABLE usage_daily (
  org_id VARCHAR NOT NULL,
  day DATE NOT NULL,
  product VARCHAR NOT NULL,
  feature VARCHAR NOT NULL,
  api_key_id VARCHAR NOT NULL,
  file_type VARCHAR NOT NULL,
  credits DECIMAL(38, 6) NOT NULL,
  request_count BIGINT NOT NULL,
  PRIMARY KEY (org_id, day, product, feature, api_key_id, file_type)
);

-- The same per carried metadata key and value, for keys not rejected as identifier-like.
CREATE TABLE usage_daily_metadata (
  org_id VARCHAR NOT NULL,
  meta_key VARCHAR NOT NULL,
  day DATE NOT NULL,
  meta_value VARCHAR NOT NULL,
  product VARCHAR NOT NULL,
  feature VARCHAR NOT NULL,
  api_key_id VARCHAR NOT NULL,
  file_type VARCHAR NOT NULL,
  credits DECIMAL(38, 6) NOT NULL,
  request_count BIGINT NOT NULL,
  PRIMARY KEY (org_id, meta_key, day, meta_value, product, feature, api_key_id, file_type)
);

-- Observed cardinality of each (org, metadata key), for the identifier-like rule.
CREATE TABLE metadata_key_stats (
  org_id VARCHAR NOT NULL,
  meta_key VARCHAR NOT NULL,
  event_count BIGINT NOT NULL,
  distinct_values BIGINT NOT NULL,
  rejected_at TIMESTAMPTZ,
  rejected_reason VARCHAR,
  PRIMARY KEY (org_id, meta_key)
);

-- Distinct values seen per key, kept only while the key is not rejected (bounded by the rule).
CREATE TABLE metadata_key_values (
  org_id VARCHAR NOT NULL,
  meta_key VARCHAR NOT NULL,
  meta_value VARCHAR NOT NULL,
  PRIMARY KEY (org_id, meta_key, meta_value)
);

-- Keys an organization enabled for grouping and filtering in the export.
CREATE TABLE org_metadata_keys (
  org_id VARCHAR NOT NULL,
  meta_key VARCHAR NOT NULL,
  enabled_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (org_id, meta_key)
);

CREATE SEQUENCE usage_batch_seq START 1;
