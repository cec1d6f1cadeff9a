-- Jobs handed to the new queue system (BullMQ on Redis). A row is written in the same
-- transaction as its job and removed in the transaction that records the job's outcome, so
-- the API process can always find accepted work whose result has not come back (and put
-- it on a queue again if Redis lost it): nothing accepted is lost.
CREATE TABLE redis_dispatches (
  job_id VARCHAR PRIMARY KEY,
  queue VARCHAR NOT NULL,
  bull_job_id VARCHAR NOT NULL,
  payload JSON NOT NULL,
  lane VARCHAR NOT NULL,
  dispatched_at TIMESTAMPTZ NOT NULL
);
