-- The password of a password-protected PDF, apart from the stored request: kept while the
-- job is queued or running (a restart resumes it), cleared by the statement that records
-- the job's end (docs/decisions/0326-document-password-opens-pdfs-and-ends-with-its-job.md).
-- Holds {"path": [...], "password": "..."} (where in the request it was sent), sealed with
-- AES-256-GCM under the key file job-secrets.key of the data directory.
ALTER TABLE processing_jobs ADD COLUMN document_password VARCHAR;
