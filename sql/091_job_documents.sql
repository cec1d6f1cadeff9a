-- A document a job made (edit's filled form) lives as a file beside its result (BlobStore
-- key `results/<job_id>.document.<ext>`), deleted with the job or at result retention.
ALTER TABLE processing_jobs ADD COLUMN IF NOT EXISTS document_key VARCHAR;
