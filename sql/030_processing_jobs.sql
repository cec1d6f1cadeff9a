-- Processing plane: the durable job store. One row per sync or async request; the queue
-- rows (040) point at it. `status` is internal: queued, running, completed, failed,
-- cancelled; the API maps them to Pending/Completed/Failed (see
-- docs/decisions/0015-job-lifecycle-queue-and-restarts.md).
CREATE TABLE processing_jobs (
  job_id VARCHAR PRIMARY KEY,
  org_id VARCHAR NOT NULL,
  api_key_id VARCHAR NOT NULL,
  type VARCHAR NOT NULL,
  status VARCHAR NOT NULL,
  is_async BOOLEAN NOT NULL,
  request JSON NOT NULL,
  -- async.metadata exactly as sent (any JSON value), for webhooks and usage events
  metadata JSON,
  result JSON,
  reason VARCHAR,
  -- stable error code and HTTP status of a failure, for the sync response
  error_code VARCHAR,
  error_status INTEGER,
  progress DOUBLE NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  num_pages INTEGER,
  total_pages INTEGER,
  persist_result BOOLEAN NOT NULL DEFAULT false,
  result_expired BOOLEAN NOT NULL DEFAULT false,
  cancel_requested BOOLEAN NOT NULL DEFAULT false,
  created_at TIMESTAMPTZ NOT NULL,
  started_at TIMESTAMPTZ,
  finished_at TIMESTAMPTZ
);
CREATE INDEX processing_jobs_org_created ON processing_jobs (org_id, created_at);
