-- When a manager deleted a key's usage tracking (docs/decisions/0514-*): its rollups and
-- tracked values were dropped and it holds no place under the org's cap on metadata keys
-- any more. The row stays, marked rejected, so the key's later entries are never broken out
-- again (a correction of an earlier event takes nothing either: countedMetadataEntry).
ALTER TABLE metadata_key_stats ADD COLUMN IF NOT EXISTS tracking_deleted_at TIMESTAMP;
