-- A sync job whose waiting request was released by a shutdown with its job id (503
-- SHUTTING_DOWN, "poll GET /job/{id}") is kept for polling: at the next start it is queued
-- again and finishes like an unfinished async job instead of being failed as interrupted.
-- Its other traits stay those of a sync job (no webhook, usage reported as sync).
ALTER TABLE processing_jobs ADD COLUMN IF NOT EXISTS kept_for_polling BOOLEAN DEFAULT false;
