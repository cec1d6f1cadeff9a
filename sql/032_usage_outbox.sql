-- Usage events written in the same transaction as the job's completion and relayed to the
-- usage sink (Kafka or the in-process bus) afterwards; `sent_at` is set only after the sink
-- acknowledged, so an outage delays events and never loses them.
CREATE TABLE usage_outbox (
  event_id VARCHAR PRIMARY KEY,
  job_id VARCHAR NOT NULL,
  org_id VARCHAR NOT NULL,
  event JSON NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  sent_at TIMESTAMPTZ,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error VARCHAR
);
CREATE UNIQUE INDEX usage_outbox_job ON usage_outbox (job_id);
