-- A job's stored request larger than a few KB (a long schema, many inputs) lives as a file
-- (BlobStore key `payloads/requests/<job_id>.json`, deleted with the job) and `request`
-- holds JSON null; smaller requests stay in the row. Requests stored before stay as they are.
ALTER TABLE processing_jobs ADD COLUMN IF NOT EXISTS request_key VARCHAR;
