-- The write fences of sql/clickhouse/021_usage_write_fences.sql on the server every ingest
-- process sends its statements to (CLICKHOUSE_URL): a local table, not a Distributed one,
-- so a fence is counted by each storing statement as soon as it is recorded.
CREATE TABLE IF NOT EXISTS {database}.usage_write_fences (
  fenced_at DateTime('UTC'),
  fence_id String,
  -- A partition the joining process was given (`topic:partition`): a write is fenced off
  -- only by fences of its own batches' partitions, never by its group's other members.
  source String
) ENGINE = MergeTree ORDER BY (source, fenced_at);
