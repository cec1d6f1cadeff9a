-- The Distributed tables over the narrow rollups the shards dropped
-- (sql/clickhouse/022_usage_narrow_rollups_at_query_time.sql), on a cluster made before
-- then; 001 no longer makes them (the shards' files all run before this directory's).
DROP TABLE IF EXISTS {database}.usage_daily_dimension;

DROP TABLE IF EXISTS {database}.usage_daily_metadata_value;
