-- Quarter-hour rollups, for exports in a time zone other than UTC: a local day is the
-- buckets whose local start falls on it, and every zone in use has offsets (and changes
-- them) in whole quarter hours (docs/decisions/0260-time-zones-from-quarter-hour-rollups.md).
-- `quarter` = floor(epoch seconds / 900) of the event time. Rows are appended by each
-- write (no primary key: an index of every bucket would hold millions of keys in memory)
-- and read with sum(); the hourly maintenance pass adds rows of one key together and
-- rewrites the tables in (org_key, quarter) order, so DuckDB's zone maps skip other orgs.
CREATE TABLE usage_quarter_hour (
  org_key UBIGINT NOT NULL,
  org_id VARCHAR NOT NULL,
  quarter INTEGER NOT NULL,
  product VARCHAR NOT NULL,
  feature VARCHAR NOT NULL,
  api_key_id VARCHAR NOT NULL,
  file_type VARCHAR NOT NULL,
  credits DECIMAL(38, 6) NOT NULL,
  request_count BIGINT NOT NULL
);

-- The same per carried metadata key and value, for keys not rejected as identifier-like.
CREATE TABLE usage_quarter_hour_metadata (
  org_key UBIGINT NOT NULL,
  org_id VARCHAR NOT NULL,
  meta_key VARCHAR NOT NULL,
  quarter INTEGER NOT NULL,
  meta_value VARCHAR NOT NULL,
  product VARCHAR NOT NULL,
  feature VARCHAR NOT NULL,
  api_key_id VARCHAR NOT NULL,
  file_type VARCHAR NOT NULL,
  credits DECIMAL(38, 6) NOT NULL,
  request_count BIGINT NOT NULL
);

-- Backfill from the events of an existing store.
INSERT INTO usage_quarter_hour
SELECT md5_number_upper(org_id), org_id, CAST(floor(epoch(event_time) / 900) AS INTEGER) AS quarter,
       product, feature, api_key_id, file_type, sum(credits), count(*)
FROM usage_events
GROUP BY ALL
ORDER BY 1, quarter;

-- The metadata entries follow from `metadata_json` by the normalizer's rule (metadata-values.ts):
-- async events only; keys of 1 to 256 characters; strings truncated to 256 code points,
-- booleans and numbers as their JSON text; null, objects and arrays not groupable.
INSERT INTO usage_quarter_hour_metadata
SELECT md5_number_upper(org_id), org_id, meta_key, quarter, meta_value,
       product, feature, api_key_id, file_type, sum(credits), count(*)
FROM (
  SELECT org_id, quarter, product, feature, api_key_id, file_type, credits,
         entry.key AS meta_key,
         CASE json_type(entry.value)
           WHEN 'VARCHAR' THEN left(json_extract_string(entry.value, '$'), 256)
           WHEN 'BOOLEAN' THEN CAST(entry.value AS VARCHAR)
           WHEN 'DOUBLE' THEN CASE
             WHEN TRY_CAST(entry.value AS DOUBLE) = floor(TRY_CAST(entry.value AS DOUBLE))
              AND abs(TRY_CAST(entry.value AS DOUBLE)) < 1e21
             THEN CAST(CAST(TRY_CAST(entry.value AS DOUBLE) AS HUGEINT) AS VARCHAR)
             ELSE CAST(TRY_CAST(entry.value AS DOUBLE) AS VARCHAR) END
           WHEN 'BIGINT' THEN CAST(entry.value AS VARCHAR)
           WHEN 'UBIGINT' THEN CAST(entry.value AS VARCHAR)
         END AS meta_value
  FROM (
    SELECT org_id, CAST(floor(epoch(event_time) / 900) AS INTEGER) AS quarter, product, feature,
           api_key_id, file_type, credits,
           unnest(map_entries(CAST(CAST(metadata_json AS JSON) AS MAP(VARCHAR, JSON)))) AS entry
    FROM usage_events
    WHERE is_async AND metadata_json IS NOT NULL AND json_type(CAST(metadata_json AS JSON)) = 'OBJECT'
  )
  WHERE length(entry.key) BETWEEN 1 AND 256
) e
WHERE meta_value IS NOT NULL
  AND NOT EXISTS (
    SELECT 1 FROM metadata_key_stats s
    WHERE s.org_id = e.org_id AND s.meta_key = e.meta_key AND s.rejected_at IS NOT NULL
  )
GROUP BY ALL
ORDER BY 1, meta_key, quarter;
