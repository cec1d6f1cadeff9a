-- Narrow rollups for the export's common case: grouping by one dimension with no filter
-- on another. `usage_daily` holds one row per (org, day, product, feature, api key, file
-- type), so a year of a large org is close to a million rows to aggregate per request;
-- these hold one row per (org, dimension, day, value) and per (org, metadata key, day,
-- value): a year of the largest benchmark org is about 25 k rows. Filtered exports still
-- read the full rollups. Maintained by UsageStoreRepository in the same transaction as
-- the other rollups, and periodically rewritten in `org_key` order (clusterNarrowRollups).
--
-- `org_key` = md5_number_upper(org_id): DuckDB's zone maps keep only the first 8 bytes of a
-- string's min/max, and org ids share their first bytes, so a filter on org_id prunes no row
-- group; an integer key prunes exactly. md5 (not hash()) so the value never changes with
-- the DuckDB version. Queries filter on both.
CREATE TABLE usage_daily_dimension (
  org_key UBIGINT NOT NULL,
  org_id VARCHAR NOT NULL,
  -- 'product' | 'feature' | 'api_key' | 'file_type', as in the export's groupBy.
  dimension VARCHAR NOT NULL,
  day DATE NOT NULL,
  value VARCHAR NOT NULL,
  credits DECIMAL(38, 6) NOT NULL,
  request_count BIGINT NOT NULL,
  PRIMARY KEY (org_id, dimension, day, value)
);

CREATE TABLE usage_daily_metadata_value (
  org_key UBIGINT NOT NULL,
  org_id VARCHAR NOT NULL,
  meta_key VARCHAR NOT NULL,
  day DATE NOT NULL,
  meta_value VARCHAR NOT NULL,
  credits DECIMAL(38, 6) NOT NULL,
  request_count BIGINT NOT NULL,
  PRIMARY KEY (org_id, meta_key, day, meta_value)
);

-- Backfill from the full rollups of an existing store, in the clustered order
-- (UsageStoreRepository.clusterNarrowRollups).
INSERT INTO usage_daily_dimension
SELECT md5_number_upper(org_id), org_id, dimension, day, value, sum(credits), sum(request_count)
FROM (
  SELECT org_id, day, credits, request_count,
         unnest(['product', 'feature', 'api_key', 'file_type']) AS dimension,
         unnest([product, feature, api_key_id, file_type]) AS value
  FROM usage_daily
)
GROUP BY ALL
ORDER BY 1, dimension, day, value;

INSERT INTO usage_daily_metadata_value
SELECT md5_number_upper(org_id), org_id, meta_key, day, meta_value, sum(credits), sum(request_count)
FROM usage_daily_metadata
GROUP BY ALL
ORDER BY 1, meta_key, day, meta_value;
