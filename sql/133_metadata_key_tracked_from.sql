-- The first batch whose events a key's metadata rollups count: the write that gave the key
-- its place under the org's cap (docs/decisions/0509-metadata-keys-per-organization-capped.md).
-- Events stored before it kept the key in their JSON but were never broken out by it, so
-- the quarter-hour roll-up and a correction's retraction leave their entries of it alone.
-- Keys tracked before the cap had their place from their first event: 0, every batch.
ALTER TABLE metadata_key_stats ADD COLUMN IF NOT EXISTS tracked_from_batch BIGINT DEFAULT 0;
