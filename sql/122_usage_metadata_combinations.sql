-- Each event's groupable metadata entries as the normalizer found them, so the quarter-hour
-- roll-up, the export's events not yet rolled up and corrections join them instead of
-- parsing `metadata_json` again (about 3 CPU-µs per async event, the roll-up's largest
-- cost). A write stores each combination of entries its new events carry once, under the
-- batch id of their group and the combination's code in the write; each event keeps that
-- code (0: no groupable entry). A list of entries per event cost more to append and
-- checkpoint than the parse it saved. Events stored before keep NULL and are still read from
-- their JSON by the same rule (docs/decisions/0420-metadata-combinations-kept-by-the-write.md).
ALTER TABLE usage_events ADD COLUMN metadata_combo INTEGER;
CREATE TABLE usage_metadata_combinations (
  batch_id BIGINT NOT NULL,
  combo INTEGER NOT NULL,
  meta_key VARCHAR NOT NULL,
  meta_value VARCHAR NOT NULL
);
