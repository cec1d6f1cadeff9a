-- Quarter-hour rollups built after the write: an ingest write no longer adds to them; a
-- maintenance pass adds the events of the batches written since it last ran (batch ids
-- grow with every write, and writes are serialized), in bounded steps, and records the last
-- batch it added here. Readers add the events of later batches themselves, so an export
-- never misses an acknowledged event
-- (docs/decisions/0290-quarter-hour-rollups-built-after-the-write.md).
-- Every event stored so far was rolled up by its own write.
CREATE TABLE usage_quarter_hour_watermark (
  rolled_batch_id BIGINT NOT NULL
);
INSERT INTO usage_quarter_hour_watermark SELECT coalesce(max(batch_id), 0) FROM usage_events;
