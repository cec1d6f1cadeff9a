-- The groupable metadata entries of each event were stored twice: as received in
-- `metadata_json`, and as a `MAP(VARCHAR, VARCHAR)` that nothing read (the rollups are
-- built from the write's staged entries). The map cost ~1 CPU-µs per ingested event and
-- ~5 % of the store on disk (121 MiB at 20 M events); the entries follow from
-- `metadata_json` by the normalizer's rule whenever they are needed again
-- (docs/decisions/0005-usage-rollups-with-exact-credits.md).
ALTER TABLE usage_events DROP COLUMN metadata;
