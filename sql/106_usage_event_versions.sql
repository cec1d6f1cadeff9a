-- Corrections: an event sent again with its identity (source, id) and a higher
-- `data.version` replaces the stored one, rollups adjusted by the difference; a replayed
-- older version is a duplicate (docs/decisions/0274-usage-corrections-by-version.md).
-- Every event stored before is version 1.
ALTER TABLE usage_events ADD COLUMN version INTEGER DEFAULT 1;
