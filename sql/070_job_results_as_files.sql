-- Job results live as files (BlobStore key `results/<job_id>.json`), not in the row: a
-- result of several MB per job held in DuckDB's buffer pool exhausted its memory limit and
-- made every listing read them. The data step of this migration (src/database/
-- data-migrations.ts) moves the results of existing rows to files and empties `result`,
-- which stays only because DuckDB cannot drop a column of an indexed table.
-- IF NOT EXISTS: an interrupted data step runs this file again at the next start.
ALTER TABLE processing_jobs ADD COLUMN IF NOT EXISTS result_key VARCHAR;
ALTER TABLE processing_jobs ADD COLUMN IF NOT EXISTS result_bytes BIGINT;
ALTER TABLE processing_jobs ADD COLUMN IF NOT EXISTS result_sha256 VARCHAR;
