-- Write fences (docs/decisions/0375-*): a row per partition an ingest process was given at a
-- Kafka rebalance. A write of Kafka batches counts the fences of its partitions before it
-- begins, and its storing statement stores only while that count is unchanged: a
-- partition's previous owner, still writing when the group hands the partition on, cannot
-- store after its new owner's dedupe read. Only counted, never merged away (MergeTree).
CREATE TABLE IF NOT EXISTS {database}.usage_write_fences (
  fenced_at DateTime('UTC'),
  fence_id String,
  -- A partition the joining process was given (`topic:partition`): a write is fenced off
  -- only by fences of its own batches' partitions, never by its group's other members.
  source String
) ENGINE = MergeTree ORDER BY (source, fenced_at);
