-- Corrections (docs/decisions/0274-usage-corrections-by-version.md): an event sent again
-- with its identity and a higher `version` is inserted as a new row of `usage_events`
-- carrying the stored version's values in its `prev_*` columns. The views below turn those
-- into negative rows of every rollup in the same INSERT statement that adds the new
-- values, so a correction stays one server-side statement: whole or absent, and a retried
-- write finds the new version stored and changes nothing. Request counts are UInt64: the
-- negative row holds 2^64 - 1, and sums wrap to the exact count.
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

CREATE MATERIALIZED VIEW IF NOT EXISTS {database}.usage_daily_retraction_mv TO {database}.usage_daily AS
SELECT org_id, day, prev_product AS product, prev_feature AS feature, prev_api_key_id AS api_key_id,
       prev_file_type AS file_type, -sum(prev_credits) AS credits, toUInt64(-toInt64(count())) AS request_count
FROM {database}.usage_events
WHERE prev_version > 0
GROUP BY org_id, day, product, feature, api_key_id, file_type;

CREATE MATERIALIZED VIEW IF NOT EXISTS {database}.usage_daily_dimension_retraction_mv TO {database}.usage_daily_dimension AS
SELECT org_id, dimension_value.1 AS dimension, day, dimension_value.2 AS value,
       -sum(prev_credits) AS credits, toUInt64(-toInt64(count())) AS request_count
FROM {database}.usage_events
ARRAY JOIN [('product', prev_product), ('feature', prev_feature), ('api_key', prev_api_key_id), ('file_type', prev_file_type)] AS dimension_value
WHERE prev_version > 0
GROUP BY org_id, dimension, day, value;

CREATE MATERIALIZED VIEW IF NOT EXISTS {database}.usage_daily_metadata_retraction_mv TO {database}.usage_daily_metadata AS
SELECT org_id, meta_key, day, meta_value, prev_product AS product, prev_feature AS feature,
       prev_api_key_id AS api_key_id, prev_file_type AS file_type,
       -sum(prev_credits) AS credits, toUInt64(-toInt64(count())) AS request_count
FROM {database}.usage_events
ARRAY JOIN prev_meta_keys AS meta_key, prev_meta_values AS meta_value
WHERE prev_version > 0
  AND (org_id, meta_key) NOT IN (SELECT org_id, meta_key FROM {database}.metadata_key_rejections)
GROUP BY org_id, meta_key, day, meta_value, product, feature, api_key_id, file_type;

CREATE MATERIALIZED VIEW IF NOT EXISTS {database}.usage_daily_metadata_value_retraction_mv TO {database}.usage_daily_metadata_value AS
SELECT org_id, meta_key, day, meta_value, -sum(prev_credits) AS credits,
       toUInt64(-toInt64(count())) AS request_count
FROM {database}.usage_events
ARRAY JOIN prev_meta_keys AS meta_key, prev_meta_values AS meta_value
WHERE prev_version > 0
  AND (org_id, meta_key) NOT IN (SELECT org_id, meta_key FROM {database}.metadata_key_rejections)
GROUP BY org_id, meta_key, day, meta_value;

CREATE MATERIALIZED VIEW IF NOT EXISTS {database}.usage_quarter_hour_retraction_mv TO {database}.usage_quarter_hour AS
SELECT org_id, toUInt32(intDiv(toUInt32(prev_event_time), 900)) AS quarter, prev_product AS product,
       prev_feature AS feature, prev_api_key_id AS api_key_id, prev_file_type AS file_type,
       -sum(prev_credits) AS credits, toUInt64(-toInt64(count())) AS request_count
FROM {database}.usage_events
WHERE prev_version > 0
GROUP BY org_id, quarter, product, feature, api_key_id, file_type;

CREATE MATERIALIZED VIEW IF NOT EXISTS {database}.usage_quarter_hour_metadata_retraction_mv TO {database}.usage_quarter_hour_metadata AS
SELECT org_id, meta_key, toUInt32(intDiv(toUInt32(prev_event_time), 900)) AS quarter, meta_value,
       prev_product AS product, prev_feature AS feature, prev_api_key_id AS api_key_id,
       prev_file_type AS file_type, -sum(prev_credits) AS credits,
       toUInt64(-toInt64(count())) AS request_count
FROM {database}.usage_events
ARRAY JOIN prev_meta_keys AS meta_key, prev_meta_values AS meta_value
WHERE prev_version > 0
  AND (org_id, meta_key) NOT IN (SELECT org_id, meta_key FROM {database}.metadata_key_rejections)
GROUP BY org_id, meta_key, quarter, meta_value, product, feature, api_key_id, file_type;
