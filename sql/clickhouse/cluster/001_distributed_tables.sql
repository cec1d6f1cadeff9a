-- Cluster mode (CLICKHOUSE_CLUSTER): applied on CLICKHOUSE_URL's server after every shard got
-- the files of sql/clickhouse/ in `{database}_shard`. The usage tables of `{database}` become
-- `Distributed` tables over the shards' ones, so the store's statements stay the same. An
-- org's events, and so every copy of one event, go to one shard (its dedupe stays local);
-- a rejected metadata key is written to every shard (`shard_hint`), where its views read it.
CREATE DATABASE IF NOT EXISTS {database};

CREATE TABLE IF NOT EXISTS {database}.schema_migrations (
  version String,
  name String,
  applied_at DateTime
) ENGINE = ReplacingMergeTree ORDER BY version;

CREATE TABLE IF NOT EXISTS {database}.usage_events AS {database}_shard.usage_events
ENGINE = Distributed({cluster}, {database}_shard, usage_events, cityHash64(org_id));

CREATE TABLE IF NOT EXISTS {database}.metadata_key_rejections AS {database}_shard.metadata_key_rejections
ENGINE = Distributed({cluster}, {database}_shard, metadata_key_rejections, shard_hint);

CREATE TABLE IF NOT EXISTS {database}.usage_daily AS {database}_shard.usage_daily
ENGINE = Distributed({cluster}, {database}_shard, usage_daily, cityHash64(org_id));

CREATE TABLE IF NOT EXISTS {database}.usage_daily_metadata AS {database}_shard.usage_daily_metadata
ENGINE = Distributed({cluster}, {database}_shard, usage_daily_metadata, cityHash64(org_id));
