-- The database queue: two queues (cpu, io), each with lanes priority, standard and batch.
-- Workers claim the oldest available task of the best lane (priority before standard before
-- batch). A task left `running` by a crash is re-queued at start-up until max_attempts.
CREATE TABLE queue_tasks (
  task_id VARCHAR PRIMARY KEY,
  seq BIGINT NOT NULL,
  queue VARCHAR NOT NULL,
  lane VARCHAR NOT NULL,
  kind VARCHAR NOT NULL,
  payload JSON NOT NULL,
  state VARCHAR NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  available_at TIMESTAMPTZ NOT NULL,
  enqueued_at TIMESTAMPTZ NOT NULL,
  claimed_at TIMESTAMPTZ,
  last_error VARCHAR
);
CREATE SEQUENCE queue_tasks_seq;
CREATE TABLE processing_secrets (
  name VARCHAR PRIMARY KEY,
  value VARCHAR NOT NULL
);
