-- Hosted webhook endpoints per organization, the per-org secret of direct webhooks, and
-- every delivery with its attempts (retries are queue tasks on the io queue).
CREATE TABLE webhook_endpoints (
  endpoint_id VARCHAR PRIMARY KEY,
  org_id VARCHAR NOT NULL,
  url VARCHAR NOT NULL,
  channels JSON NOT NULL,
  secret VARCHAR NOT NULL,
  description VARCHAR,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE webhook_org_secrets (
  org_id VARCHAR PRIMARY KEY,
  secret VARCHAR NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE webhook_deliveries (
  delivery_id VARCHAR PRIMARY KEY,
  org_id VARCHAR NOT NULL,
  job_id VARCHAR NOT NULL,
  mode VARCHAR NOT NULL,
  endpoint_id VARCHAR,
  url VARCHAR NOT NULL,
  message_id VARCHAR NOT NULL,
  payload JSON NOT NULL,
  status VARCHAR NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TIMESTAMPTZ,
  last_status_code INTEGER,
  last_error VARCHAR,
  created_at TIMESTAMPTZ NOT NULL,
  delivered_at TIMESTAMPTZ
);
CREATE INDEX webhook_deliveries_job ON webhook_deliveries (org_id, job_id);
CREATE TABLE webhook_attempts (
  delivery_id VARCHAR NOT NULL,
  attempt INTEGER NOT NULL,
  attempted_at TIMESTAMPTZ NOT NULL,
  status_code INTEGER,
  error VARCHAR,
  duration_ms INTEGER NOT NULL
);
