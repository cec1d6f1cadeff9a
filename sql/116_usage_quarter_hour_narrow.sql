-- Narrow quarter-hour rollups, for exports in a time zone grouped by one dimension
-- (docs/decisions/0408-narrow-quarter-hour-rollups.md): per org, bucket and value of one
-- dimension (product, feature, api_key, file_type), and per org, metadata key, bucket and
-- value. The buckets are the full tables' (hourly, cut where a zone starts its day), and
-- every write to the full tables writes their projection here, so a narrow table always
-- equals its full table summed over the other dimensions. Appended to and kept as sorted
-- runs by the clustering pass, as the full tables.
CREATE TABLE usage_quarter_hour_dimension (
  org_key UBIGINT NOT NULL,
  org_id VARCHAR NOT NULL,
  dimension VARCHAR NOT NULL,
  quarter INTEGER NOT NULL,
  value VARCHAR NOT NULL,
  credits DECIMAL(38, 6) NOT NULL,
  request_count BIGINT NOT NULL,
  sorted_run INTEGER NOT NULL DEFAULT 2147483647
);

CREATE TABLE usage_quarter_hour_metadata_value (
  org_key UBIGINT NOT NULL,
  org_id VARCHAR NOT NULL,
  meta_key VARCHAR NOT NULL,
  quarter INTEGER NOT NULL,
  meta_value VARCHAR NOT NULL,
  credits DECIMAL(38, 6) NOT NULL,
  request_count BIGINT NOT NULL,
  sorted_run INTEGER NOT NULL DEFAULT 2147483647
);

-- Backfill from the full tables (events past the roll-up's watermark reach both later).
INSERT INTO usage_quarter_hour_dimension
  (org_key, org_id, dimension, quarter, value, credits, request_count)
SELECT org_key, org_id, dimension, quarter, value, sum(credits), CAST(sum(request_count) AS BIGINT)
FROM (
  SELECT org_key, org_id, quarter, credits, request_count,
         unnest(['product', 'feature', 'api_key', 'file_type']) AS dimension,
         unnest([product, feature, api_key_id, file_type]) AS value
  FROM usage_quarter_hour
)
GROUP BY ALL
HAVING sum(credits) <> 0 OR sum(request_count) <> 0
ORDER BY org_key, dimension, quarter;

INSERT INTO usage_quarter_hour_metadata_value
  (org_key, org_id, meta_key, quarter, meta_value, credits, request_count)
SELECT org_key, org_id, meta_key, quarter, meta_value, sum(credits), CAST(sum(request_count) AS BIGINT)
FROM usage_quarter_hour_metadata
GROUP BY ALL
HAVING sum(credits) <> 0 OR sum(request_count) <> 0
ORDER BY org_key, meta_key, quarter;
