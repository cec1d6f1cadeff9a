-- Quarter-hour rollups for exports in a time zone other than UTC, as in the DuckDB store
-- (sql/100_usage_quarter_hour.sql): `quarter` = intDiv(epoch seconds, 900) of the event time;
-- the export dates each bucket by the zone's offset in force
-- (docs/decisions/0260-time-zones-from-quarter-hour-rollups.md).
CREATE TABLE IF NOT EXISTS {database}.usage_quarter_hour (
  org_id String,
  quarter UInt32,
  product String,
  feature String,
  api_key_id String,
  file_type String,
  credits Decimal(38, 6),
  request_count UInt64
) ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(toDate(toUInt16(intDiv(quarter, 96))))
ORDER BY (org_id, quarter, product, feature, api_key_id, file_type);

CREATE TABLE IF NOT EXISTS {database}.usage_quarter_hour_metadata (
  org_id String,
  meta_key String,
  quarter UInt32,
  meta_value String,
  product String,
  feature String,
  api_key_id String,
  file_type String,
  credits Decimal(38, 6),
  request_count UInt64
) ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(toDate(toUInt16(intDiv(quarter, 96))))
ORDER BY (org_id, meta_key, quarter, meta_value, product, feature, api_key_id, file_type);

-- Where the views take over from the backfill: events stored at or after the earliest cut
-- recorded are added by the views, earlier ones by the backfill below. The cut lies a few
-- seconds ahead of the views' creation (the next statements), so no event falls between. Processes that
-- migrate at once each add a cut; the earliest counts for all. On an empty store the cut is
-- the epoch: the views take every event, there is nothing to backfill and nothing to wait for.
CREATE TABLE IF NOT EXISTS {database}.rollup_cuts (
  name String,
  cut DateTime('UTC')
) ENGINE = MergeTree ORDER BY name;

INSERT INTO {database}.rollup_cuts
SELECT 'quarter_hour', if((SELECT count() FROM {database}.usage_events) = 0, toDateTime(0, 'UTC'), now() + 2);

CREATE MATERIALIZED VIEW IF NOT EXISTS {database}.usage_quarter_hour_mv TO {database}.usage_quarter_hour AS
SELECT org_id, toUInt32(intDiv(toUInt32(event_time), 900)) AS quarter, product, feature, api_key_id,
       file_type, sum(credits) AS credits, count() AS request_count
FROM {database}.usage_events
WHERE ingested_at >= (SELECT min(cut) FROM {database}.rollup_cuts WHERE name = 'quarter_hour')
GROUP BY org_id, quarter, product, feature, api_key_id, file_type;

CREATE MATERIALIZED VIEW IF NOT EXISTS {database}.usage_quarter_hour_metadata_mv TO {database}.usage_quarter_hour_metadata AS
SELECT org_id, meta_key, toUInt32(intDiv(toUInt32(event_time), 900)) AS quarter, meta_value, product,
       feature, api_key_id, file_type, sum(credits) AS credits, count() AS request_count
FROM {database}.usage_events
ARRAY JOIN meta_keys AS meta_key, meta_values AS meta_value
WHERE ingested_at >= (SELECT min(cut) FROM {database}.rollup_cuts WHERE name = 'quarter_hour')
  AND (org_id, meta_key) NOT IN (SELECT org_id, meta_key FROM {database}.metadata_key_rejections)
GROUP BY org_id, meta_key, quarter, meta_value, product, feature, api_key_id, file_type;

-- A store with events waits for the cut to pass and for writes that began before it to
-- land (a statement sleeps at most 3 s), then adds the earlier events, once: a rerun of
-- this file after a crash finds the mark below. An empty store does not wait.
SELECT sleepEachRow(3) FROM (SELECT 1 FROM {database}.usage_events LIMIT 1);

SELECT sleepEachRow(3) FROM (SELECT 1 FROM {database}.usage_events LIMIT 1);

INSERT INTO {database}.usage_quarter_hour
SELECT org_id, toUInt32(intDiv(toUInt32(event_time), 900)) AS quarter, product, feature, api_key_id,
       file_type, sum(credits) AS credits, count() AS request_count
FROM {database}.usage_events
WHERE ingested_at < (SELECT min(cut) FROM {database}.rollup_cuts WHERE name = 'quarter_hour')
  AND (SELECT count() FROM {database}.rollup_cuts WHERE name = 'quarter_hour_backfilled') = 0
GROUP BY org_id, quarter, product, feature, api_key_id, file_type;

INSERT INTO {database}.usage_quarter_hour_metadata
SELECT org_id, meta_key, toUInt32(intDiv(toUInt32(event_time), 900)) AS quarter, meta_value, product,
       feature, api_key_id, file_type, sum(credits) AS credits, count() AS request_count
FROM {database}.usage_events
ARRAY JOIN meta_keys AS meta_key, meta_values AS meta_value
WHERE ingested_at < (SELECT min(cut) FROM {database}.rollup_cuts WHERE name = 'quarter_hour')
  AND (SELECT count() FROM {database}.rollup_cuts WHERE name = 'quarter_hour_backfilled') = 0
  AND (org_id, meta_key) NOT IN (SELECT org_id, meta_key FROM {database}.metadata_key_rejections)
GROUP BY org_id, meta_key, quarter, meta_value, product, feature, api_key_id, file_type;

INSERT INTO {database}.rollup_cuts SELECT 'quarter_hour_backfilled', now();
