-- Cluster mode: the quarter-hour rollups of every shard behind `Distributed` tables, as the
-- daily ones (001_distributed_tables.sql).
CREATE TABLE IF NOT EXISTS {database}.usage_quarter_hour AS {database}_shard.usage_quarter_hour
ENGINE = Distributed({cluster}, {database}_shard, usage_quarter_hour, cityHash64(org_id));

CREATE TABLE IF NOT EXISTS {database}.usage_quarter_hour_metadata AS {database}_shard.usage_quarter_hour_metadata
ENGINE = Distributed({cluster}, {database}_shard, usage_quarter_hour_metadata, cityHash64(org_id));
